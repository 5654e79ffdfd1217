/**
 * postgres() against a real server: transactions on pooled connections, the bounded wait for a
 * connection, type parsers per query (the global pg.types untouched), close(); and the harness's
 * streaming replica (pg_basebackup -R), which the SQL provider's replica specs will use.
 */
import { sql } from 'kysely';
import * as pg from 'pg';
import { createTestDatabase } from '../helpers/postgres-database';
import { existsSync } from 'fs';
import { startPostgres } from '../helpers/postgres-server';
import { SqlAcquireTimeoutError, sqlStateOf } from '../../lib/sql/errors';
import { postgres } from '../../lib/sql/postgres/server';
import type { SqlDatabase } from '../../lib/sql/database';

let database: SqlDatabase;
let url: string;
let drop: () => Promise<void>;

beforeAll(async () => {
  const created = await createTestDatabase();
  ({ url, drop } = created);
  database = postgres(url, { maxConnections: 4 });
  await sql`create table events (owner text, n integer)`.execute(database.kysely);
});

afterAll(async () => {
  await database.close();
  await drop();
});

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

it('runs concurrent transactions on their own connections: a rollback leaves only the other one’s rows', async () => {
  const work = (owner: string, fail: boolean) =>
    database.kysely.transaction().execute(async (trx) => {
      for (let n = 1; n <= 3; n++) {
        await sql`insert into events values (${owner}, ${n})`.execute(trx);
        await pause(5);
      }
      if (fail) throw new Error('rolled back');
    });
  const results = await Promise.allSettled([work('a', false), work('b', true)]);
  expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected']);
  const rows = await sql<{ owner: string; n: number }>`select owner, n from events order by owner, n`.execute(database.kysely);
  expect(rows.rows.map((row) => `${row.owner}${row.n}`)).toEqual(['a1', 'a2', 'a3']);
});

it('fails a statement that gets no connection within acquireTimeoutMs with SqlAcquireTimeoutError', async () => {
  const single = postgres(url, { maxConnections: 1, acquireTimeoutMs: 200, retryAfterSeconds: 2 });
  try {
    const holder = single.kysely.transaction().execute(async (trx) => {
      await sql`select pg_sleep(0.6)`.execute(trx);
    });
    await pause(50);
    const error = await sql`select 1`.execute(single.kysely).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SqlAcquireTimeoutError);
    expect(error).toMatchObject({ waitedMs: 200, retryAfterSeconds: 2 });
    await holder;
    expect((await sql<{ one: number }>`select 1 as one`.execute(single.kysely)).rows).toEqual([{ one: 1 }]);
  } finally {
    await single.close();
  }
});

it('parses result types per query and leaves the global pg.types as it was', async () => {
  const result = await sql<
    Record<string, unknown>
  >`select 9007199254740993::int8 as i, 1.50::numeric as d, timestamp '2020-01-01 00:00:00.123456' as t, now() as z`.execute(database.kysely);
  expect(result.rows[0]).toMatchObject({ i: '9007199254740993', d: '1.50', t: '2020-01-01 00:00:00.123456' });
  expect(typeof result.rows[0].z).toBe('string');
  // pg's own registry still turns a timestamp into a (local-time) Date for everyone else.
  expect(pg.types.getTypeParser(1114)('2020-01-01 00:00:00')).toBeInstanceOf(Date);
});

it('reports SQLSTATEs for the provider to map (a unique violation here)', async () => {
  await sql`create table keyed (id integer primary key)`.execute(database.kysely);
  await sql`insert into keyed values (1)`.execute(database.kysely);
  const error = await sql`insert into keyed values (1)`.execute(database.kysely).catch((caught: unknown) => caught);
  expect(sqlStateOf(error)).toBe('23505');
});

describe('the harness: a primary with a streaming replica (needs the server binaries, even with DATABASE_URL)', () => {
  it('replicates writes to a read-only standby and removes both folders', async () => {
    const primary = await startPostgres();
    const folders = [primary.dataDir];
    try {
      const replica = await primary.startReplica();
      folders.push(replica.dataDir);
      try {
        const onPrimary = postgres(primary.url);
        const onReplica = postgres(replica.url);
        try {
          await sql`create table replicated (n integer)`.execute(onPrimary.kysely);
          await sql`insert into replicated values (42)`.execute(onPrimary.kysely);
          let seen: number[] = [];
          for (let attempt = 0; attempt < 100 && seen.length === 0; attempt++) {
            seen = await sql<{ n: number }>`select n from replicated`
              .execute(onReplica.kysely)
              .then((result) => result.rows.map((row) => row.n))
              .catch(() => []);
            if (seen.length === 0) await pause(100);
          }
          expect(seen).toEqual([42]);
          expect((await sql<{ standby: boolean }>`select pg_is_in_recovery() as standby`.execute(onReplica.kysely)).rows).toEqual([{ standby: true }]);
          const refused = await sql`insert into replicated values (1)`.execute(onReplica.kysely).catch((caught: unknown) => caught);
          expect(sqlStateOf(refused)).toBe('25006'); // read_only_sql_transaction
        } finally {
          await onPrimary.close();
          await onReplica.close();
        }
      } finally {
        await replica.stop();
      }
    } finally {
      await primary.stop();
    }
    expect(folders.filter((folder) => existsSync(folder))).toEqual([]);
  }, 120_000);
});
