/**
 * pglite(): PGlite behind a pool of one. Transactions hold the one session from BEGIN to COMMIT and
 * everything else queues (never two transactions interleaved in one session); a request that
 * cannot get its turn in time fails with SqlAcquireTimeoutError. Uses the package the way users do:
 * pglite() opens its own in-memory instance (loaded with Node's own loader) and close() closes it.
 */
import { sql } from 'kysely';
import { SqlAcquireTimeoutError } from '../../lib/sql/errors';
import { pglite, pgliteParsers, type PGliteLike } from '../../lib/sql/postgres/pglite';
import { TYPE_OID } from '../../lib/sql/postgres/type-parsers';

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('pglite() over its own in-memory instance', () => {
  const db = pglite(undefined, { acquireTimeoutMs: 400, retryAfterSeconds: 2 });

  beforeAll(async () => {
    await sql`create table events (owner text, n integer)`.execute(db.kysely);
  }, 60_000);

  afterAll(() => db.close());

  beforeEach(() => sql`delete from events`.execute(db.kysely));

  const rows = async (): Promise<string[]> =>
    (await sql<{ owner: string; n: number }>`select owner, n from events order by owner, n`.execute(db.kysely)).rows.map((row) => `${row.owner}${row.n}`);

  it('runs two concurrent transactions one after the other: the rolled-back one leaves nothing, the other all its rows', async () => {
    const timeline: string[] = [];
    const work = (owner: string, fail: boolean) =>
      db.kysely.transaction().execute(async (trx) => {
        timeline.push(`${owner} begins`);
        for (let n = 1; n <= 3; n++) {
          await sql`insert into events values (${owner}, ${n})`.execute(trx);
          await pause(5); // room for the other transaction to interleave, if the pool let it
        }
        timeline.push(`${owner} ends`);
        if (fail) throw new Error(`${owner} fails`);
      });
    const results = await Promise.allSettled([work('a', false), work('b', true)]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected']);
    expect(timeline).toEqual(['a begins', 'a ends', 'b begins', 'b ends']);
    expect(await rows()).toEqual(['a1', 'a2', 'a3']);
  });

  it('a statement outside the transaction waits for its commit and sees the committed rows', async () => {
    let committed = false;
    const transaction = db.kysely.transaction().execute(async (trx) => {
      await sql`insert into events values ('t', 1)`.execute(trx);
      await pause(30);
      committed = true;
    });
    await pause(5);
    const seen = await rows();
    await transaction;
    expect(committed).toBe(true);
    expect(seen).toEqual(['t1']);
  });

  it('fails a statement that waits longer than acquireTimeoutMs with SqlAcquireTimeoutError, then serves again', async () => {
    const transaction = db.kysely.transaction().execute(async (trx) => {
      await sql`insert into events values ('long', 1)`.execute(trx);
      await pause(700);
    });
    await pause(5);
    const error = await rows().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SqlAcquireTimeoutError);
    expect(error).toMatchObject({ waitedMs: 400, retryAfterSeconds: 2 });
    await transaction;
    expect(await rows()).toEqual(['long1']);
  });

  it('reports the rows a statement changed', async () => {
    await sql`insert into events values ('x', 1), ('x', 2)`.execute(db.kysely);
    const result = await sql`update events set n = n + 10 where owner = 'x'`.execute(db.kysely);
    expect(result.numAffectedRows).toBe(2n);
  });
});

describe('pglite() over an instance you made', () => {
  /** A recording instance; `parsers`: the ones it was made with, `exec`: whether it has simple queries. */
  function fakeInstance(made: { parsers?: Readonly<Record<number, unknown>>; exec?: boolean } = {}): PGliteLike & { calls: unknown[][]; closed: boolean } {
    const calls: unknown[][] = [];
    return {
      calls,
      closed: false,
      waitReady: Promise.resolve(),
      ...(made.parsers === undefined ? {} : { parsers: made.parsers }),
      async query(text, params, options) {
        calls.push([text, params, options?.parsers === undefined ? 'no parsers' : 'parsers']);
        return text.startsWith('delete') ? { rows: [], command: 'DELETE', affectedRows: 4 } : { rows: [{ one: 1 }], command: 'SELECT', rowCount: 1 };
      },
      ...(made.exec === true
        ? {
            async exec(text: string) {
              calls.push([text, 'exec']);
              return [];
            },
          }
        : {}),
      async close() {
        this.closed = true;
      },
    };
  }

  it('passes our type parsers with every query and maps the result for Kysely', async () => {
    const instance = fakeInstance();
    const db = pglite(instance);
    const selected = await sql`select ${1} as one`.execute(db.kysely);
    const deleted = await sql`delete from t`.execute(db.kysely);
    expect(selected.rows).toEqual([{ one: 1 }]);
    expect(deleted.numAffectedRows).toBe(4n);
    expect(instance.calls).toEqual([
      ['select $1 as one', [1], 'parsers'],
      ['delete from t', [], 'parsers'],
    ]);
    await db.close();
    expect(instance.closed).toBe(false);
  });

  it('passes no parsers when the instance was made with pgliteParsers (PGlite merges its whole table for each query that has some)', async () => {
    const instance = fakeInstance({ parsers: { 1: () => 'theirs', ...pgliteParsers } });
    const db = pglite(instance);
    await sql`select ${1} as one`.execute(db.kysely);
    expect(instance.calls).toEqual([['select $1 as one', [1], 'no parsers']]);
  });

  it('still passes them when the instance parses one of our types its own way', async () => {
    const instance = fakeInstance({ parsers: { ...pgliteParsers, [TYPE_OID.numeric]: Number } });
    const db = pglite(instance);
    await sql`select ${1} as one`.execute(db.kysely);
    expect(instance.calls).toEqual([['select $1 as one', [1], 'parsers']]);
  });

  it('runs transaction control as a simple query (exec) when the instance has one, everything else with its parameters', async () => {
    const instance = fakeInstance({ exec: true });
    const db = pglite(instance);
    await db.kysely.transaction().execute(async (trx) => {
      await sql`select ${1} as one`.execute(trx);
    });
    await expect(
      db.kysely.transaction().execute(async () => {
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(instance.calls).toEqual([
      ['begin', 'exec'],
      ['select $1 as one', [1], 'parsers'],
      ['commit', 'exec'],
      ['begin', 'exec'],
      ['rollback', 'exec'],
    ]);
  });

  it('reads int8, numeric and timestamps as exact text on an instance of its own (made with the parsers)', async () => {
    const db = pglite();
    try {
      const { rows } = await sql<{
        big: unknown;
        exact: unknown;
        at: unknown;
      }>`select 9007199254740993::int8 as big, 0.1000000000000000000001::numeric as exact, '2024-01-02 03:04:05.123456'::timestamp as at`.execute(db.kysely);
      expect(rows).toEqual([{ big: '9007199254740993', exact: '0.1000000000000000000001', at: '2024-01-02 03:04:05.123456' }]);
    } finally {
      await db.close();
    }
  }, 60_000);

  it('has no streaming yet: Kysely refuses stream() without a cursor class (the SQL provider brings one)', async () => {
    const db = pglite(fakeInstance());
    await expect(db.kysely.selectFrom('t').selectAll().stream().next()).rejects.toThrow("'cursor' is not present in your postgres dialect config");
  });

  it('checks its options', () => {
    expect(() => pglite(undefined, { acquireTimeoutMs: 0 })).toThrow('acquireTimeoutMs must be a positive integer, got 0.');
    expect(() => pglite(undefined, { retryAfterSeconds: -1 })).toThrow('retryAfterSeconds must be a non-negative integer, got -1.');
  });
});
