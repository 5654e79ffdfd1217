/**
 * The `--db` argument as a database: a `postgres://` URL opens a pool on that server, a file that
 * starts with SQLite's header is a SQLite database, a folder with a PG_VERSION file a PGlite data
 * folder (each must exist: the command line never creates a database).
 * The connection is tried at once, so a wrong host, password or folder is one clear line before
 * anything else happens. `express-odata-v2/sql` and its drivers are loaded only here, so `--help`
 * works without them.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from 'fs';
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
  /** `the database at host:5432/shop`, `the PGlite database in ./data`, `the SQLite database ./app.sqlite`. */
  readonly where: string;
}

/** `express-odata-v2/sql`, or a CliError saying what to install. */
export async function loadSql(): Promise<Sql> {
  try {
    return await import('../sql');
  } catch (error) {
    throw new CliError(
      'The command line needs kysely and a driver: npm install kysely pg (a PostgreSQL server), npm install kysely better-sqlite3 (a SQLite file), or npm install kysely @electric-sql/pglite (a PGlite folder).',
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
    throw new UsageError(`${command}: --db is required (a postgres:// URL, a SQLite file or a PGlite folder), or set DATABASE_URL`, command);
  return { spec: fromEnvironment, source: 'DATABASE_URL' };
}

const SERVER_URL = /^postgres(?:ql)?:\/\//i;

/** The first 16 bytes of every SQLite database file (SQLite's file format, §1.3). */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** Which engine `--db` names, told apart before anything is opened. */
export type DatabaseKind = 'postgres' | 'sqlite' | 'pglite';

/** True when `file` starts with SQLite's header. */
function isSqliteFile(file: string): boolean {
  const head = Buffer.alloc(SQLITE_HEADER.length);
  const descriptor = openSync(file, 'r');
  try {
    return readSync(descriptor, head, 0, head.length, 0) === head.length && head.equals(SQLITE_HEADER);
  } finally {
    closeSync(descriptor);
  }
}

/** The engine of `--db` (relative paths from `cwd`): a URL, a SQLite file, or a PGlite folder; a CliError for anything else. */
export function databaseKind({ spec, source }: DatabaseArgument, cwd: string): DatabaseKind {
  if (SERVER_URL.test(spec)) return 'postgres';
  const path = resolve(cwd, spec);
  if (!existsSync(path))
    throw new CliError(`${source} ${spec}: no such file or folder (give a postgres:// URL, a SQLite database file, or the data folder of a PGlite database).`);
  if (statSync(path).isFile()) {
    if (isSqliteFile(path)) return 'sqlite';
    throw new CliError(`${source} ${spec}: the file is not a SQLite database (it does not start with "SQLite format 3").`);
  }
  if (!existsSync(join(path, 'PG_VERSION'))) throw new CliError(`${source} ${spec}: the folder holds no PGlite database (no PG_VERSION file).`);
  return 'pglite';
}

/** Open `--db` (relative paths from `cwd`) and check that it answers. */
export async function openDatabase(argument: DatabaseArgument, cwd: string, sql: Sql): Promise<OpenDatabase> {
  const { spec } = argument;
  let db: SqlModule.SqlDatabase;
  let where: string;
  switch (databaseKind(argument, cwd)) {
    case 'postgres':
      where = `the database at ${describeUrl(spec)}`;
      db = sql.postgres(spec, { maxConnections: 10 });
      break;
    case 'sqlite':
      where = `the SQLite database ${spec}`;
      db = sql.sqlite(resolve(cwd, spec));
      break;
    case 'pglite':
      where = `the PGlite database in ${spec}`;
      db = sql.pglite(resolve(cwd, spec));
      break;
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
