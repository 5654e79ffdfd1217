/** responseHeaders, the loop that stands in for `{ ...given, dataserviceversion }`, gives exactly that object. */
import { responseHeaders } from '../../lib/format/response-headers';

describe('responseHeaders', () => {
  it.each<[string, Readonly<Record<string, string>> | undefined]>([
    ['no headers', undefined],
    ['an empty object', {}],
    ['an ETag', { etag: 'W/"1"' }],
    ['an ETag and a Location', { location: 'http://localhost/odata/Products(1)', etag: 'W/"0"' }],
    ['a Retry-After and an Allow', { 'retry-after': '1', allow: 'GET, POST' }],
    ['a DataServiceVersion of its own (the version given wins, in its place)', { etag: 'W/"2"', dataserviceversion: '1.0;', location: 'x' }],
  ])('copies %s as the spread does, keys in the same order', (_case, given) => {
    const expected = { ...given, dataserviceversion: '2.0;' };
    const actual = responseHeaders(given, '2.0;');
    expect(actual).toEqual(expected);
    expect(Object.keys(actual)).toEqual(Object.keys(expected));
  });

  it('returns a fresh object: adding to it leaves the handler headers alone', () => {
    const given = Object.freeze({ etag: 'W/"1"' });
    const headers = responseHeaders(given, '1.0;');
    headers['content-type'] = 'application/json;charset=utf-8';
    expect(given).toEqual({ etag: 'W/"1"' });
  });
});
