/**
 * PGlite (PostgreSQL compiled to WebAssembly, no server, no native build) as a SqlDatabase. PGlite
 * is ONE session, so it sits behind a pool of size one of our own: a transaction keeps the session
 * from BEGIN to COMMIT and every other statement queues (first come, first served), so two
 * changesets never interleave inside one transaction.
 *
 * Two costs PGlite adds per statement are avoided: a `parsers` query option makes PGlite merge its
 * whole parser table (300-odd types) on every query, so an instance made with `pgliteParsers` (as
 * `pglite()` and `pglite('./data')` make theirs) gets none; transaction control (BEGIN, COMMIT,
 * ROLLBACK, savepoints) has no parameters and no rows, so it runs as a simple query
 * (`exec`), one protocol message instead of five.
 */
import * as nodeModule from 'module';
import type * as PGliteModule from '@electric-sql/pglite';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import { SqlConnectionLostError } from '../connection-failure';
import { resolveConnectionOptions, type SqlConnectionOptions, type SqlDatabase } from '../database';
import { postgresDatabase } from './database';
import { SessionQueue, type ReleaseSession } from '../session-queue';
import { PGLITE_PARSERS } from './type-parsers';

/** The result of `PGlite.query` as far as we read it. */
export interface PGliteResultLike {
  /** The rows, as objects keyed by column name. */
  readonly rows: readonly unknown[];
  /** The command tag's first word (`SELECT`, `UPDATE`...). */
  readonly command?: string;
  /** The row count of the command tag. */
  readonly rowCount?: number;
  /** Rows changed by INSERT, UPDATE, DELETE. */
  readonly affectedRows?: number;
}

/** What we use of a PGlite instance (structural: the package's types do not depend on PGlite). */
export interface PGliteLike {
  /** Resolves when the database has started. */
  readonly waitReady: Promise<void>;
  /** True once closed. */
  readonly closed: boolean;
  /** The instance's type parsers by type OID (given to `new PGlite({ parsers })`, merged with PGlite's own). */
  readonly parsers?: Readonly<Record<number, unknown>>;
  /** Run one statement with bound parameters and per-query type parsers (by type OID). */
  query(sql: string, params?: unknown[], options?: { parsers?: Readonly<Record<number, (text: string) => unknown>> }): Promise<PGliteResultLike>;
  /** Run statements without parameters as one simple query (transaction control, when present). */
  exec?(sql: string): Promise<unknown>;
  /** Close the database. */
  close(): Promise<void>;
}

/** Options of `pglite()`. */
export type PGliteDatabaseOptions = SqlConnectionOptions;

const COMMANDS: ReadonlySet<string> = new Set(['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/** The statements Kysely and SqlProvider send to control a transaction: no parameters, no rows. */
const TRANSACTION_CONTROL = /^\s*(?:start transaction|begin|commit|rollback|savepoint|release)\b/i;

/**
 * The type parsers SqlProvider reads results with, by type OID: give them to your own instance
 * (`new PGlite({ parsers: pgliteParsers })`) and `pglite(instance)` need not pass them with every
 * query (which costs PGlite about 0.1 ms a statement). Other types keep PGlite's own parsers.
 */
export const pgliteParsers: Readonly<Record<number, (text: string) => unknown>> = PGLITE_PARSERS;

/** True when `instance` parses every type as SqlProvider needs (it was made with `pgliteParsers`). */
function parsesAsNeeded(instance: PGliteLike): boolean {
  const own = instance.parsers;
  return own !== undefined && Object.entries(PGLITE_PARSERS).every(([oid, parse]) => own[Number(oid)] === parse);
}

/** The pool of one: hands the session out under the queue. */
class PGliteSessionPool implements PostgresPool {
  private readonly queue = new SessionQueue();
  private release: ReleaseSession | undefined;
  private readonly client: PostgresPoolClient;

  constructor(
    private readonly instance: PGliteLike,
    private readonly owned: boolean,
    private readonly timeoutMs: number,
    private readonly retryAfterSeconds: number,
  ) {
    this.client = new PGliteClient(instance, () => {
      const release = this.release;
      this.release = undefined;
      release?.();
    });
  }

  async connect(): Promise<PostgresPoolClient> {
    const release = await this.queue.acquire(this.timeoutMs, this.retryAfterSeconds);
    // Closed by its owner while the service runs: every statement fails as one without a database (503), none waits.
    if (this.instance.closed) {
      release();
      throw new SqlConnectionLostError(false, new Error('PGlite is closed'));
    }
    this.release = release;
    // One client object for the one session: Kysely keys its connection wrapper on it.
    return this.client;
  }

  async end(): Promise<void> {
    if (this.owned && !this.instance.closed) await this.instance.close();
  }
}

/** The session as a `pg`-style pool client for Kysely's PostgreSQL driver. */
class PGliteClient implements PostgresPoolClient {
  /** The `query` options: none when the instance already has our parsers. */
  private readonly options: { parsers?: Readonly<Record<number, (text: string) => unknown>> };

  constructor(
    private readonly instance: PGliteLike,
    readonly release: () => void,
  ) {
    this.options = parsesAsNeeded(instance) ? {} : { parsers: PGLITE_PARSERS };
  }

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(input: string | PostgresCursor<R>, parameters?: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof input !== 'string') throw new Error('Streaming with a cursor is not supported on PGlite.');
    return this.run<R>(input, parameters ?? []);
  }

  private async run<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    if (parameters.length === 0 && this.instance.exec !== undefined && TRANSACTION_CONTROL.test(sql)) {
      await this.instance.exec(sql);
      return { command: 'SELECT', rowCount: 0, rows: [] };
    }
    const result = await this.instance.query(sql, [...parameters], this.options);
    const command = result.command !== undefined && COMMANDS.has(result.command) ? result.command : 'SELECT';
    return {
      command: command as PostgresQueryResult<R>['command'],
      rowCount: result.rowCount ?? result.affectedRows ?? result.rows.length,
      // Kysely's row type is whatever its caller asked for; rows are plain objects keyed by column.
      rows: result.rows as R[],
    };
  }
}

/**
 * An embedded PostgreSQL: in memory (`pglite()`), in a data folder (`pglite('./data')`), or over a
 * PGlite instance you made (`pglite(new PGlite(...))`, which `close()` leaves open). Needs the
 * optional peer dependency `@electric-sql/pglite` (loaded on first use).
 */
export function pglite(source?: string | PGliteLike, options: PGliteDatabaseOptions = {}): SqlDatabase {
  const { acquireTimeoutMs, retryAfterSeconds } = resolveConnectionOptions(options);
  return postgresDatabase(
    'pglite',
    async () => {
      const owned = typeof source !== 'object';
      const instance = typeof source === 'object' ? source : await openPGlite(source);
      await instance.waitReady;
      return new PGliteSessionPool(instance, owned, acquireTimeoutMs, retryAfterSeconds);
    },
    options,
  );
}

/**
 * Load PGlite with Node's own loader, not the caller's `require`: its Emscripten glue uses dynamic
 * `import()`, which runners that sandbox modules refuse (Jest's vm contexts, where `require` and
 * even `module.createRequire` are Jest's). `process.getBuiltinModule` (Node 20.16+) is Node's.
 */
function loadPGlite(): typeof PGliteModule {
  const createRequire = typeof process.getBuiltinModule === 'function' ? process.getBuiltinModule('module').createRequire : nodeModule.createRequire;
  try {
    const loaded: unknown = createRequire(__filename)('@electric-sql/pglite');
    return loaded as typeof PGliteModule;
  } catch (error) {
    throw new Error('pglite() needs the package @electric-sql/pglite: npm install @electric-sql/pglite', { cause: error });
  }
}

async function openPGlite(dataDir: string | undefined): Promise<PGliteLike> {
  const { PGlite } = loadPGlite();
  const options = { parsers: PGLITE_PARSERS };
  return dataDir === undefined ? new PGlite(options) : new PGlite(dataDir, options);
}
