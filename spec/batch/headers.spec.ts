import { canonicalHeaderName, readHeaderBlock } from '../../lib/batch/headers';
import { catchODataError } from './helpers';

function read(text: string, maxBytes = 1000) {
  const buffer = Buffer.from(text, 'latin1');
  const block = readHeaderBlock(buffer, 0, buffer.length, maxBytes, 'part 1');
  return { headers: { ...block.headers }, rest: buffer.toString('latin1', block.contentStart) };
}

describe('readHeaderBlock', () => {
  it.each([
    ['CRLF lines', 'A: 1\r\nB: 2\r\n\r\nbody', { a: '1', b: '2' }, 'body'],
    ['bare LF lines', 'A: 1\nB: 2\n\nbody', { a: '1', b: '2' }, 'body'],
    ['mixed line ends', 'A: 1\r\nB: 2\n\r\nbody', { a: '1', b: '2' }, 'body'],
    ['no space after the colon (UI5 v4 spelling)', 'Content-ID:0.0\r\n\r\n', { 'content-id': '0.0' }, ''],
    ['OWS trimmed on both sides', 'A: \t x y \t\r\n\r\n', { a: 'x y' }, ''],
    ['empty value', 'A:\r\n\r\n', { a: '' }, ''],
    ['names are lower-cased', 'Content-Type: application/http\r\n\r\n', { 'content-type': 'application/http' }, ''],
    ['repeated fields are joined with ", "', 'Accept: a\r\naccept: b\r\n\r\n', { accept: 'a, b' }, ''],
    ['obs-fold becomes one space', 'A: one\r\n  two\r\n\tthree\r\n\r\n', { a: 'one two three' }, ''],
    ['a block that runs to the end has no content', 'A: 1\r\nB: 2', { a: '1', b: '2' }, ''],
    ['an immediately empty block', '\r\nbody', {}, 'body'],
    ['obs-text (ISO-8859-1) values are kept', 'A: caf\u00e9\r\n\r\n', { a: 'caf\u00e9' }, ''],
    ['__proto__ is an ordinary header name', '__proto__: x\r\n\r\n', { ['__proto__']: 'x' }, ''],
  ])('reads %s', (_name, text, headers, rest) => {
    const result = read(text);
    expect(result.headers).toEqual(headers);
    expect(Object.getPrototypeOf(readHeaderBlock(Buffer.from(text, 'latin1'), 0, text.length, 1000, 'x').headers)).toBe(null);
    expect(result.rest).toBe(rest);
  });

  it.each([
    ['no colon', 'Content-Type application/http\r\n\r\n', "part 1: 'Content-Type application/http' is not a header field (name: value)"],
    ['empty name', ': value\r\n\r\n', "part 1: ': value' is not a header field"],
    ['space before the colon (RFC 7230 §3.2.4)', 'Content-Type : x\r\n\r\n', "part 1: bad character in the header name 'Content-Type '"],
    ['a bad name character', 'Cont(ent: x\r\n\r\n', "bad character in the header name 'Cont(ent'"],
    ['a fold on the first line', ' A: 1\r\n\r\n', 'part 1: a header block cannot start with whitespace'],
    ['a control character in a value', 'A: x\u0001y\r\n\r\n', "control character 0x01 in the value of the header 'a'"],
    ['a bare CR inside a value', 'A: x\ry\r\n\r\n', "control character 0x0d in the value of the header 'a'"],
    ['DEL in a value', 'A: \u007f\r\n\r\n', "control character 0x7f in the value of the header 'a'"],
  ])('refuses %s with BATCH_SYNTAX', (_name, text, detail) => {
    const error = catchODataError(() => read(text));
    expect([error.status, error.code]).toEqual([400, 'BATCH_SYNTAX']);
    expect(error.message).toContain(detail);
  });

  it('refuses a block longer than the limit with BATCH_PART_LIMIT', () => {
    const error = catchODataError(() => read(`A: ${'x'.repeat(40)}\r\n\r\n`, 20));
    expect([error.status, error.code, error.message]).toEqual([
      400,
      'BATCH_PART_LIMIT',
      'The batch request has more than 20 bytes in the headers of part 1.',
    ]);
  });

  it('accepts a block of exactly the limit', () => {
    expect(read('A: 123\r\n\r\n', 6).headers).toEqual({ a: '123' });
  });

  it('echoes at most 60 characters of an offending line, without control characters', () => {
    const error = catchODataError(() => read(`${'n'.repeat(100)}\r\n\r\n`));
    expect(error.message).toBe(`The batch request is malformed: part 1: '${'n'.repeat(57)}...' is not a header field (name: value)`);
  });
});

describe('canonicalHeaderName', () => {
  it.each([
    ['content-type', 'Content-Type'],
    ['dataserviceversion', 'DataServiceVersion'],
    ['etag', 'ETag'],
    ['location', 'Location'],
    ['content-id', 'Content-ID'],
    ['x-csrf-token', 'X-CSRF-Token'],
    ['sap-message', 'Sap-Message'],
    ['x-custom-header', 'X-Custom-Header'],
  ])('%s -> %s', (name, canonical) => {
    expect(canonicalHeaderName(name)).toBe(canonical);
  });
});
