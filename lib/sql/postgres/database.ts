/**
 * What `pglite()` and `postgres()` share: a SqlDatabase over a PostgreSQL-protocol pool, through
 * Kysely's PostgreSQL dialect (its adapter, driver, introspector and query compiler) and the
 * PostgreSQL engine.
 */
import { Kysely, PostgresDialect, type PostgresPool } from 'kysely';
import type { SqlConnectionOptions, SqlDatabase, SqlSchema } from '../database';
import { createPostgresEngine } from './engine';

/**
 * A SqlDatabase over a PostgreSQL-protocol pool. `openPool` runs once, on the first statement (so
 * creating the database is synchronous and opens nothing until used).
 */
export function postgresDatabase(engine: 'pglite' | 'postgres', openPool: () => Promise<PostgresPool>, options: SqlConnectionOptions): SqlDatabase {
  const kysely = new Kysely<SqlSchema>({ dialect: new PostgresDialect({ pool: openPool }) });
  let closing: Promise<void> | undefined;
  return Object.freeze({
    engine,
    kysely,
    sqlEngine: createPostgresEngine({ caseMappingCollation: options.caseMappingCollation }),
    close: () => (closing ??= kysely.destroy()),
  });
}
