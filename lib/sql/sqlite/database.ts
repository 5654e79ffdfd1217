/**
 * `sqlite()`: SQLite through better-sqlite3 as a SqlDatabase, beside `pglite()` and `postgres()`.
 * Kysely's own SQLite adapter, query compiler and introspector, over our driver (connection.ts).
 */
import { Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { resolveConnectionOptions, type SqlConnectionOptions, type SqlDatabase, type SqlSchema } from '../database';
import { openSqlite, SqliteSessionDriver, type SqliteDatabaseLike } from './connection';
import { createSqliteEngine } from './engine';

/** Options of `sqlite()`. */
export interface SqliteDatabaseOptions extends Omit<SqlConnectionOptions, 'caseMappingCollation'> {
  /**
   * How long a statement waits, in asynchronous pauses, while another process holds the database's
   * lock (SQLite's own wait would block the event loop), in milliseconds; then 503. Default 5,000.
   */
  readonly busyTimeoutMs?: number;
}

/**
 * A SQLite database: in memory (`sqlite(':memory:')`), in a file (`sqlite('./app.sqlite')`, made
 * when missing), or over a better-sqlite3 Database you opened (which `close()` leaves open; it is
 * set up as the provider needs: safe integers, foreign keys, the functions it registers). Needs
 * the optional peer dependency `better-sqlite3` (version 12).
 */
export function sqlite(source: string | SqliteDatabaseLike, options: SqliteDatabaseOptions = {}): SqlDatabase {
  const { acquireTimeoutMs, retryAfterSeconds } = resolveConnectionOptions(options);
  const busyTimeoutMs = options.busyTimeoutMs ?? 5_000;
  if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0) throw new TypeError(`busyTimeoutMs must be a non-negative integer, got ${String(busyTimeoutMs)}.`);
  const owned = typeof source === 'string';
  const driver = new SqliteSessionDriver(() => (typeof source === 'string' ? openSqlite(source) : source), owned, {
    acquireTimeoutMs,
    busyTimeoutMs,
    retryAfterSeconds,
  });
  const kysely = new Kysely<SqlSchema>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => driver,
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
  let closing: Promise<void> | undefined;
  return Object.freeze({
    engine: 'sqlite' as const,
    kysely,
    sqlEngine: createSqliteEngine(),
    close: () => (closing ??= kysely.destroy()),
  });
}
