import { canonicalHeaderName, printable, readHeaderText } from '../../lib/batch/headers';
import { isTokenChar } from '../../lib/protocol/media-type';
import { ODataError } from '../../lib/errors';
import { seededRandom } from '../helpers/random';
import { catchODataError } from './helpers';

/** Headers and what follows them, read from the ISO-8859-1 text of the bytes, as the batch reader does. */
function read(text: string, maxBytes = 1000) {
  const latin1 = Buffer.from(text, 'latin1').toString('latin1');
  const block = readHeaderText(latin1, 0, latin1.length, maxBytes, 'part 1');
  return { headers: { ...block.headers }, rest: latin1.slice(block.contentStart) };
}

describe('readHeaderText', () => {
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
    // Nothing inherited: no Object.prototype members that a header name could collide with.
    const map = readHeaderText(text, 0, text.length, 1000, 'x').headers;
    expect(['constructor' in map, 'toString' in map, 'hasOwnProperty' in map]).toEqual([false, false, false]);
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
    expect([error.status, error.code, error.message]).toEqual([400, 'BATCH_PART_LIMIT', 'The batch request has more than 20 bytes in the headers of part 1.']);
  });

  it('accepts a block of exactly the limit', () => {
    expect(read('A: 123\r\n\r\n', 6).headers).toEqual({ a: '123' });
  });

  it('echoes at most 60 characters of an offending line, without control characters', () => {
    const error = catchODataError(() => read(`${'n'.repeat(100)}\r\n\r\n`));
    expect(error.message).toBe(`The batch request is malformed: part 1: '${'n'.repeat(57)}...' is not a header field (name: value)`);
  });
});

/**
 * The line-by-line reader over bytes that readHeaderText replaced (it reads decoded text): the new one
 * must answer every input exactly as this one did, errors and their precedence included.
 */
function referenceReadHeaderBlock(buffer: Buffer, start: number, end: number, maxBytes: number, where: string, countFrom: number): unknown {
  const syntax = (detail: string): ODataError => ODataError.fromCode('BATCH_SYNTAX', { detail: `${where}: ${detail}` });
  const checkValue = (value: string, name: string): string => {
    for (let i = 0; i < value.length; i++) {
      const code = value.charCodeAt(i);
      if ((code < 0x20 && code !== 0x09) || code === 0x7f)
        throw syntax(`control character 0x${code.toString(16).padStart(2, '0')} in the value of the header '${name}'`);
    }
    return value;
  };
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  let lastName: string | undefined;
  let pos = start;
  while (pos < end) {
    const lf = buffer.indexOf(0x0a, pos);
    const lineEnd = lf < 0 || lf >= end ? end : lf > pos && buffer[lf - 1] === 0x0d ? lf - 1 : lf;
    const next = lf < 0 || lf >= end ? end : lf + 1;
    if (lineEnd === pos) return { headers: { ...headers }, contentStart: next };
    if (lineEnd - countFrom > maxBytes) throw ODataError.fromCode('BATCH_PART_LIMIT', { limit: maxBytes, what: `bytes in the headers of ${where}` });
    const line = buffer.toString('latin1', pos, lineEnd);
    const first = line.charCodeAt(0);
    if (first === 0x20 || first === 0x09) {
      if (lastName === undefined) throw syntax(`a header block cannot start with whitespace: '${printable(line)}'`);
      headers[lastName] = `${headers[lastName]} ${checkValue(line.trim(), lastName)}`.trim();
    } else {
      const colon = line.indexOf(':');
      if (colon <= 0) throw syntax(`'${printable(line)}' is not a header field (name: value)`);
      for (let i = 0; i < colon; i++)
        if (!isTokenChar(line.charCodeAt(i))) throw syntax(`bad character in the header name '${printable(line.slice(0, colon))}'`);
      const name = line.slice(0, colon).toLowerCase();
      const value = checkValue(line.slice(colon + 1).trim(), name);
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
      lastName = name;
    }
    pos = next;
  }
  return { headers: { ...headers }, contentStart: end };
}

function outcome(read: () => unknown): unknown {
  try {
    return read();
  } catch (error) {
    if (error instanceof ODataError) return `${error.code}: ${error.message}`;
    throw error;
  }
}

describe('readHeaderText against the line-by-line reference', () => {
  const PIECES = [
    'A: 1',
    'Content-Type: application/http',
    'accept: b',
    ' folded',
    '\tx',
    ': v',
    'B :x',
    'C:\u0001',
    '\r\n',
    '\n',
    '\r',
    'x'.repeat(30),
    'body',
  ];

  it('answers 20,000 random blocks, limits and offsets exactly as the reference', () => {
    const random = seededRandom(2024);
    for (let n = 0; n < 20000; n++) {
      let text = '';
      const count = Math.floor(random() * 8);
      for (let i = 0; i < count; i++) text += PIECES[Math.floor(random() * PIECES.length)] + (random() < 0.7 ? '\r\n' : '');
      if (random() < 0.6) text += '\r\nrest';
      const prefix = 'GET x HTTP/1.1\r\n'.slice(0, Math.floor(random() * 17));
      const buffer = Buffer.from(prefix + text, 'latin1');
      const start = prefix.length;
      const countFrom = random() < 0.5 ? start : 0;
      const end = random() < 0.8 ? buffer.length : start + Math.floor(random() * (buffer.length - start + 1));
      const maxBytes = 1 + Math.floor(random() * 60);
      const expected = outcome(() => referenceReadHeaderBlock(buffer, start, end, maxBytes, 'part 1', countFrom));
      const actual = outcome(() => {
        const block = readHeaderText(buffer.toString('latin1'), start, end, maxBytes, 'part 1', countFrom);
        return { headers: { ...block.headers }, contentStart: block.contentStart };
      });
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        throw new Error(
          `differs for ${JSON.stringify({ text: prefix + text, start, end, maxBytes, countFrom })}: ${JSON.stringify(actual)} vs ${JSON.stringify(expected)}`,
        );
      }
    }
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
