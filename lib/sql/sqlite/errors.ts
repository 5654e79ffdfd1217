/**
 * SQLite's errors as the SQL standard's SQLSTATE classes, the language the provider's refusal
 * table reads (lib/sql/error-map.ts): better-sqlite3 names the extended result code
 * (`SQLITE_CONSTRAINT_NOTNULL`), and the message names the table and column
 * (`NOT NULL constraint failed: Products.Name`), which PostgreSQL gives as fields of its error.
 * What has no class here passes on as it is (500, logged).
 */
import { caughtProperty, describeCaught } from '../../util';
import { isConnectionLost } from '../connection-failure';
import type { SqlErrors } from '../engine';
import { SQLSTATE } from '../errors';

/** A SQLite error with its SQLSTATE and, when the message names them, the table and column (the driver's error is the cause). */
class SqliteStatementError extends Error {
  readonly code: string;
  readonly table: string | undefined;
  readonly column: string | undefined;

  constructor(code: string, message: string, table: string | undefined, column: string | undefined, cause: unknown) {
    super(message, { cause });
    this.name = 'SqliteStatementError';
    this.code = code;
    this.table = table;
    this.column = column;
  }
}

/** SQLite's extended result codes and the SQLSTATE each stands for. */
const STATES: Readonly<Record<string, string>> = {
  SQLITE_CONSTRAINT_PRIMARYKEY: SQLSTATE.uniqueViolation,
  SQLITE_CONSTRAINT_UNIQUE: SQLSTATE.uniqueViolation,
  SQLITE_CONSTRAINT_FOREIGNKEY: SQLSTATE.foreignKeyViolation,
  SQLITE_CONSTRAINT_NOTNULL: SQLSTATE.notNullViolation,
  SQLITE_CONSTRAINT_CHECK: SQLSTATE.checkViolation,
  SQLITE_TOOBIG: SQLSTATE.stringTooLong,
};

/** True when the error is SQLite's "the database is locked by another connection" (SQLITE_BUSY and its extended codes). */
export function isSqliteBusy(error: unknown): boolean {
  const code = caughtProperty(error, 'code');
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** `error` with its SQLSTATE when SQLite's code has one (see STATES), else as it is. */
export function sqliteError(error: unknown): unknown {
  const code = caughtProperty(error, 'code');
  const state = typeof code === 'string' ? STATES[code] : undefined;
  if (state === undefined) return error;
  const { message } = describeCaught(error);
  // `… constraint failed: Table.Column[, Table.Column]` (a CHECK names its constraint or expression instead).
  const named = /constraint failed: ([^.\s,]+)\.([^\s,]+)/.exec(message ?? '');
  return new SqliteStatementError(state, message ?? 'SQLite constraint failed', named?.[1], named?.[2], error);
}

/** SQLite's errors: a database in a file or in memory is never unreachable (only a lost statement is), and its messages quote no unreadable value. */
export const SQLITE_ERRORS: SqlErrors = Object.freeze<SqlErrors>({ isConnectionFailure: isConnectionLost, valueComplaint: () => undefined });
