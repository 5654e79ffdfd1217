/**
 * The `x-csrf-token` handshake SAP clients perform (SAPUI5, SAP Cloud SDK): a read with
 * `x-csrf-token: Fetch` receives a token; modifying requests must send it back, else 403 with
 * `x-csrf-token: Required`. Stateless double-submit: the token is also set as an HttpOnly cookie and
 * a modifying request is valid when header and cookie agree, so any instance can check it and a
 * cross-site page (which cannot read the cookie) cannot forge it.
 */
import { randomBytes, timingSafeEqual } from 'crypto';
import { ODataError } from '../errors';

interface CsrfOptions {
  /** Name of the cookie that carries the token. Default `odata_csrf`. */
  readonly cookieName?: string;
}

/** @internal What the middleware needs to run the handshake. */
export interface CsrfPolicy {
  readonly cookieName: string;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function csrfPolicyOf(option: boolean | CsrfOptions | undefined): CsrfPolicy | undefined {
  if (option === undefined || option === false) return undefined;
  return { cookieName: option === true ? 'odata_csrf' : (option.cookieName ?? 'odata_csrf') };
}

function cookieValue(cookieHeader: string | undefined, name: string): string | undefined {
  if (cookieHeader === undefined) return undefined;
  for (const pair of cookieHeader.split(';')) {
    const eq = pair.indexOf('=');
    if (eq !== -1 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Headers to add for a token fetch (`x-csrf-token: Fetch` on a safe request), reusing the client's
 * current token when it has a valid one so parallel fetches do not invalidate each other.
 */
export function csrfFetchHeaders(
  policy: CsrfPolicy,
  method: string,
  headers: Readonly<Record<string, string | undefined>>,
  secure: boolean,
): Record<string, string> | undefined {
  if (!SAFE_METHODS.has(method) || headers['x-csrf-token']?.trim().toLowerCase() !== 'fetch') return undefined;
  const current = cookieValue(headers['cookie'], policy.cookieName);
  const token = current !== undefined && /^[A-Za-z0-9_-]{43}$/.test(current) ? current : randomBytes(32).toString('base64url');
  const cookie = `${policy.cookieName}=${token}; Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
  return { 'x-csrf-token': token, 'set-cookie': cookie };
}

/** 403 with `x-csrf-token: Required` for a modifying request without a matching token. */
export function checkCsrf(policy: CsrfPolicy, method: string, headers: Readonly<Record<string, string | undefined>>): void {
  if (SAFE_METHODS.has(method)) return;
  const sent = headers['x-csrf-token'];
  const expected = cookieValue(headers['cookie'], policy.cookieName);
  if (sent !== undefined && expected !== undefined && sameToken(sent.trim(), expected)) return;
  throw ODataError.fromCode('CSRF_TOKEN_REQUIRED', {}, { headers: { 'x-csrf-token': 'Required' } });
}
