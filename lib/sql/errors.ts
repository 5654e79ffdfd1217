/**
 * Errors of the SQL layer that callers branch on: a connection that could not be had in time, an
 * expression the SQL compiler will not translate, and the SQLSTATE codes a provider maps to OData
 * errors. None of these reaches a client as itself: the provider turns them into ODataErrors.
 */
import { caughtProperty } from '../util';
import type { IntrospectionWarning } from './introspect/types';

/**
 * SQLSTATE codes the SQL layer reacts to. All but `deadlockDetected` are SQL-standard classes; the
 * `pg` driver and PGlite both put the code on the error's `code` field.
 */
export const SQLSTATE = Object.freeze({
  /** `x div 0` on integers or decimals (the evaluator's FILTER_DIVISION_BY_ZERO). */
  divisionByZero: '22012',
  /** A value outside its type's range: double overflow or underflow, a decimal too large for a double. */
  numericValueOutOfRange: '22003',
  /** The transaction lost a serialization race: run it again. */
  serializationFailure: '40001',
  /** PostgreSQL broke a deadlock by aborting this transaction: run it again. */
  deadlockDetected: '40P01',
  /** A duplicate key. */
  uniqueViolation: '23505',
  /** A reference to a row that does not exist (or a delete of a referenced one). */
  foreignKeyViolation: '23503',
  /** NULL in a NOT NULL column. */
  notNullViolation: '23502',
  /** A CHECK constraint failed (Byte and SByte ranges among them). */
  checkViolation: '23514',
  /** A string longer than its column (`varchar(n)`) allows. */
  stringTooLong: '22001',
  /** The statement was cancelled: `statement_timeout` ran out (or an administrator cancelled it). */
  queryCanceled: '57014',
  /** An EXCLUDE constraint (no two overlapping ranges...) failed. */
  exclusionViolation: '23P01',
  /** The role lacks a privilege the statement needs, or a row-level security policy refused the row. */
  insufficientPrivilege: '42501',
});

/** The SQLSTATE of a driver error (`error.code`), or undefined for anything else (read without trusting the value). */
export function sqlStateOf(error: unknown): string | undefined {
  const code = caughtProperty(error, 'code');
  // Five characters; Node's errno codes can have that shape too (EPIPE), but no SQLSTATE class starts with E.
  return typeof code === 'string' && /^[0-9A-DF-Z][0-9A-Z]{4}$/.test(code) ? code : undefined;
}

/** True when a transaction that failed with `error` may simply run again (40001, 40P01). */
export function isRetryableTransactionError(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state === SQLSTATE.serializationFailure || state === SQLSTATE.deadlockDetected;
}

/**
 * No connection (or, for PGlite, no turn on its one session) became free within the configured
 * wait. A provider answers 503 Service Unavailable with `Retry-After: retryAfterSeconds`.
 */
export class SqlAcquireTimeoutError extends Error {
  /** How long the request waited, in milliseconds. */
  readonly waitedMs: number;
  /** What to send as `Retry-After`, in seconds. */
  readonly retryAfterSeconds: number;

  constructor(waitedMs: number, retryAfterSeconds: number) {
    super(`No database connection became available within ${waitedMs} ms.`);
    this.name = 'SqlAcquireTimeoutError';
    this.waitedMs = waitedMs;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * The database stayed locked by another connection (SQLite's SQLITE_BUSY) for longer than the
 * engine waits for it (`busyTimeoutMs`): a 503 with `Retry-After`, as an exhausted pool is, whose
 * message says what is busy.
 */
export class SqlBusyTimeoutError extends SqlAcquireTimeoutError {
  constructor(waitedMs: number, retryAfterSeconds: number) {
    super(waitedMs, retryAfterSeconds);
    this.message = `The database stayed locked by another connection for ${waitedMs} ms.`;
    this.name = 'SqlBusyTimeoutError';
  }
}

/**
 * The SQL compiler does not translate this expression (a dynamic property, `mod` on doubles, a
 * function the database cannot run with the evaluator's semantics...). Not a client error: the
 * provider evaluates that part of the filter with the shared evaluator instead (the pushdown split).
 */
export class UntranslatableExpressionError extends Error {
  /** Why, for logs. */
  readonly reason: string;

  constructor(reason: string) {
    super(`The expression cannot be translated to SQL: ${reason}.`);
    this.name = 'UntranslatableExpressionError';
    this.reason = reason;
  }
}

/**
 * A mapping (or overrides) that does not fit the model, or (from `checkMapping`) the database:
 * every problem found, each naming the entity set, association set, property path or column it is
 * about. A programming or deployment error, raised when the mapping is resolved, the provider is
 * created or the service starts, never per request.
 */
export class SqlMappingError extends Error {
  /** One line per problem. */
  readonly problems: readonly string[];

  /** `against`: what the mapping does not fit (checkMapping: the database). */
  constructor(problems: readonly string[], against: 'the model' | 'the database' = 'the model') {
    const listed = problems.slice(0, 50).map((problem) => `- ${problem}`);
    if (problems.length > 50) listed.push(`- ... and ${problems.length - 50} more`);
    super(`The SQL mapping does not fit ${against}:\n${listed.join('\n')}`);
    this.name = 'SqlMappingError';
    this.problems = problems;
  }
}

/**
 * Roles requests may not run as (SqlProvider's `checkRoles`): each problem names the role and why
 * (no such role, a superuser, BYPASSRLS, owner of a table its policies spare, not one the login
 * role may switch to, a name no request may use). Raised at start, never per request.
 */
export class SqlSessionRoleError extends Error {
  /** `'web_anon': it is a superuser (row-level security does not apply to it)`, one per role. */
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`Requests may not run as ${problems.length === 1 ? 'this role' : 'these roles'}: ${problems.join('; ')}.`);
    this.name = 'SqlSessionRoleError';
    this.problems = problems;
  }
}

/** Data given to `seed` that does not fit the model: every problem, one per line, as MemoryProvider names them. */
export class SqlSeedError extends Error {
  constructor(problems: string, options?: { readonly cause?: unknown }) {
    super(`The seed data is invalid:\n${problems}`, options);
    this.name = 'SqlSeedError';
  }
}

/**
 * Introspection found nothing to serve (no table with a usable key in the schemas read). The
 * warnings say what was left out and how to include it.
 */
export class SqlIntrospectionError extends Error {
  /** What introspection left out, and why. */
  readonly warnings: readonly IntrospectionWarning[];

  constructor(message: string, warnings: readonly IntrospectionWarning[]) {
    super(message);
    this.name = 'SqlIntrospectionError';
    this.warnings = warnings;
  }
}
