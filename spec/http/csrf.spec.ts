import { checkCsrf, csrfFetchHeaders, csrfPolicyOf } from '../../lib/http';
import { catchODataError } from '../helpers/odata-error';

const POLICY = { cookieName: 'odata_csrf' };
const TOKEN = 'A'.repeat(43);

describe('csrfPolicyOf', () => {
  it.each([
    [undefined, undefined],
    [false, undefined],
    [true, { cookieName: 'odata_csrf' }],
    [{}, { cookieName: 'odata_csrf' }],
    [{ cookieName: 'xsrf' }, { cookieName: 'xsrf' }],
  ])('%j gives %j', (option, policy) => {
    expect(csrfPolicyOf(option)).toEqual(policy);
  });
});

describe('csrfFetchHeaders', () => {
  it('hands out a new token and an HttpOnly SameSite cookie on a safe Fetch', () => {
    const headers = csrfFetchHeaders(POLICY, 'HEAD', { 'x-csrf-token': 'Fetch' }, false);
    expect(headers?.['x-csrf-token']).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(headers?.['set-cookie']).toBe(`odata_csrf=${headers?.['x-csrf-token']}; Path=/; HttpOnly; SameSite=Strict`);
    expect(csrfFetchHeaders(POLICY, 'GET', { 'x-csrf-token': 'fetch' }, true)?.['set-cookie']).toMatch(/; Secure$/);
  });

  it('reuses a well-formed current token so parallel fetches agree', () => {
    expect(csrfFetchHeaders(POLICY, 'GET', { 'x-csrf-token': 'Fetch', cookie: `other=1; odata_csrf=${TOKEN}` }, false)?.['x-csrf-token']).toBe(TOKEN);
    expect(csrfFetchHeaders(POLICY, 'GET', { 'x-csrf-token': 'Fetch', cookie: 'odata_csrf=short' }, false)?.['x-csrf-token']).not.toBe('short');
  });

  it.each([
    ['POST', { 'x-csrf-token': 'Fetch' }],
    ['GET', {}],
    ['GET', { 'x-csrf-token': TOKEN }],
  ])('hands out nothing for %s %j', (method, headers) => {
    expect(csrfFetchHeaders(POLICY, method, headers, false)).toBeUndefined();
  });
});

describe('checkCsrf', () => {
  it.each([
    ['GET', {}],
    ['HEAD', {}],
    ['POST', { 'x-csrf-token': TOKEN, cookie: `odata_csrf=${TOKEN}` }],
    ['DELETE', { 'x-csrf-token': ` ${TOKEN} `, cookie: `a=b; odata_csrf=${TOKEN}` }],
  ])('lets %s %j pass', (method, headers) => {
    expect(() => checkCsrf(POLICY, method, headers)).not.toThrow();
  });

  it.each([
    ['POST', {}],
    ['POST', { 'x-csrf-token': TOKEN }],
    ['PUT', { cookie: `odata_csrf=${TOKEN}` }],
    ['MERGE', { 'x-csrf-token': TOKEN, cookie: `odata_csrf=${'B'.repeat(43)}` }],
    ['PATCH', { 'x-csrf-token': TOKEN, cookie: `odata_csrf=${TOKEN}x` }],
    ['DELETE', { 'x-csrf-token': TOKEN, cookie: `xodata_csrf=${TOKEN}` }],
  ])('refuses %s %j with 403 and x-csrf-token: Required', (method, headers) => {
    const error = catchODataError(() => checkCsrf(POLICY, method, headers));
    expect([error.status, error.code, error.headers]).toEqual([403, 'CSRF_TOKEN_REQUIRED', { 'x-csrf-token': 'Required' }]);
  });
});
