/**
 * postgres() without a server: the adapter over a pool you give it (a fake `pg.Pool` here). Our
 * type parsers travel with every query (the global `pg.types` is never touched), waiting for a
 * connection is bounded, and a connection that arrives too late goes back to the pool. A client's
 * 'error' event while we hold it fails only the statements on it, and a client that broke is
 * ended (`release(true)`), never pooled again. The same against a real server: postgres.pg.spec.ts
 * and the outage specs (outages.pg.spec.ts).
 */
import { EventEmitter } from 'events';
import { sql } from 'kysely';
import { Pool } from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import type { PGliteLike } from '../../lib/sql/postgres/pglite';
import { SqlAcquireTimeoutError } from '../../lib/sql/errors';
import { postgres, type PgClientLike, type PgPoolLike, type PgQueryConfig, type PgResultLike } from '../../lib/sql/postgres/server';
import { SqlConnectionLostError } from '../../lib/sql/connection-failure';
import { PG_QUERY_TYPES } from '../../lib/sql/postgres/type-parsers';

interface FakePool extends PgPoolLike {
  readonly queries: PgQueryConfig[];
  released: number;
  ended: boolean;
  delay: number;
}

function fakePool(delay = 0): FakePool {
  const pool: FakePool = {
    queries: [],
    released: 0,
    ended: false,
    delay,
    async connect() {
      await new Promise((resolve) => setTimeout(resolve, pool.delay));
      const client: PgClientLike = {
        async query(config) {
          pool.queries.push(config);
          return { command: config.text.startsWith('update') ? 'UPDATE' : 'SELECT', rowCount: 3, rows: [{ n: '9007199254740993' }] };
        },
        release() {
          pool.released++;
        },
      };
      return client;
    },
    async end() {
      pool.ended = true;
    },
  };
  return pool;
}

describe('postgres() over a pool you give it', () => {
  it('sends each query with our type parsers and releases the connection', async () => {
    const pool = fakePool();
    const db = postgres(pool);
    const result = await sql`select ${'x'}::text as n`.execute(db.kysely);
    const updated = await sql`update t set a = 1`.execute(db.kysely);
    expect(result.rows).toEqual([{ n: '9007199254740993' }]);
    expect(updated.numAffectedRows).toBe(3n);
    expect(pool.queries.map(({ text, values, types }) => [text, values, types === PG_QUERY_TYPES])).toEqual([
      ['select $1::text as n', ['x'], true],
      ['update t set a = 1', [], true],
    ]);
    expect(pool.released).toBe(2);
    await db.close();
    expect(pool.ended).toBe(false);
  });

  it('fails with SqlAcquireTimeoutError when no connection comes in time, and releases the late one', async () => {
    const pool = fakePool(150);
    const db = postgres(pool, { acquireTimeoutMs: 30, retryAfterSeconds: 5 });
    const error = await sql`select 1`.execute(db.kysely).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SqlAcquireTimeoutError);
    expect(error).toMatchObject({ waitedMs: 30, retryAfterSeconds: 5 });
    expect(pool.released).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pool.released).toBe(1);
    expect(pool.queries).toEqual([]);
  });

  it('opens nothing until the first statement (a connection string, closed unused)', async () => {
    const db = postgres('postgres://nobody@127.0.0.1:1/none');
    expect(db.engine).toBe('postgres');
    await db.close();
  });

  it('checks its options', () => {
    expect(() => postgres(fakePool(), { maxConnections: 0 })).toThrow('maxConnections must be a positive integer, got 0.');
    expect(() => postgres(fakePool(), { acquireTimeoutMs: 1.5 })).toThrow('acquireTimeoutMs must be a positive integer, got 1.5.');
  });
});

/** One pooled client as an EventEmitter, as `pg.Client` is: it answers from `answer`, and records its releases. */
class FakeClient extends EventEmitter implements PgClientLike {
  readonly releases: (Error | boolean | undefined)[] = [];
  readonly sent: string[] = [];
  answer: (text: string) => Promise<PgResultLike> = async () => ({ command: 'SELECT', rowCount: 0, rows: [] });

  query(config: PgQueryConfig): Promise<PgResultLike> {
    this.sent.push(config.text);
    return this.answer(config.text);
  }

  release(error?: Error | boolean): void {
    this.releases.push(error);
  }
}

/** A pool of that one client. */
function onePool(client: FakeClient): PgPoolLike {
  return { connect: async () => client, end: async () => undefined };
}

const withCode = (message: string, code: string): Error => Object.assign(new Error(message), { code });

describe("a connection's failure fails the statement on it, never the process", () => {
  it("listens for the client's 'error' event exactly while it is held", async () => {
    const client = new FakeClient();
    const db = postgres(onePool(client));
    let held = -1;
    client.answer = async () => {
      held = client.listenerCount('error');
      return { command: 'SELECT', rowCount: 0, rows: [] };
    };
    await sql`select 1`.execute(db.kysely);
    expect([held, client.listenerCount('error'), client.releases]).toEqual([1, 0, [undefined]]);
  });

  it("survives an 'error' event while held (an EventEmitter without a listener would throw it), fails what follows on it, and ends it", async () => {
    const client = new FakeClient();
    const db = postgres(onePool(client));
    const killed = withCode('terminating connection due to administrator command', '57P01');
    const outcome = await db.kysely
      .connection()
      .execute(async (connection) => {
        await sql`select 1`.execute(connection);
        // Between two statements, as a transaction waits for its request's next step.
        client.emit('error', killed);
        return sql`select 2`.execute(connection);
      })
      .catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(SqlConnectionLostError);
    expect(outcome).toMatchObject({ sent: false, cause: killed });
    expect(client.sent).toEqual(['select 1']);
    // Never back into the pool; our listener stays on the dead client for its late errors.
    expect([client.releases, client.listenerCount('error')]).toEqual([[true], 1]);
    expect(() => client.emit('error', new Error('Connection terminated unexpectedly'))).not.toThrow();
  });

  it.each<[string, Error, 'lost' | 'answered', Error | boolean | undefined]>([
    ['a connection closed before the reply', new Error('Connection terminated unexpectedly'), 'lost', true],
    ['a reset under the statement', withCode('read ECONNRESET', 'ECONNRESET'), 'lost', true],
    ['EPIPE while sending', withCode('write EPIPE', 'EPIPE'), 'lost', true],
    ["the server's 57P01 answer", withCode('terminating connection due to administrator command', '57P01'), 'answered', true],
    ["the server's 53300 answer", withCode('too many clients', '53300'), 'answered', true],
    ['a unique violation (the connection is fine)', withCode('duplicate key', '23505'), 'answered', undefined],
  ])('%s: %s, and the client is given back as %s', async (_, failure, kind, released) => {
    const client = new FakeClient();
    client.answer = () => Promise.reject(failure);
    const db = postgres(onePool(client));
    const error = await sql`commit`.execute(db.kysely).catch((caught: unknown) => caught);
    if (kind === 'lost') expect(error).toMatchObject({ name: 'SqlConnectionLostError', sent: true, cause: failure });
    else expect(error).toBe(failure);
    expect(client.releases).toEqual([released]);
  });
});

/** A pool that reports checkouts and returns as pg-pool does ('acquire' before the hand-out, 'release' after the return). */
class EventPool extends EventEmitter implements PgPoolLike {
  /** Run synchronously right after 'acquire', before connect() resolves (a FATAL in the same chunk as ReadyForQuery). */
  afterAcquire: () => void = () => undefined;

  constructor(readonly client: FakeClient) {
    super();
    const release = client.release.bind(client);
    client.release = (error) => {
      release(error);
      this.emit('release', error, client);
    };
  }

  async connect(): Promise<PgClientLike> {
    this.emit('acquire', this.client);
    this.afterAcquire();
    return this.client;
  }

  async end(): Promise<void> {}
}

describe("a pool's 'acquire' and 'release' events bound the listening", () => {
  it('catches an error the client reports in the same synchronous step as its hand-out', async () => {
    const client = new FakeClient();
    const pool = new EventPool(client);
    const killed = withCode('terminating connection due to administrator command', '57P01');
    pool.afterAcquire = () => client.emit('error', killed);
    const db = postgres(pool);
    const error = await sql`select 1`.execute(db.kysely).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'SqlConnectionLostError', sent: false, cause: killed });
    expect([client.sent, client.releases]).toEqual([[], [true]]);
  });

  it('listens from acquire to release for a healthy client, and not after', async () => {
    const client = new FakeClient();
    const pool = new EventPool(client);
    let during = -1;
    client.answer = async () => {
      during = client.listenerCount('error');
      return { command: 'SELECT', rowCount: 0, rows: [] };
    };
    const db = postgres(pool);
    await sql`select 1`.execute(db.kysely);
    await sql`select 2`.execute(db.kysely);
    expect([during, client.listenerCount('error'), client.releases]).toEqual([1, 0, [undefined, undefined]]);
  });
});

describe('the drivers’ own classes fit the structural types (checked by the type checker)', () => {
  it('pg.Pool is a PgPoolLike and PGlite a PGliteLike', () => {
    const pool: PgPoolLike = new Pool({ max: 1 }); // lazy: opens nothing
    type Fits = PGlite extends PGliteLike ? true : false;
    const fits: Fits = true;
    expect([typeof pool.connect, fits]).toEqual(['function', true]);
    return (pool as Pool).end();
  });
});
