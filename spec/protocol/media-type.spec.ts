import {
  charsetOf,
  isTokenChar,
  isValidBoundary,
  mediaTypeOf,
  parseAccept,
  parseAcceptCharset,
  parseMediaRange,
  parseMediaType,
  parseQuality,
  readContentType,
} from '../../lib/protocol/media-type';
import { catchODataError } from '../helpers/odata-error';

/** `[essence, parameters]` of a media type, for table rows. */
function shape(type: { essence: string; parameters: ReadonlyMap<string, string> } | undefined): [string, Record<string, string>] | undefined {
  return type === undefined ? undefined : [type.essence, Object.fromEntries(type.parameters)];
}

describe('parseMediaType (strict: $batch Content-Types)', () => {
  it.each<[string, string, Record<string, string>]>([
    ['application/http', 'application/http', {}],
    ['Application/HTTP; Msgtype="re\\"quest"; X=Y', 'application/http', { msgtype: 're"quest', x: 'Y' }],
    ['  multipart/mixed ;  boundary=batch_1 ', 'multipart/mixed', { boundary: 'batch_1' }],
    ['multipart/mixed;boundary=batch(36522ad7-fc75)', 'multipart/mixed', { boundary: 'batch(36522ad7-fc75)' }],
    ['multipart/mixed; boundary="a b"', 'multipart/mixed', { boundary: 'a b' }],
    ['multipart/mixed; boundary=a;', 'multipart/mixed', { boundary: 'a' }],
    ['multipart/mixed;; boundary=a', 'multipart/mixed', { boundary: 'a' }],
    ['text/plain;charset=UTF-8', 'text/plain', { charset: 'UTF-8' }],
    ['a/b;p="x\u00e9"', 'a/b', { p: 'x\u00e9' }],
  ])('reads %j', (text, essence, parameters) => {
    expect(shape(parseMediaType(text, 'BATCH_SYNTAX'))).toEqual([essence, parameters]);
  });

  it.each<[string, string, number]>([
    ['', 'expected a media type', 0],
    ['/mixed', 'expected a media type', 0],
    ['multipart', "expected '/' after the type", 9],
    ['multipart /mixed', "expected '/' after the type", 9],
    ['multipart/', 'expected a subtype', 10],
    ['a/b c', "expected ';' before a parameter", 4],
    ['a/b; =c', 'expected a parameter name', 5],
    ['a/b; p', "expected '=' after the parameter 'p'", 6],
    ['a/b; p=', "expected a value for the parameter 'p'", 7],
    ['a/b; p=x y', "expected ';' before a parameter", 9],
    ['a/b; p=x@y', "expected ';' before a parameter", 8],
    ['a/b; p="x', 'unterminated quoted string', 7],
    ['a/b; p="x\\', 'unterminated quoted string', 7],
    ['a/b; p="x\u0001"', 'bad character in a quoted string', 9],
    ['a/b; p="x\\\u0001"', 'bad escape in a quoted string', 9],
    ['a/b; p=1; P=2', "the parameter 'p' is given twice", 10],
  ])('refuses %j: %s at %d', (text, detail, position) => {
    const error = catchODataError(() => parseMediaType(text, 'BATCH_SYNTAX'));
    expect([error.code, error.status, error.target, error.position]).toEqual(['BATCH_SYNTAX', 400, 'Content-Type', position]);
    expect(error.message).toContain(`${detail} at position ${position} in '${text}'`);
  });
});

describe('readContentType (lenient: request bodies)', () => {
  it.each<[string | undefined, [string, Record<string, string>] | undefined]>([
    ['application/json', ['application/json', {}]],
    ['Application/JSON; Charset=UTF-8', ['application/json', { charset: 'UTF-8' }]],
    // a malformed parameter is passed over up to the next `;` outside quotes
    ['application/json;charset', ['application/json', {}]],
    ['application/json; x; charset=latin1', ['application/json', { charset: 'latin1' }]],
    ['application/json; a=b c; charset=latin1', ['application/json', { charset: 'latin1' }]],
    ['application/json; a="x;y" junk; charset=latin1', ['application/json', { charset: 'latin1' }]],
    ['application/json; a="open', ['application/json', {}]],
    // the first of a repeated parameter counts
    ['text/plain; charset=utf-8; charset=latin1', ['text/plain', { charset: 'utf-8' }]],
    // without `type/subtype` first there is no media type
    [undefined, undefined],
    ['', undefined],
    ['json', undefined],
    ['application/json garbage', undefined],
    ['application/ json', undefined],
    ['"application/json"', undefined],
  ])('%j', (text, expected) => {
    expect(shape(readContentType(text))).toEqual(expected);
  });

  it.each<[string | undefined, string]>([
    ['application/json', 'application/json'],
    ['Application/Atom+XML;type=entry', 'application/atom+xml'],
    ['multipart/form-data; boundary="a;b"', 'multipart/form-data'],
    ['application/json garbage', ''],
    [undefined, ''],
  ])('mediaTypeOf(%j) is %j', (text, expected) => {
    expect(mediaTypeOf(text)).toBe(expected);
  });

  it.each<[string | undefined, string | undefined]>([
    ['application/json', undefined],
    ['application/json;charset=utf-8', 'utf-8'],
    ['application/json; Charset=UTF-8', 'utf-8'],
    ['application/atom+xml;type=entry;charset="utf-8"', 'utf-8'],
    ['application/xml; a="x;charset=latin1"; charset=iso-8859-1', 'iso-8859-1'],
    ['text/plain; charset="utf\\-8"', 'utf-8'],
    ['application/json;odata=verbose', undefined],
    ['application/json;charset', undefined],
    [undefined, undefined],
  ])('charsetOf(%j) is %j', (text, expected) => {
    expect(charsetOf(text)).toBe(expected);
  });
});

describe('parseAccept', () => {
  it.each<[string, [string, string, Record<string, string>, number][]]>([
    ['application/json', [['application', 'json', {}, 1]]],
    ['Application/JSON;odata=Verbose', [['application', 'json', { odata: 'verbose' }, 1]]],
    ['*/*', [['*', '*', {}, 1]]],
    [
      'application/*;q=0.5, text/plain',
      [
        ['application', '*', {}, 0.5],
        ['text', 'plain', {}, 1],
      ],
    ],
    ['text/html;level=1;q=0.7;ext=1', [['text', 'html', { level: '1' }, 0.7]]],
    [
      'application/atom+xml;type=entry, application/xml;q=0.9',
      [
        ['application', 'atom+xml', { type: 'entry' }, 1],
        ['application', 'xml', {}, 0.9],
      ],
    ],
    ['a/b; p="x,y"; q=1.000', [['a', 'b', { p: 'x,y' }, 1]]],
    ['a/b ; q=0', [['a', 'b', {}, 0]]],
    [' , a/b,, ', [['a', 'b', {}, 1]]],
    ['a/b;q=0.5;ext', [['a', 'b', {}, 0.5]]],
    // malformed elements are skipped
    ['text, a/b', [['a', 'b', {}, 1]]],
    ['*/json, a/b', [['a', 'b', {}, 1]]],
    ['a/b;q=2, c/d;q=0.5', [['c', 'd', {}, 0.5]]],
    ['a/b;q=0.1234', []],
    ['a/b;q=0.5 x', []],
    ['a/b;noequals', []],
    ['a/b;p=x y', []],
    ['a b/c', []],
    ['a/b;p="x, c/d', []],
    ['', []],
  ])('%p', (header, expected) => {
    const ranges = parseAccept(header).map((r) => [r.type, r.subtype, Object.fromEntries(r.parameters), r.q]);
    expect(ranges).toEqual(expected);
  });

  it('parses each header text once: the same text gives the same frozen ranges', () => {
    const header = 'application/json;q=0.9, application/xml';
    const first = parseAccept(header);
    expect(Object.isFrozen(first)).toBe(true);
    expect(parseAccept(header)).toBe(first);
    expect(parseAccept(`${header} `)).not.toBe(first);
  });
});

describe('parseMediaRange ($format media types)', () => {
  it.each<[string, [string, string, Record<string, string>, number] | undefined]>([
    ['application/json', ['application', 'json', {}, 1]],
    ['application/json;odata=verbose', ['application', 'json', { odata: 'verbose' }, 1]],
    ['text/*', ['text', '*', {}, 1]],
    ['application/json,text/xml', undefined],
    ['json', undefined],
    ['*/json', undefined],
    ['', undefined],
  ])('%j', (text, expected) => {
    const range = parseMediaRange(text);
    expect(range === undefined ? undefined : [range.type, range.subtype, Object.fromEntries(range.parameters), range.q]).toEqual(expected);
  });
});

describe('parseAcceptCharset', () => {
  it.each<[string, [string, number][]]>([
    ['utf-8', [['utf-8', 1]]],
    [
      'ISO-8859-1, UTF-8;q=0.7',
      [
        ['iso-8859-1', 1],
        ['utf-8', 0.7],
      ],
    ],
    ['*;q=0.3', [['*', 0.3]]],
    [' , utf-8 ;q=0 ,', [['utf-8', 0]]],
    // malformed elements are skipped
    ['utf-8;q=2, *', [['*', 1]]],
    ['utf 8, latin1', [['latin1', 1]]],
    [';q=1', []],
    ['', []],
  ])('%j', (header, expected) => {
    expect(parseAcceptCharset(header).map((r) => [r.charset, r.q])).toEqual(expected);
  });
});

describe('parseQuality', () => {
  it.each<[string, number | undefined]>([
    ['0', 0],
    ['1', 1],
    ['0.', 0],
    ['0.5', 0.5],
    ['0.123', 0.123],
    ['1.000', 1],
    ['1.', 1],
    ['0.1234', undefined],
    ['1.001', undefined],
    ['2', undefined],
    ['.5', undefined],
    ['0,5', undefined],
    ['', undefined],
    [' 1', undefined],
  ])('%j -> %s', (text, expected) => {
    expect(parseQuality(text)).toBe(expected);
  });
});

describe('isTokenChar', () => {
  it('takes exactly the tchar characters of RFC 9110 §5.6.2', () => {
    const tokens = [...Array(256).keys()]
      .filter(isTokenChar)
      .map((code) => String.fromCharCode(code))
      .join('');
    expect(tokens).toBe("!#$%&'*+-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ^_`abcdefghijklmnopqrstuvwxyz|~");
  });
});

describe('isValidBoundary', () => {
  it.each([
    ['a', true],
    ['batch_36522ad7-fc75-4b56-8c71-56071383e77b', true],
    ["'()+_,-./:=?", true],
    ['a b', true],
    ['a ', false],
    ['', false],
    ['a\tb', false],
    ['ä', false],
    ['x'.repeat(70), true],
    ['x'.repeat(71), false],
  ])('%j -> %s', (boundary, valid) => {
    expect(isValidBoundary(boundary)).toBe(valid);
  });
});
