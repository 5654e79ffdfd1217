/**
 * Who a request runs as: the identity the command line's authentication verified, kept beside the
 * request object (a WeakMap, never a field patched onto it) for the database session to read
 * through `RequestContext.request`, which is that same object for every part of a `$batch`.
 */
import type { IncomingMessage } from 'http';

/** A verified identity: the database role a request runs as, and the claims its policies may read. */
export interface Identity {
  /** The database role, checked by `roleNameProblem`. */
  readonly role: string;
  /** A token's verified claims; `{ sub, role }` for a user of the users file; `{ role }` for anonymous requests. */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** What checking a request's credentials found. */
export type Verdict =
  | { readonly kind: 'admitted'; readonly identity: Identity }
  /** Credentials that do not verify, or are malformed: 401, never saying which part was wrong. */
  | { readonly kind: 'invalid' }
  /** Valid credentials that name no role requests may run as: 403. */
  | { readonly kind: 'no-role' }
  /** The credentials cannot be checked now (the key set cannot be fetched): 503. */
  | { readonly kind: 'unavailable'; readonly reason: string };

const identities = new WeakMap<IncomingMessage, Identity>();

/** Record who `request` runs as (the authentication gate, once the credentials are verified). */
export function admit(request: IncomingMessage, identity: Identity): void {
  identities.set(request, identity);
}

/** The identity `request` runs as; undefined when no authentication admitted it. */
export function identityOf(request: IncomingMessage): Identity | undefined {
  return identities.get(request);
}

/** White space, a colon (the users file's separator) or a control character: never in a role or user name. */
export function holdsSeparator(name: string): boolean {
  return /[\s:\u0000-\u001f\u007f]/.test(name);
}
