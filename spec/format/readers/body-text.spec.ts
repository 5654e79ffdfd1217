import { decodeBodyText } from '../../../lib/format/body-text';
import { catchODataError } from './catch-odata-error';

describe('decodeBodyText', () => {
  it.each([
    ['no content type', Buffer.from('{"a":"ü"}'), undefined, '{"a":"ü"}'],
    ['charset utf-8', Buffer.from('ü€𝄞'), 'application/json;charset=utf-8', 'ü€𝄞'],
    ['a UTF-8 BOM is dropped', Buffer.from([0xef, 0xbb, 0xbf, 0x61]), 'application/xml', 'a'],
    ['a string body is taken as decoded', '\ufeffabc', 'application/json', 'abc'],
    ['an empty body', Buffer.alloc(0), 'application/json', ''],
  ])('%s', (_name, body, contentType, expected) => {
    expect(decodeBodyText(body, contentType)).toBe(expected);
  });

  it.each([
    ['charset latin1', Buffer.from('a'), 'application/json; charset=ISO-8859-1', 415, 'UNSUPPORTED_MEDIA_TYPE', "the charset 'iso-8859-1' is not supported"],
    ['charset utf-16', Buffer.from('a'), 'application/atom+xml;charset=utf-16', 415, 'UNSUPPORTED_MEDIA_TYPE', 'send the body as UTF-8'],
    ['invalid UTF-8 bytes', Buffer.from([0x7b, 0xc3, 0x28, 0x7d]), 'application/json', 400, 'BODY_SYNTAX', 'not valid UTF-8'],
    ['a lone surrogate encoded', Buffer.from([0xed, 0xa0, 0x80]), undefined, 400, 'BODY_SYNTAX', 'not valid UTF-8'],
  ])('%s', (_name, body, contentType, status, code, fragment) => {
    const error = catchODataError(() => decodeBodyText(body, contentType));
    expect([error.status, error.code]).toEqual([status, code]);
    expect(error.message).toContain(fragment);
  });
});
