/**
 * PGlite (PostgreSQL compiled to WebAssembly, no server, no native build) as a SqlDatabase. PGlite
 * is ONE session, so it sits behind a pool of size one of our own: a transaction keeps the session
 * from BEGIN to COMMIT and every other statement queues (first come, first served), so two
 * changesets never interleave inside one transaction.
 */
import * as nodeModule from 'module';
import type * as PGliteModule from '@electric-sql/pglite';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import { postgresDatabase, resolveConnectionOptions, type SqlConnectionOptions, type SqlDatabase } from './database';
import { SessionQueue, type ReleaseSession } from './session-queue';
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
  /** Run one statement with bound parameters and per-query type parsers (by type OID). */
  query(sql: string, params?: unknown[], options?: { parsers?: Readonly<Record<number, (text: string) => unknown>> }): Promise<PGliteResultLike>;
  /** Close the database. */
  close(): Promise<void>;
}

/** Options of `pglite()`. */
export type PGliteDatabaseOptions = SqlConnectionOptions;

const COMMANDS: ReadonlySet<string> = new Set(['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'MERGE']);

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
  constructor(
    private readonly instance: PGliteLike,
    readonly release: () => void,
  ) {}

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(input: string | PostgresCursor<R>, parameters?: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof input !== 'string') throw new Error('Streaming with a cursor is not supported on PGlite.');
    return this.run<R>(input, parameters ?? []);
  }

  private async run<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    const result = await this.instance.query(sql, [...parameters], { parsers: PGLITE_PARSERS });
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
  return dataDir === undefined ? new PGlite() : new PGlite(dataDir);
}
