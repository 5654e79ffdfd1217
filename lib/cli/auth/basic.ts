/**
 * Basic credentials (RFC 7617) checked against the users file. A check costs one scrypt run
 * (about 0.1 s, on libuv's thread pool): credentials that verified once are remembered, under an
 * HMAC with a key of this process (never the password itself), so a client sending them on every
 * request pays once. An unknown user costs the same scrypt run as a wrong password.
 */
import { createHmac, randomBytes } from 'crypto';
import type { Verdict } from './identity';
import { decodePasswordHash, hashPassword, verifyPassword } from './password-hash';
import type { StoredUser } from './users-file';

/** Verified credentials remembered at most (the oldest forgotten first). */
const REMEMBERED = 1000;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** `user-id:password` of Basic credentials (the text after `Basic `), or undefined when malformed. */
function decodeCredentials(credentials: string): { name: string; password: string } | undefined {
  if (!BASE64.test(credentials)) return undefined;
  let text: string;
  try {
    // RFC 7617 §2.1: UTF-8 is the charset the challenge announces; anything else is malformed.
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(credentials, 'base64'));
  } catch {
    return undefined;
  }
  const colon = text.indexOf(':');
  return colon < 0 ? undefined : { name: text.slice(0, colon).normalize('NFC'), password: text.slice(colon + 1) };
}

/** The check of Basic credentials against `users`. */
export function basicVerifier(users: ReadonlyMap<string, StoredUser>): (credentials: string) => Promise<Verdict> {
  const key = randomBytes(32);
  const remembered = new Map<string, Verdict>();
  // The stand-in an unknown user's password is checked against, made at once so that even the
  // first unknown user costs one scrypt run, as a known user does.
  const standIn = hashPassword(randomBytes(16).toString('hex')).then((text) => {
    const decoded = decodePasswordHash(text);
    if (typeof decoded === 'string') throw new Error(decoded);
    return decoded;
  });
  // Awaited by the first unknown user; until then a failure must not be an unhandled rejection.
  standIn.catch(() => undefined);
  return async (credentials) => {
    const fingerprint = createHmac('sha256', key).update(credentials).digest('base64');
    const known = remembered.get(fingerprint);
    if (known !== undefined) return known;
    const decoded = decodeCredentials(credentials);
    if (decoded === undefined) return { kind: 'invalid' };
    const user = users.get(decoded.name);
    const valid = await verifyPassword(decoded.password, user?.hash ?? (await standIn));
    if (user === undefined || !valid) return { kind: 'invalid' };
    const verdict: Verdict = { kind: 'admitted', identity: { role: user.role, claims: { sub: user.name, role: user.role } } };
    for (const oldest of remembered.keys()) {
      if (remembered.size < REMEMBERED) break;
      remembered.delete(oldest);
    }
    remembered.set(fingerprint, verdict);
    return verdict;
  };
}
