/**
 * The check in front of everything `serve` answers: credentials from the Authorization header
 * verified (or the anonymous role for a request without any), the identity recorded beside the
 * request, then the protected handler; otherwise an OData error, in the format the client asked
 * for: 401 with `WWW-Authenticate` (RFC 9110 §11.6.1), 403, or 503 with `Retry-After`. Credentials
 * never reach a log line.
 */
import type { ServerResponse } from 'http';
import { ODataError, odataErrorHandler, type ExpressLikeRequest } from '../../index';
import { oneLine } from '../errors';
import { admit, type Identity, type Verdict } from './identity';

/** A Node/Express-style handler, as `odata()` returns. */
export type Handler<Q extends ExpressLikeRequest> = (request: Q, response: ServerResponse, next: (error?: unknown) => void) => void;

/** The scheme credentials must use (`Authorization: <scheme> <credentials>`), and their check. */
export interface Credentials {
  readonly scheme: 'Bearer' | 'Basic';
  readonly verify: (credentials: string) => Promise<Verdict>;
}

/** What the gate checks. */
export interface GateSettings {
  /** Undefined without --auth: every request is anonymous. */
  readonly credentials?: Credentials;
  /** The role of a request without credentials; without it such a request is 401. */
  readonly anonymousRole?: string;
  /** A line for the operator (stderr): why credentials could not be checked, with the request's status, method and URL. */
  readonly log: (line: string) => void;
}

const REALM = 'express-odata-v2';

/** Seconds a client waits before trying again when the key set cannot be fetched. */
const RETRY_AFTER_SECONDS = 5;

/** The challenge of a 401 (RFC 6750 §3 adds `error="invalid_token"` when a bearer token was sent and failed). */
function challenge(scheme: 'Bearer' | 'Basic', failed: boolean): string {
  if (scheme === 'Basic') return `Basic realm="${REALM}", charset="UTF-8"`;
  return failed ? `Bearer realm="${REALM}", error="invalid_token"` : `Bearer realm="${REALM}"`;
}

/** RFC 9110 §11.4: `credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]`; the scheme is case-insensitive. */
const CREDENTIALS = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) +([A-Za-z0-9._~+/-]+=*) *$/;

/** What the Authorization header (or its absence) earns. */
async function verdictOf(settings: GateSettings, header: string | undefined): Promise<Verdict | 'no-credentials'> {
  const { credentials } = settings;
  if (credentials === undefined || header === undefined || header === '') return 'no-credentials';
  const match = CREDENTIALS.exec(header);
  if (match === null || match[1].toLowerCase() !== credentials.scheme.toLowerCase()) return { kind: 'invalid' };
  return credentials.verify(match[2]);
}

/** The refusal of a verdict other than admitted. */
function refusal(scheme: 'Bearer' | 'Basic' | undefined, verdict: Exclude<Verdict, { kind: 'admitted' }> | 'no-credentials'): ODataError {
  const authenticate = (failed: boolean) => (scheme === undefined ? {} : { headers: { 'www-authenticate': challenge(scheme, failed) } });
  if (verdict === 'no-credentials') return ODataError.fromCode('AUTH_REQUIRED', {}, authenticate(false));
  switch (verdict.kind) {
    case 'invalid':
      return ODataError.fromCode('AUTH_INVALID', {}, authenticate(true));
    case 'no-role':
      return ODataError.fromCode('AUTH_NO_ROLE');
    case 'unavailable':
      return ODataError.fromCode('AUTH_UNAVAILABLE', {}, { headers: { 'retry-after': String(RETRY_AFTER_SECONDS) } });
  }
}

/** `protect(handler)`: `handler` behind the check of `settings`. */
export function gate(settings: GateSettings): <Q extends ExpressLikeRequest>(handler: Handler<Q>) => Handler<Q> {
  const answerError = odataErrorHandler();
  const anonymous: Identity | undefined =
    settings.anonymousRole === undefined ? undefined : { role: settings.anonymousRole, claims: { role: settings.anonymousRole } };
  return (handler) => (request, response, next) => {
    verdictOf(settings, request.headers.authorization).then(
      (verdict) => {
        if (verdict === 'no-credentials' && anonymous !== undefined) verdict = { kind: 'admitted', identity: anonymous };
        if (verdict !== 'no-credentials' && verdict.kind === 'admitted') {
          admit(request, verdict.identity);
          handler(request, response, next);
          return;
        }
        if (verdict !== 'no-credentials' && verdict.kind === 'unavailable')
          settings.log(`503 ${request.method ?? '-'} ${request.url ?? '/'}: credentials cannot be checked: ${verdict.reason}`);
        answerError(refusal(settings.credentials?.scheme, verdict), request, response, next);
      },
      (error: unknown) => {
        settings.log(`500 ${request.method ?? '-'} ${request.url ?? '/'}: checking credentials failed: ${oneLine(error)}`);
        answerError(ODataError.fromCode('INTERNAL'), request, response, next);
      },
    );
  };
}
