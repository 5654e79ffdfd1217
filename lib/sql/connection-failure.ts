/**
 * Database absence, as every engine reports it (which errors mean it is the engine's:
 * `SqlEngine.errors.isConnectionFailure`). For a statement whose connection closed after it was
 * sent, its outcome is unknown: only the adapter that sent it knows it was sent, so it marks the
 * failure (SqlConnectionLostError) for the writers, which then answer WRITE_OUTCOME_UNKNOWN
 * instead of claiming that nothing was written.
 */
import { ODataError } from '../errors';
import { isInstanceOf, ownDataProperty } from '../util';

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

/** True when `error` is a statement whose connection failed under it (SqlConnectionLostError), whichever engine ran it. */
export function isConnectionLost(error: unknown): boolean {
  return isInstanceOf(error, SqlConnectionLostError);
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
