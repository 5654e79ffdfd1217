/**
 * A PostgreSQL server through `pg` as a SqlDatabase. Result types are parsed per query (the
 * `types` query option: the global `pg.types` registry is never touched, so other users of `pg` in
 * the process keep theirs), and waiting for a pooled connection is bounded (SqlAcquireTimeoutError).
 */
import type * as PgModule from 'pg';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import { postgresDatabase, resolveConnectionOptions, type SqlConnectionOptions, type SqlDatabase } from './database';
import { SqlAcquireTimeoutError } from './errors';
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
  /** Give the connection back to the pool. */
  release(error?: Error | boolean): void;
}

/** What we use of a `pg.Pool` (structural: the package's types do not depend on `pg`). */
export interface PgPoolLike {
  /** Wait for a pooled connection. */
  connect(): Promise<PgClientLike>;
  /** Close every connection of the pool. */
  end(): Promise<void>;
}

/** Options of `postgres()`. */
export interface PostgresDatabaseOptions extends SqlConnectionOptions {
  /** Most connections a pool that `postgres()` opens keeps (`pg.Pool`'s `max`). Default 10. */
  readonly maxConnections?: number;
}

const COMMANDS: ReadonlySet<string> = new Set(['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/** A `pg` client as Kysely's pool client, with our type parsers on every query. */
class PgClient implements PostgresPoolClient {
  constructor(private readonly client: PgClientLike) {}

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(input: string | PostgresCursor<R>, parameters?: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof input !== 'string') throw new Error('Streaming with a cursor is not configured for this pool.');
    return this.run<R>(input, parameters ?? []);
  }

  release(): void {
    this.client.release();
  }

  private async run<R>(text: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    const result = await this.client.query({ text, values: [...parameters], types: PG_QUERY_TYPES });
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

  constructor(
    private readonly pool: PgPoolLike,
    private readonly owned: boolean,
    private readonly timeoutMs: number,
    private readonly retryAfterSeconds: number,
  ) {}

  async connect(): Promise<PostgresPoolClient> {
    const pending = this.pool.connect();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new SqlAcquireTimeoutError(this.timeoutMs, this.retryAfterSeconds)), this.timeoutMs);
    });
    try {
      const client = await Promise.race([pending, timeout]);
      let wrapped = this.clients.get(client);
      if (wrapped === undefined) {
        wrapped = new PgClient(client);
        this.clients.set(client, wrapped);
      }
      return wrapped;
    } catch (error) {
      // A connection that arrives after we gave up goes straight back to the pool.
      if (error instanceof SqlAcquireTimeoutError)
        pending.then(
          (late) => late.release(),
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
