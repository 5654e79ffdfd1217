import { parseMultipartBoundary } from '../../lib/batch/content-type';
import { catchODataError } from './helpers';

describe('parseMultipartBoundary', () => {
  it.each([
    ['multipart/mixed; boundary=batch_1', 'batch_1'],
    ['multipart/mixed;boundary=batch_d0dc-21c0-39f6', 'batch_d0dc-21c0-39f6'], // datajs / SAPUI5 spelling
    ['Multipart/Mixed; BOUNDARY=batch_1', 'batch_1'],
    ['multipart/mixed ;  boundary=batch_1 ', 'batch_1'],
    ['multipart/mixed; boundary="batch_1"', 'batch_1'],
    ['multipart/mixed; boundary="batch 1"', 'batch 1'],
    ['multipart/mixed; boundary="a\\"b"', undefined], // quoted-pair unescapes to a", which is no boundary char
    ['multipart/mixed; boundary="gc0p4Jq0M2Yt08j34c0p"; charset=utf-8', 'gc0p4Jq0M2Yt08j34c0p'],
    ['multipart/mixed; charset=utf-8; boundary=x', 'x'],
    ['multipart/mixed; boundary=batch(36522ad7-fc75-4b56-8c71-56071383e77b)', 'batch(36522ad7-fc75-4b56-8c71-56071383e77b)'],
    ['multipart/mixed; boundary="(),:/=?+_.\'"', "(),:/=?+_.'"],
    ['multipart/mixed; boundary=a;', 'a'],
    ['multipart/mixed;; boundary=a', 'a'],
    [`multipart/mixed; boundary=${'b'.repeat(70)}`, 'b'.repeat(70)],
  ])('reads %j', (header, expected) => {
    if (expected === undefined) {
      expect(catchODataError(() => parseMultipartBoundary(header, 'BATCH_CONTENT_TYPE')).code).toBe('BATCH_CONTENT_TYPE');
    } else {
      expect(parseMultipartBoundary(header, 'BATCH_CONTENT_TYPE')).toBe(expected);
    }
  });

  it.each([
    [undefined, 'the Content-Type header is missing'],
    ['', 'the Content-Type header is missing'],
    ['application/json', "got 'application/json', expected 'multipart/mixed'"],
    ['multipart/form-data; boundary=x', "got 'multipart/form-data', expected 'multipart/mixed'"],
    ['multipart/mixed', "the boundary parameter is missing in 'multipart/mixed'"],
    ['multipart/mixed; charset=utf-8', 'the boundary parameter is missing'],
    ['multipart/mixed; boundary=', "expected a value for the parameter 'boundary' at position 26"],
    ['multipart/mixed; boundary=""', "the boundary '' is not valid"],
    [`multipart/mixed; boundary=${'b'.repeat(71)}`, 'is not valid (RFC 2046 §5.1.1'],
    ['multipart/mixed; boundary="trailing "', "the boundary 'trailing ' is not valid"],
    ['multipart/mixed; boundary="a@b"', "the boundary 'a@b' is not valid"],
    ['multipart/mixed; boundary="open', 'unterminated quoted string at position 26'],
    ['multipart/mixed; boundary=a; boundary=b', "the parameter 'boundary' is given twice at position 29"],
    ['multipart/mixed; boundary=a b', "expected ';' before a parameter at position 28"],
    ['multipart/mixed; boundary=a@b', "expected ';' before a parameter at position 27"],
    ['multipart/mixed; =a', 'expected a parameter name at position 17'],
    ['multipart/mixed; boundary', "expected '=' after the parameter 'boundary' at position 25"],
    ['multipart', "expected '/' after the type at position 9"],
    ['multipart/', 'expected a subtype at position 10'],
    ['/mixed', 'expected a media type at position 0'],
    ['multipart/mixed; boundary="a\u0001b"', 'bad character in a quoted string at position 28'],
  ])('refuses %j with BATCH_CONTENT_TYPE (400): %s', (header, detail) => {
    const error = catchODataError(() => parseMultipartBoundary(header, 'BATCH_CONTENT_TYPE'));
    expect([error.status, error.code]).toEqual([400, 'BATCH_CONTENT_TYPE']);
    expect(error.message).toContain(detail);
    expect(error.message.startsWith('$batch requires Content-Type multipart/mixed with a boundary: ')).toBe(true);
  });

  it('reports a changeset problem with the code it is given', () => {
    const error = catchODataError(() => parseMultipartBoundary('multipart/mixed', 'BATCH_SYNTAX'));
    expect([error.code, error.message]).toEqual(['BATCH_SYNTAX', "The batch request is malformed: the boundary parameter is missing in 'multipart/mixed'"]);
  });
});
