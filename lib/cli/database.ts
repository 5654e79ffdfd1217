/**
 * The `--db` argument as a database: a `postgres://` URL opens a pool on that server, anything
 * else names a PGlite data folder (which must exist: the command line never creates a database).
 * The connection is tried at once, so a wrong host, password or folder is one clear line before
 * anything else happens. `express-odata-v2/sql` and its drivers are loaded only here, so `--help`
 * works without them.
 */
import { existsSync, statSync } from 'fs';
import { join, resolve } from 'path';
import type * as SqlModule from '../sql';
import { stringOption, type ParsedOptions } from './arguments';
import { CliError, describeDatabaseError, describeUrl, UsageError } from './errors';
import type { CliIO } from './io';

/** The SQL subpath's exports. */
export type Sql = typeof SqlModule;

/** An open database and what to call it in messages. */
export interface OpenDatabase {
  readonly sql: Sql;
  readonly db: SqlModule.SqlDatabase;
  /** `the database at host:5432/shop`, `the PGlite database in ./data`. */
  readonly where: string;
}

/** `express-odata-v2/sql`, or a CliError saying what to install. */
export async function loadSql(): Promise<Sql> {
  try {
    return await import('../sql');
  } catch (error) {
    throw new CliError(
      'The command line needs kysely and a driver: npm install kysely pg (a PostgreSQL server), or npm install kysely @electric-sql/pglite (a PGlite folder).',
      { cause: error },
    );
  }
}

/** Which database to open, and what to call the argument in messages (`--db`, `DATABASE_URL`). */
export interface DatabaseArgument {
  readonly spec: string;
  readonly source: string;
}

/** `--db`, else DATABASE_URL; a UsageError when neither is given. */
export function databaseArgument(command: string, options: ParsedOptions, io: CliIO): DatabaseArgument {
  const given = stringOption(options, 'db');
  if (given !== undefined) return { spec: given, source: '--db' };
  const fromEnvironment = io.env.DATABASE_URL;
  if (fromEnvironment === undefined || fromEnvironment === '')
    throw new UsageError(`${command}: --db is required (a postgres:// URL or a PGlite folder), or set DATABASE_URL`, command);
  return { spec: fromEnvironment, source: 'DATABASE_URL' };
}

const SERVER_URL = /^postgres(?:ql)?:\/\//i;

/** Open `--db` (relative folders from `cwd`) and check that it answers. */
export async function openDatabase({ spec, source }: DatabaseArgument, cwd: string, sql: Sql): Promise<OpenDatabase> {
  let db: SqlModule.SqlDatabase;
  let where: string;
  if (SERVER_URL.test(spec)) {
    where = `the database at ${describeUrl(spec)}`;
    db = sql.postgres(spec, { maxConnections: 10 });
  } else {
    const folder = resolve(cwd, spec);
    where = `the PGlite database in ${spec}`;
    if (!existsSync(folder) || !statSync(folder).isDirectory())
      throw new CliError(`${source} ${spec}: no such folder (give a postgres:// URL, or the data folder of a PGlite database).`);
    if (!existsSync(join(folder, 'PG_VERSION'))) throw new CliError(`${source} ${spec}: the folder holds no PGlite database (no PG_VERSION file).`);
    db = sql.pglite(folder);
  }
  try {
    const { CompiledQuery } = await import('kysely');
    await db.kysely.executeQuery(CompiledQuery.raw('select 1'));
  } catch (error) {
    await db.close().catch(() => undefined);
    throw new CliError(describeDatabaseError(error, where), { cause: error });
  }
  return { sql, db, where };
}
