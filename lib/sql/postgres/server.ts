/**
 * A PostgreSQL server through `pg` as a SqlDatabase. Result types are parsed per query (the
 * `types` query option: the global `pg.types` registry is never touched, so other users of `pg` in
 * the process keep theirs), and waiting for a pooled connection is bounded (SqlAcquireTimeoutError).
 *
 * A connection that dies must fail only the request that holds it. pg-pool listens for a client's
 * 'error' event only while the client is idle in the pool (it removes that listener on checkout),
 * and an 'error' event nobody listens to ends the process: so every client has our listener while
 * it is checked out, a client that broke is given back with `release(true)` (pg-pool ends it
 * instead of pooling it), and a statement whose connection closed under it is marked for the
 * writers (SqlConnectionLostError: sent, or never sent). The listener goes on in the pool's
 * 'acquire' event, in the same synchronous step in which pg-pool takes its own off: a new
 * connection killed right after its startup delivers its ReadyForQuery and the server's FATAL in
 * one chunk, and an await between the two steps would let that FATAL through.
 */
import type * as PgModule from 'pg';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import { describeCaught, isInstanceOf } from '../../util';
import { SqlConnectionLostError } from '../connection-failure';
import { resolveConnectionOptions, type SqlConnectionOptions, type SqlDatabase } from '../database';
import { postgresDatabase } from './database';
import { SqlAcquireTimeoutError, sqlStateOf } from '../errors';
import { POSTGRES_ERRORS } from './errors';
import { PG_QUERY_TYPES, type PgTypeParsers } from './type-parsers';

/** The query config we send: text, values, and our per-query type parsers. */
export interface PgQueryConfig {
  /** The SQL text with `$1`... placeholders. */
  readonly text: string;
  /** The bound parameters. */
  readonly values: unknown[];
  /** The result type parsers of this query (`pg`'s `types` query option). */
  readonly types: PgTypeParsers;
}

/** The result of a `pg` query as far as we read it. */
export interface PgResultLike {
  /** The command tag's first word (`SELECT`, `UPDATE`...). */
  readonly command: string;
  /** Rows returned or changed. */
  readonly rowCount: number | null;
  /** The rows, as objects keyed by column name. */
  readonly rows: unknown[];
}

/** What we use of a pooled `pg` client. */
export interface PgClientLike {
  /** Run one statement. */
  query(config: PgQueryConfig): Promise<PgResultLike>;
  /** Give the connection back to the pool; with `true`, end it instead (it broke). */
  release(error?: Error | boolean): void;
  /** Listen for the connection's 'error' event (a `pg.Client` is an EventEmitter). */
  on?(event: 'error', listener: (error: Error) => void): unknown;
  /** Stop listening. */
  removeListener?(event: 'error', listener: (error: Error) => void): unknown;
}

/** What we use of a `pg.Pool` (structural: the package's types do not depend on `pg`). */
export interface PgPoolLike {
  /** Wait for a pooled connection. */
  connect(): Promise<PgClientLike>;
  /** Close every connection of the pool. */
  end(): Promise<void>;
  /** pg-pool's event when it hands a client out (before it stops listening to the client's errors itself). */
  on?(event: 'acquire', listener: (client: PgClientLike) => void): unknown;
  /** pg-pool's event when a client comes back (after it listens to the client's errors again). */
  on?(event: 'release', listener: (error: Error | boolean | undefined, client: PgClientLike) => void): unknown;
}

/** Options of `postgres()`. */
export interface PostgresDatabaseOptions extends SqlConnectionOptions {
  /** Most connections a pool that `postgres()` opens keeps (`pg.Pool`'s `max`). Default 10. */
  readonly maxConnections?: number;
}

const COMMANDS: ReadonlySet<string> = new Set(['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/** `pg`'s messages for a statement it did not send: the client had already broken, or been closed. */
const NOT_SENT: ReadonlySet<string | undefined> = new Set([
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
]);

/** What broke a held connection: its 'error' event, or a statement that failed for lack of it. */
interface Broken {
  readonly error: unknown;
}

/** A `pg` client as Kysely's pool client, with our type parsers on every query, guarded while held (see the module comment). */
class PgClient implements PostgresPoolClient {
  private broken: Broken | undefined;
  private readonly onError = (error: unknown): void => {
    this.broken ??= { error };
  };

  constructor(
    private readonly client: PgClientLike,
    /** The pool reports returns (its 'release' event), which then end the listening. */
    private readonly tracked: boolean,
  ) {}

  /** Handed out by the pool: listen for its 'error' event until it comes back. */
  checkedOut(): void {
    this.broken = undefined;
    this.client.on?.('error', this.onError);
  }

  /**
   * Back in the pool, which listens again: stop listening. A client that broke keeps our listener:
   * the pool ends it, and a dead connection may still report a late error.
   */
  checkedIn(): void {
    if (this.broken === undefined) this.client.removeListener?.('error', this.onError);
  }

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(input: string | PostgresCursor<R>, parameters?: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof input !== 'string') throw new Error('Streaming with a cursor is not configured for this pool.');
    return this.run<R>(input, parameters ?? []);
  }

  release(): void {
    // Broken: ended by the pool, never handed out again.
    if (this.broken === undefined) this.client.release();
    else this.client.release(true);
    if (!this.tracked) this.checkedIn();
  }

  private async run<R>(text: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    if (this.broken !== undefined) throw new SqlConnectionLostError(false, this.broken.error);
    let result: PgResultLike;
    try {
      result = await this.client.query({ text, values: [...parameters], types: PG_QUERY_TYPES });
    } catch (error) {
      if (!POSTGRES_ERRORS.isConnectionFailure(error)) throw error;
      this.broken ??= { error };
      // A SQLSTATE is the server's answer (the statement did nothing); without one the reply never came.
      throw sqlStateOf(error) === undefined ? new SqlConnectionLostError(!NOT_SENT.has(describeCaught(error).message), error) : error;
    }
    return {
      command: (COMMANDS.has(result.command) ? result.command : 'SELECT') as PostgresQueryResult<R>['command'],
      rowCount: result.rowCount ?? result.rows.length,
      rows: result.rows as R[],
    };
  }
}

/** A `pg` pool with a bounded wait for connections. */
class BoundedPool implements PostgresPool {
  private readonly clients = new WeakMap<PgClientLike, PgClient>();
  /** True when the pool reports checkouts and returns (pg-pool does); else `connect` and `release` do. */
  private readonly tracked: boolean;

  constructor(
    private readonly pool: PgPoolLike,
    private readonly owned: boolean,
    private readonly timeoutMs: number,
    private readonly retryAfterSeconds: number,
  ) {
    this.tracked = typeof pool.on === 'function';
    if (this.tracked) {
      // Every client the pool hands out is guarded while it is out, a user's own checkouts of a shared pool included.
      pool.on?.('acquire', (client) => this.wrapperOf(client).checkedOut());
      pool.on?.('release', (_error, client) => this.wrapperOf(client).checkedIn());
    }
  }

  /** The one wrapper of a client (Kysely keys its connection on it). */
  private wrapperOf(client: PgClientLike): PgClient {
    let wrapped = this.clients.get(client);
    if (wrapped === undefined) {
      wrapped = new PgClient(client, this.tracked);
      this.clients.set(client, wrapped);
    }
    return wrapped;
  }

  async connect(): Promise<PostgresPoolClient> {
    const pending = this.pool.connect();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new SqlAcquireTimeoutError(this.timeoutMs, this.retryAfterSeconds)), this.timeoutMs);
    });
    try {
      const client = await Promise.race([pending, timeout]);
      const wrapped = this.wrapperOf(client);
      if (!this.tracked) wrapped.checkedOut();
      return wrapped;
    } catch (error) {
      // A connection that arrives after we gave up goes straight back to the pool.
      if (isInstanceOf(error, SqlAcquireTimeoutError))
        pending.then(
          (late) => this.wrapperOf(late).release(),
          () => undefined,
        );
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  async end(): Promise<void> {
    if (this.owned) await this.pool.end();
  }
}

/**
 * A PostgreSQL server: `postgres('postgres://user@host/db')` opens a `pg.Pool` (closed by
 * `close()`); `postgres(pool)` uses yours (left open). Needs the optional peer dependency `pg`.
 */
export function postgres(source: string | PgPoolLike, options: PostgresDatabaseOptions = {}): SqlDatabase {
  const { acquireTimeoutMs, retryAfterSeconds } = resolveConnectionOptions(options);
  const max = options.maxConnections ?? 10;
  if (!Number.isInteger(max) || max < 1) throw new TypeError(`maxConnections must be a positive integer, got ${String(max)}.`);
  return postgresDatabase(
    'postgres',
    async () => {
      if (typeof source !== 'string') return new BoundedPool(source, false, acquireTimeoutMs, retryAfterSeconds);
      return new BoundedPool(await openPool(source, max, acquireTimeoutMs), true, acquireTimeoutMs, retryAfterSeconds);
    },
    options,
  );
}

async function openPool(connectionString: string, max: number, acquireTimeoutMs: number): Promise<PgPoolLike> {
  let module: typeof PgModule;
  try {
    module = await import('pg');
  } catch (error) {
    throw new Error('postgres() needs the package pg: npm install pg', { cause: error });
  }
  // pg-pool's own timeout (waiting in its queue, or a connect that hangs) comes after ours, so the
  // caller always gets SqlAcquireTimeoutError; it still cleans up what would wait forever.
  const pool = new module.Pool({ connectionString, max, connectionTimeoutMillis: 2 * acquireTimeoutMs });
  // An idle connection that breaks (server restart, network) is dropped by the pool; without a
  // listener the 'error' event would end the process. The next statement opens a fresh connection.
  pool.on('error', () => undefined);
  return pool;
}
