/**
 * postgres() without a server: the adapter over a pool you give it (a fake `pg.Pool` here). Our
 * type parsers travel with every query (the global `pg.types` is never touched), waiting for a
 * connection is bounded, and a connection that arrives too late goes back to the pool. The same
 * against a real server: postgres.pg.spec.ts.
 */
import { sql } from 'kysely';
import { Pool } from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import type { PGliteLike } from '../../lib/sql/pglite';
import { SqlAcquireTimeoutError } from '../../lib/sql/errors';
import { postgres, type PgClientLike, type PgPoolLike, type PgQueryConfig } from '../../lib/sql/postgres';
import { PG_QUERY_TYPES } from '../../lib/sql/type-parsers';

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

describe('the drivers’ own classes fit the structural types (checked by the type checker)', () => {
  it('pg.Pool is a PgPoolLike and PGlite a PGliteLike', () => {
    const pool: PgPoolLike = new Pool({ max: 1 }); // lazy: opens nothing
    type Fits = PGlite extends PGliteLike ? true : false;
    const fits: Fits = true;
    expect([typeof pool.connect, fits]).toEqual(['function', true]);
    return (pool as Pool).end();
  });
});
