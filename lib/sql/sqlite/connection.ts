/**
 * SQLite through better-sqlite3 as Kysely's driver: one connection per database (SQLite allows
 * one writer at a time anyway), handed out under our first-come-first-served queue with the
 * acquire limit (503 after it), safe integers on (every INTEGER a BigInt: Int64 never passes a
 * double), foreign keys enforced, WAL for a file, and the functions of functions.ts registered.
 *
 * better-sqlite3 is synchronous: a statement blocks the event loop while it runs, so waiting for
 * another process's lock must never happen inside it. `busy_timeout` is 0 (SQLite's own wait
 * sleeps the thread): a statement that meets a lock (SQLITE_BUSY) fails at once, and the adapter
 * runs it again after an asynchronous pause that doubles each time, up to `busyTimeoutMs` in
 * all; then SqlBusyTimeoutError (the provider's 503 with `Retry-After`, saying the database is locked). Write transactions
 * begin IMMEDIATE (the write lock is taken, or waited for, before anything runs, so no statement
 * inside one can meet a lock); read-only ones begin DEFERRED (a snapshot under WAL).
 *
 * SQLite's errors leave as the SQL standard's SQLSTATE classes (errors.ts), so the provider's
 * refusal table reads them as it reads PostgreSQL's.
 */
import * as nodeModule from 'module';
import type { CompiledQuery, DatabaseConnection, Driver, QueryResult, TransactionSettings } from 'kysely';
import { pause } from '../../util';
import { SqlBusyTimeoutError } from '../errors';
import { SessionQueue, type ReleaseSession } from '../session-queue';
import { SQLITE_FUNCTIONS } from './functions';
import { sqliteError, isSqliteBusy } from './errors';

/** What we use of a better-sqlite3 statement. */
interface StatementLike {
  readonly reader: boolean;
  all(...parameters: unknown[]): unknown[];
  run(...parameters: unknown[]): { readonly changes: number | bigint; readonly lastInsertRowid: number | bigint };
}

/** What we use of a better-sqlite3 database (structural: the package's types do not depend on better-sqlite3). */
export interface SqliteDatabaseLike {
  /** A prepared statement of `sql`. */
  prepare(sql: string): StatementLike;
  /** Run a PRAGMA (`busy_timeout = 0`, `foreign_keys = ON`). */
  pragma(source: string): unknown;
  /** Read every INTEGER as a BigInt (`true`): Int64 never passes a double. */
  defaultSafeIntegers(toggle?: boolean): unknown;
  /** Register a SQL function on the connection (the Unicode case mapping and exact arithmetic the SQL layer calls). */
  function(
    name: string,
    options: { readonly deterministic?: boolean; readonly safeIntegers?: boolean; readonly varargs?: boolean },
    body: (...args: never[]) => unknown,
  ): unknown;
  /** Close the database. */
  close(): unknown;
  /** False once closed. */
  readonly open: boolean;
  /** True for an in-memory database (no WAL journal). */
  readonly memory: boolean;
}

/** How the adapter waits. */
export interface SqliteSessionOptions {
  /** How long a request waits for its turn on the connection (ms), then 503. */
  readonly acquireTimeoutMs: number;
  /** How long a statement may wait for another process's lock, in asynchronous pauses (ms), then 503. */
  readonly busyTimeoutMs: number;
  readonly retryAfterSeconds: number;
  /** The pause before the next try of a statement that met a lock for the `attempt`th time (ms). */
  readonly backoffMs?: (attempt: number) => number;
}

/** Statements kept prepared per connection (a read's text repeats from request to request). */
const PREPARED_CACHE = 200;

/** 1, 2, 4 ... ms, at most 50: short waits first, since most locks are held for a statement or two. */
const defaultBackoff = (attempt: number): number => Math.min(2 ** (attempt - 1), 50);

/**
 * Load better-sqlite3 with Node's own loader, as pglite() loads PGlite (a runner that sandboxes
 * modules must not load a native addon twice).
 */
function loadBetterSqlite3(): new (file: string) => SqliteDatabaseLike {
  const createRequire = typeof process.getBuiltinModule === 'function' ? process.getBuiltinModule('module').createRequire : nodeModule.createRequire;
  try {
    return createRequire(__filename)('better-sqlite3') as new (file: string) => SqliteDatabaseLike;
  } catch (error) {
    throw new Error('sqlite() needs the package better-sqlite3 (version 12): npm install better-sqlite3', { cause: error });
  }
}

/** Open `file` (or `:memory:`) with better-sqlite3. */
export function openSqlite(file: string): SqliteDatabaseLike {
  const Database = loadBetterSqlite3();
  return new Database(file);
}

/** Set up a connection as the provider needs it (see the module comment). */
function prepareConnection(database: SqliteDatabaseLike): void {
  database.defaultSafeIntegers(true);
  database.pragma('busy_timeout = 0');
  database.pragma('foreign_keys = ON');
  if (!database.memory) database.pragma('journal_mode = WAL');
  // varargs: the bodies take rest parameters (better-sqlite3 would read their arity as 0); the SQL layer writes every call.
  for (const fn of SQLITE_FUNCTIONS) database.function(fn.name, { deterministic: true, safeIntegers: true, varargs: true }, fn.body);
}

/** The one connection, as Kysely's DatabaseConnection. */
class SqliteConnection implements DatabaseConnection {
  private readonly prepared = new Map<string, StatementLike>();

  constructor(
    private readonly database: SqliteDatabaseLike,
    private readonly options: SqliteSessionOptions,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const parameters = compiled.parameters.map(bindable);
    return this.whenFree(() => {
      const statement = this.prepare(compiled.sql);
      if (statement.reader) return { rows: statement.all(...parameters) as R[] };
      const { changes, lastInsertRowid } = statement.run(...parameters);
      return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
    });
  }

  // eslint-disable-next-line require-yield -- Kysely's interface; the provider never streams with a cursor
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming with a cursor is not supported on SQLite.');
  }

  /** Run `step`, again after asynchronous pauses while another process holds the lock (see the module comment). */
  async whenFree<T>(step: () => T): Promise<T> {
    const backoff = this.options.backoffMs ?? defaultBackoff;
    let waited = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        return step();
      } catch (error) {
        if (!isSqliteBusy(error)) throw sqliteError(error);
        const delay = backoff(attempt);
        if (waited + delay > this.options.busyTimeoutMs) throw new SqlBusyTimeoutError(this.options.busyTimeoutMs, this.options.retryAfterSeconds);
        waited += delay;
        await pause(delay);
      }
    }
  }

  private prepare(text: string): StatementLike {
    let statement = this.prepared.get(text);
    if (statement === undefined) {
      statement = this.database.prepare(text);
      if (this.prepared.size >= PREPARED_CACHE) this.prepared.delete(this.prepared.keys().next().value as string);
      this.prepared.set(text, statement);
    }
    return statement;
  }
}

/** Booleans have no SQLite form (better-sqlite3 refuses them): 1 and 0, as the codec writes them. */
function bindable(value: unknown): unknown {
  return typeof value === 'boolean' ? (value ? 1n : 0n) : value;
}

/** Kysely's driver over the one connection. */
export class SqliteSessionDriver implements Driver {
  private readonly queue = new SessionQueue();
  private connection: SqliteConnection | undefined;
  private database: SqliteDatabaseLike | undefined;
  private readonly releases = new Map<DatabaseConnection, ReleaseSession>();

  constructor(
    private readonly open: () => SqliteDatabaseLike,
    private readonly owned: boolean,
    private readonly options: SqliteSessionOptions,
  ) {}

  async init(): Promise<void> {
    this.database = this.open();
    prepareConnection(this.database);
    this.connection = new SqliteConnection(this.database, this.options);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.queue.acquire(this.options.acquireTimeoutMs, this.options.retryAfterSeconds);
    const connection = this.connection;
    if (connection === undefined || this.database?.open !== true) {
      release();
      throw new Error('The SQLite database is closed.');
    }
    this.releases.set(connection, release);
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    // A writer takes the lock first: no statement inside can then meet another process's lock midway.
    await (connection as SqliteConnection).whenFree(() => this.run(settings.accessMode === 'read only' ? 'begin' : 'begin immediate'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as SqliteConnection).whenFree(() => this.run('commit'));
  }

  async rollbackTransaction(): Promise<void> {
    this.run('rollback');
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const release = this.releases.get(connection);
    this.releases.delete(connection);
    release?.();
  }

  async destroy(): Promise<void> {
    if (this.owned && this.database?.open === true) this.database.close();
  }

  private run(text: string): void {
    (this.database as SqliteDatabaseLike).prepare(text).run();
  }
}
