/**
 * What `pglite()`, `postgres()` and `sqlite()` return: a Kysely instance over the engine, the
 * engine's parts by role (engine.ts), and a way to close what they opened.
 *
 * Typing: the model is only known at run time, so Kysely gets the database type `SqlSchema` (every
 * table a record of `unknown` columns) instead of a compile-time schema, and the SQL layer builds
 * its statements from `sql` template fragments (`sql.id`, `sql.ref`, `sql.val`, `sql.join`): values
 * are always bound parameters and identifiers always quoted. No `any` anywhere.
 */
import type { Kysely } from 'kysely';
import type { SqlEngine } from './engine';

/** The Kysely database type of a run-time model: table name -> column name -> unknown value. */
export type SqlSchema = Record<string, Record<string, unknown>>;

/** A Kysely instance over a run-time model. */
export type SqlKysely = Kysely<SqlSchema>;

/** Options every engine takes. */
export interface SqlConnectionOptions {
  /**
   * How long a statement or transaction may wait for a connection (PGlite: for its turn on the one
   * session), in milliseconds; then it fails with SqlAcquireTimeoutError (a provider answers 503).
   * Default 10 000.
   */
  readonly acquireTimeoutMs?: number;
  /** The `Retry-After` (seconds) SqlAcquireTimeoutError suggests. Default 1. */
  readonly retryAfterSeconds?: number;
  /**
   * The collation `tolower`/`toupper` run under. The default `und-x-icu` (ICU's root locale) does
   * full Unicode case mapping (`ß` -> `SS`), as JavaScript does; `null` when the server has no ICU:
   * those functions are then left to the evaluator.
   */
  readonly caseMappingCollation?: string | null;
}

/** A database the SQL provider can run on. */
export interface SqlDatabase {
  /** Which engine this is. */
  readonly engine: 'pglite' | 'postgres' | 'sqlite';
  /** Every statement runs through this Kysely instance (transactions: `kysely.transaction()`). */
  readonly kysely: SqlKysely;
  /** The engine's parts by role: expressions, values, statement forms, DDL, transactions, errors, catalog. */
  readonly sqlEngine: SqlEngine;
  /** Close the pool (or the PGlite instance) if `pglite()`/`postgres()` opened it; a given pool or instance stays open. */
  close(): Promise<void>;
}

/** Defaults applied once. */
export interface ResolvedConnectionOptions {
  readonly acquireTimeoutMs: number;
  readonly retryAfterSeconds: number;
}

/** Fill in the defaults and check the numbers (a bad option is a programming error: TypeError). */
export function resolveConnectionOptions(options: SqlConnectionOptions): ResolvedConnectionOptions {
  const acquireTimeoutMs = options.acquireTimeoutMs ?? 10_000;
  const retryAfterSeconds = options.retryAfterSeconds ?? 1;
  if (!Number.isInteger(acquireTimeoutMs) || acquireTimeoutMs <= 0) {
    throw new TypeError(`acquireTimeoutMs must be a positive integer, got ${String(acquireTimeoutMs)}.`);
  }
  if (!Number.isInteger(retryAfterSeconds) || retryAfterSeconds < 0) {
    throw new TypeError(`retryAfterSeconds must be a non-negative integer, got ${String(retryAfterSeconds)}.`);
  }
  return { acquireTimeoutMs, retryAfterSeconds };
}
