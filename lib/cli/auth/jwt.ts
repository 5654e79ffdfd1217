/**
 * Bearer tokens (RFC 6750) verified with jose: a signed JWT whose algorithm is the one its key
 * type allows (HS256 for a secret, RS256 or ES256 for a public key or a key set), so `alg: none`
 * and a token signed with the public key as an HMAC secret are refused before any key is used.
 * `exp` and `nbf` are checked with 30 s of tolerance; `aud` and `iss` when configured.
 */
import type { KeyObject } from 'crypto';
import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { Clock } from '../../index';
import { isInstanceOf } from '../../util';
import { messageOf } from '../errors';
import { roleNameProblem } from '../../sql/role-names';
import type { Verdict } from './identity';

/** Where the keys that verify tokens come from. */
export type JwtKeys =
  | { readonly kind: 'secret'; readonly secret: Uint8Array }
  | { readonly kind: 'public-key'; readonly key: KeyObject; readonly algorithm: 'RS256' | 'ES256' }
  | { readonly kind: 'key-set'; readonly url: URL };

/** How tokens are verified and mapped to roles. */
export interface JwtSettings {
  readonly keys: JwtKeys;
  readonly audience?: string;
  readonly issuer?: string;
  /** The path of the claim that names the role (`['role']`, `['realm_access', 'role']`). */
  readonly roleClaim: readonly string[];
  /** The role of a valid token without the role claim; without it such a token is 403. */
  readonly defaultRole?: string;
  /** The time `exp` and `nbf` are checked against; default the system's. */
  readonly clock?: Clock;
}

/** Clock skew allowed between the token's issuer and this server. */
const CLOCK_TOLERANCE_SECONDS = 30;

/** How long a key set's server gets to answer. */
const KEY_SET_TIMEOUT_MS = 5000;

/** The key set could not be fetched: the token itself may be fine. */
class KeySetUnavailable extends Error {}

/** jose's errors for a token whose `kid` or key type matches no key of a fetched set: the token's fault. */
const TOKEN_KEY_ERRORS = new Set(['ERR_JWKS_NO_MATCHING_KEY', 'ERR_JWKS_MULTIPLE_MATCHING_KEYS']);

/** The key set at `url`, whose failures to fetch are told apart from a token's faults. */
function remoteKeys(url: URL): JWTVerifyGetKey {
  const keySet = createRemoteJWKSet(url, { timeoutDuration: KEY_SET_TIMEOUT_MS });
  return async (header, token) => {
    try {
      return await keySet(header, token);
    } catch (error) {
      if (isInstanceOf(error, errors.JOSEError) && TOKEN_KEY_ERRORS.has(error.code)) throw error;
      throw new KeySetUnavailable(`the key set at ${url.href} cannot be fetched: ${messageOf(error)}`, { cause: error });
    }
  };
}

/** The value at `path` in `claims`, own properties only. */
function claimAt(claims: Readonly<Record<string, unknown>>, path: readonly string[]): unknown {
  let value: unknown = claims;
  for (const name of path) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, name)) return undefined;
    value = (value as Record<string, unknown>)[name];
  }
  return value;
}

/** The check of a bearer token (the text after `Bearer `). */
export function jwtVerifier(settings: JwtSettings): (token: string) => Promise<Verdict> {
  const { keys } = settings;
  const key = keys.kind === 'secret' ? keys.secret : keys.kind === 'public-key' ? keys.key : remoteKeys(keys.url);
  // One algorithm family per key type: never both HMAC and a public-key algorithm.
  const algorithms = keys.kind === 'secret' ? ['HS256'] : keys.kind === 'public-key' ? [keys.algorithm] : ['RS256', 'ES256'];
  return async (token) => {
    const options = {
      algorithms,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      ...(settings.audience === undefined ? {} : { audience: settings.audience }),
      ...(settings.issuer === undefined ? {} : { issuer: settings.issuer }),
      ...(settings.clock === undefined ? {} : { currentDate: settings.clock() }),
    };
    let claims: Readonly<Record<string, unknown>>;
    try {
      // Overloads by key kind: a key, or a function that finds one.
      claims = (typeof key === 'function' ? await jwtVerify(token, key, options) : await jwtVerify(token, key, options)).payload;
    } catch (error) {
      if (isInstanceOf(error, KeySetUnavailable)) return { kind: 'unavailable', reason: error.message };
      if (isInstanceOf(error, errors.JOSEError)) return { kind: 'invalid' };
      throw error;
    }
    const role = claimAt(claims, settings.roleClaim);
    if (role === undefined)
      return settings.defaultRole === undefined ? { kind: 'no-role' } : { kind: 'admitted', identity: { role: settings.defaultRole, claims } };
    if (typeof role !== 'string' || roleNameProblem(role) !== undefined) return { kind: 'no-role' };
    return { kind: 'admitted', identity: { role, claims } };
  };
}
