/**
 * Database absence, told apart from everything a request can cause: a refused, reset or timed-out
 * connection, one the server closed (an administrator, a restart, a crash), no free connection
 * slot, a closed PGlite instance. And for a statement whose connection closed after it was sent,
 * that its outcome is unknown: only the adapter that sent it knows it was sent, so it marks the
 * failure (SqlConnectionLostError) for the writers, which then answer WRITE_OUTCOME_UNKNOWN
 * instead of claiming that nothing was written.
 */
import { ODataError } from '../errors';
import { describeCaught, isInstanceOf, ownDataProperty } from '../util';
import { sqlStateOf } from './errors';

/** SQLSTATEs of a database that is not there for us, besides class 08 (connection exception). */
const UNAVAILABLE_STATES: ReadonlySet<string> = new Set([
  // admin_shutdown: pg_terminate_backend, a fast shutdown or restart.
  '57P01',
  // crash_shutdown: another server process crashed; every connection is reset.
  '57P02',
  // cannot_connect_now: the server is starting up or shutting down.
  '57P03',
  // too_many_connections: every connection slot is taken.
  '53300',
]);

/** Node's error codes of a connection refused, reset or timed out (on connect or under a statement). */
const UNAVAILABLE_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);

/**
 * The drivers' messages for a connection that is gone, where they give no code: `pg` when the
 * server closed the socket, or when a statement is sent on a client already broken or closed;
 * pg-pool after `end()`; PGlite after `close()`.
 */
const UNAVAILABLE_MESSAGES: ReadonlySet<string> = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Connection terminated due to connection timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
  'PGlite is closed',
]);

/**
 * A statement whose connection failed under it, as the adapter that ran it saw it: `sent` when
 * the statement had gone to the server and no reply came (its effect, if it writes and commits by
 * itself or is a COMMIT, is unknown), false when it never left (the connection was already gone).
 * The driver's error is the `cause`.
 */
export class SqlConnectionLostError extends Error {
  /** True when the statement reached the connection before it closed. */
  readonly sent: boolean;

  constructor(sent: boolean, cause: unknown) {
    super(sent ? 'The database connection closed before the statement was answered.' : 'The database connection had closed before the statement was sent.', {
      cause,
    });
    this.name = 'SqlConnectionLostError';
    this.sent = sent;
  }
}

/** True when `error` says the database cannot be reached or has dropped the connection (see the module comment). */
export function isConnectionFailure(error: unknown): boolean {
  if (isInstanceOf(error, SqlConnectionLostError)) return true;
  const state = sqlStateOf(error);
  if (state !== undefined) return state.startsWith('08') || UNAVAILABLE_STATES.has(state);
  const described = describeCaught(error);
  if (matches(described.code, described.message)) return true;
  // A connect tried over IPv4 and IPv6 fails with an AggregateError of one error per address.
  return described.errors.some((each) => {
    const inner = describeCaught(each);
    return matches(inner.code, inner.message);
  });
}

function matches(code: string | undefined, message: string | undefined): boolean {
  return (code !== undefined && UNAVAILABLE_CODES.has(code)) || (message !== undefined && UNAVAILABLE_MESSAGES.has(message));
}

/** True when `error` is a statement that was sent and lost its connection before the reply: what it did is unknown. */
export function isReplyLost(error: unknown): boolean {
  return isInstanceOf(error, SqlConnectionLostError) && ownDataProperty(error, 'sent') === true;
}

/** 503 DATABASE_UNAVAILABLE with `Retry-After`; the driver's error is the cause (the logger sees it, the client does not). */
export function databaseUnavailableError(cause: unknown, retryAfterSeconds: number): ODataError {
  return ODataError.fromCode('DATABASE_UNAVAILABLE', {}, { headers: { 'retry-after': String(retryAfterSeconds) }, cause });
}

/**
 * 503 WRITE_OUTCOME_UNKNOWN, without `Retry-After`: the change may have been applied, so the
 * client must look before it writes again.
 */
export function writeOutcomeUnknownError(cause: unknown): ODataError {
  return ODataError.fromCode('WRITE_OUTCOME_UNKNOWN', {}, { cause });
}
