/**
 * SqlProvider's writes against a real PostgreSQL server (`npm run test:postgres`): the conformance
 * suite at the default isolation level and again at SERIALIZABLE with one injected serialization
 * failure per transaction (every write and changeset runs twice and still succeeds once); 50
 * concurrent If-Match writers on one row; two service instances on one database serving alternate
 * pages of one feed while rows change; and a primary with a streaming replica, where plain reads go
 * to the replica and writes, their preconditions and changesets to the primary.
 */
import express from 'express';
import { sql } from 'kysely';
import { Pool } from 'pg';
import { odata } from '../../../lib';
import { SqlProvider, createSchema, postgres, seed, type SqlProviderOptions } from '../../../lib/sql';
import type { SqlDatabase } from '../../../lib/sql/database';
import { conformanceData, conformanceModel, describeDataProvider } from '../../../lib/testing';
import { createTestDatabase } from '../../helpers/postgres-database';
import { conformanceSetup } from './conformance-setup';
import { startPostgres, type PostgresServer } from '../../helpers/postgres-server';
import { startServer, type RunningServer } from '../../helpers/server';

const model = conformanceModel();

/** A fresh database with the fixture loaded; `close` drops it. */
async function fixtureDatabase(): Promise<{ db: SqlDatabase; url: string; close: () => Promise<void> }> {
  const created = await createTestDatabase();
  const db = postgres(created.url);
  await createSchema(db, model);
  await seed(db, model, {}, conformanceData());
  return {
    db,
    url: created.url,
    close: async () => {
      await db.close();
      await created.drop();
    },
  };
}

function serve(provider: SqlProvider, options: Record<string, unknown> = {}): Promise<RunningServer> {
  const app = express();
  app.use('/odata', odata({ model, provider, ...options }));
  return startServer(app);
}

async function json(server: RunningServer, path: string, init: RequestInit = {}): Promise<{ status: number; etag: string | null; body: unknown }> {
  const response = await fetch(path.startsWith('http') ? path : `${server.url}/odata/${path}`, {
    ...init,
    headers: { accept: 'application/json', ...(init.headers as Record<string, string> | undefined) },
  });
  const text = await response.text();
  return { status: response.status, etag: response.headers.get('etag'), body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

function entryOf(body: unknown): Record<string, unknown> {
  return (body as { d: Record<string, unknown> }).d;
}

/** A fresh empty database for the suite's setup; `close` drops it. */
async function emptyDatabase(): Promise<{ db: SqlDatabase; close: () => Promise<void> }> {
  const created = await createTestDatabase();
  const db = postgres(created.url);
  return {
    db,
    close: async () => {
      await db.close();
      await created.drop();
    },
  };
}

describeDataProvider(
  'SqlProvider on a PostgreSQL server',
  async (fixture) => {
    const { db, close } = await emptyDatabase();
    return { ...(await conformanceSetup(db, fixture)), close };
  },
  { capabilities: { storeDefaults: true } },
);

/** Transactions the injection hook failed on their first run, over the whole SERIALIZABLE suite. */
let injected = 0;
const injectOnce: SqlProviderOptions['beforeCommit'] = async ({ executor, attempt }) => {
  if (attempt > 1) return;
  injected++;
  // A real serialization failure raised by the server inside the transaction, which aborts it.
  await sql`do $$ begin raise exception 'injected serialization failure' using errcode = '40001'; end $$`.execute(executor);
};

describeDataProvider(
  'SqlProvider on a PostgreSQL server at SERIALIZABLE, one injected 40001 per transaction',
  async (fixture) => {
    const { db, close } = await emptyDatabase();
    return { ...(await conformanceSetup(db, fixture, {}, { isolationLevel: 'serializable', beforeCommit: injectOnce })), close };
  },
  { capabilities: { storeDefaults: true } },
);

describe('SqlProvider on a PostgreSQL server', () => {
  it('ran every write transaction of the SERIALIZABLE suite twice (the injected failure was retried)', () => {
    // Runs after the suite's describe blocks above (jest orders describe blocks by declaration).
    expect(injected).toBeGreaterThan(50);
  });

  it('50 concurrent If-Match writers on one row: exactly one 204, the rest 412, the final state the winner’s', async () => {
    const { db, close } = await fixtureDatabase();
    const server = await serve(new SqlProvider({ model, db }));
    try {
      const before = await json(server, 'Customers(1)');
      expect(before.status).toBe(200);
      const etag = before.etag as string;
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          fetch(`${server.url}/odata/Customers(1)`, {
            method: 'MERGE',
            headers: { 'content-type': 'application/json', accept: 'application/json', 'if-match': etag },
            body: JSON.stringify({ Name: `writer ${i}` }),
          }).then(async (response) => ({ i, status: response.status, etag: response.headers.get('etag'), text: await response.text() })),
        ),
      );
      const winners = answers.filter((answer) => answer.status === 204);
      expect(winners).toHaveLength(1);
      expect(answers.filter((answer) => answer.status === 412)).toHaveLength(49);
      const after = await json(server, 'Customers(1)');
      expect(entryOf(after.body).Name).toBe(`writer ${winners[0].i}`);
      expect(after.etag).toBe(winners[0].etag);
      expect(after.etag).not.toBe(etag);
    } finally {
      await server.close();
      await close();
    }
  });

  it('cancels a statement that runs past statementTimeoutMs: 503 STATEMENT_TIMEOUT with Retry-After, nothing written', async () => {
    const { db, close } = await fixtureDatabase();
    const slow: SqlProviderOptions['beforeCommit'] = async ({ executor }) => void (await sql`select pg_sleep(2)`.execute(executor));
    const server = await serve(new SqlProvider({ model, db, statementTimeoutMs: 200, retryAfterSeconds: 2, beforeCommit: slow }), { logger: () => undefined });
    try {
      const answer = await fetch(`${server.url}/odata/Items`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ ID: 400, Name: 'too slow', Created: '/Date(0)/' }),
      });
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('2');
      const text = await answer.text();
      expect((JSON.parse(text) as { error: { code: string } }).error.code).toBe('STATEMENT_TIMEOUT');
      expect(text).not.toMatch(/cancel|pg_sleep/);
      expect((await json(server, 'Items(400)')).status).toBe(404);
    } finally {
      await server.close();
      await close();
    }
  });

  it('holds media reads to statementTimeoutMs too: a media read past it is 503 STATEMENT_TIMEOUT, one within it streams the bytes', async () => {
    const { db, close } = await fixtureDatabase();
    const server = await serve(new SqlProvider({ model, db, statementTimeoutMs: 300, retryAfterSeconds: 2 }), { logger: () => undefined });
    try {
      const created = await fetch(`${server.url}/odata/Photos`, {
        method: 'POST',
        headers: { 'content-type': 'image/png', slug: '7' },
        body: Buffer.from([1, 2, 3]),
      });
      expect(created.status).toBe(201);
      const location = created.headers.get('location') as string;
      const fast = await fetch(`${location}/$value`);
      expect([fast.status, Buffer.from(await fast.arrayBuffer())]).toEqual([200, Buffer.from([1, 2, 3])]);
      // The media side table becomes a view whose body takes a second to read.
      await sql`alter table "Photos_media" rename to "Photos_media_data"`.execute(db.kysely);
      await sql`create function slow_body(body bytea) returns bytea language sql as $$ select pg_sleep(1); select body $$`.execute(db.kysely);
      await sql`create view "Photos_media" as select "ID", "ContentType", slow_body("Body") as "Body" from "Photos_media_data"`.execute(db.kysely);
      const slow = await fetch(`${location}/$value`, { headers: { accept: 'application/json' } });
      expect([slow.status, slow.headers.get('retry-after')]).toEqual([503, '2']);
      expect(((await slow.json()) as { error: { code: string } }).error.code).toBe('STATEMENT_TIMEOUT');
    } finally {
      await server.close();
      await close();
    }
  });

  it('two service instances on one database serve alternate pages of one feed: rows that exist throughout come once, in order', async () => {
    const { db, url, close } = await fixtureDatabase();
    const other = postgres(url);
    const servers = [await serve(new SqlProvider({ model, db }), { maxPageSize: 3 }), await serve(new SqlProvider({ model, db: other }), { maxPageSize: 3 })];
    try {
      const feed = 'Items?$orderby=Rank desc,Name&$select=ID';
      /** Walk the feed through its next links, page n from servers[n % servers.length], calling `between` after each page. */
      const walk = async (from: readonly RunningServer[], between: (page: number) => Promise<void>): Promise<number[]> => {
        const ids: number[] = [];
        let next: string | undefined = feed;
        for (let page = 0; next !== undefined; page++) {
          const server = from[page % from.length];
          const answer = await json(server, next.replace(/^http:\/\/[^/]+/, server.url));
          expect(answer.status).toBe(200);
          const body = answer.body as { d: { results: { ID: number }[]; __next?: string } };
          ids.push(...body.d.results.map((entry) => entry.ID));
          next = body.d.__next;
          await between(page);
        }
        return ids;
      };
      const expected = await walk([servers[0]], async () => undefined);
      expect(expected.length).toBeGreaterThan(9);
      const seen = await walk(servers, async (page) => {
        // Rows come and go between pages, through the other instance; a new one sorts anywhere.
        const writer = servers[(page + 1) % 2];
        const created = await json(writer, 'Items', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ID: 500 + page, Name: `between ${page}`, Rank: 5, Created: '/Date(0)/' }),
        });
        expect(created.status).toBe(201);
        if (page > 0) expect((await json(writer, `Items(${499 + page})`, { method: 'DELETE' })).status).toBe(204);
      });
      const original = seen.filter((id) => id < 500);
      expect(original).toEqual(expected);
    } finally {
      for (const server of servers) await server.close();
      await other.close();
      await close();
    }
  });
});

describe('SqlProvider with a streaming replica (needs the server binaries, even with DATABASE_URL)', () => {
  let primary: PostgresServer;
  let replica: PostgresServer;
  beforeAll(async () => {
    primary = await startPostgres();
    replica = await primary.startReplica();
  }, 120_000);
  afterAll(async () => {
    await replica?.stop();
    await primary?.stop();
  });

  /** A pool that counts the connections asked of it. */
  function countingPool(url: string): { pool: { connect: Pool['connect']; end: () => Promise<void> }; connects: () => number } {
    const pool = new Pool({ connectionString: url, max: 4 });
    let connects = 0;
    return {
      pool: {
        connect: (() => {
          connects++;
          return pool.connect();
        }) as Pool['connect'],
        end: () => pool.end(),
      },
      connects: () => connects,
    };
  }

  it('plain reads go to the replica; writes, their If-Match checks and changesets to the primary, even while the replica lags', async () => {
    const setup = postgres(primary.url);
    await createSchema(setup, model);
    await seed(setup, model, {}, conformanceData());
    await setup.close();
    const onPrimary = countingPool(primary.url);
    const onReplica = countingPool(replica.url);
    const db = postgres(onPrimary.pool);
    const replicaDb = postgres(onReplica.pool);
    const server = await serve(new SqlProvider({ model, db, replica: replicaDb }));
    const admin = new Pool({ connectionString: replica.url, max: 1 });
    try {
      // Wait until the replica has the fixture.
      let read = await json(server, 'Customers(2)');
      for (let attempt = 0; attempt < 100 && read.status !== 200; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        read = await json(server, 'Customers(2)');
      }
      expect(read.status).toBe(200);
      const primaryBefore = onPrimary.connects();
      const replicaBefore = onReplica.connects();
      expect((await json(server, 'Customers?$top=2')).status).toBe(200);
      expect(onReplica.connects()).toBe(replicaBefore + 1);
      expect(onPrimary.connects()).toBe(primaryBefore);

      // The replica stops applying changes: reads lag behind, preconditions must not.
      await admin.query('select pg_wal_replay_pause()');
      const first = await json(server, 'Customers(2)', {
        method: 'MERGE',
        headers: { 'content-type': 'application/json', 'if-match': read.etag as string },
        body: JSON.stringify({ Name: 'first' }),
      });
      expect(first.status).toBe(204);
      expect(onPrimary.connects()).toBe(primaryBefore + 1);
      // The replica still shows the old state and the old tag ...
      const stale = await json(server, 'Customers(2)');
      expect(stale.etag).toBe(read.etag);
      // ... but the old tag is 412 and the new one passes: checked on the primary.
      const refused = await json(server, 'Customers(2)', {
        method: 'MERGE',
        headers: { 'content-type': 'application/json', 'if-match': read.etag as string },
        body: JSON.stringify({ Name: 'lost' }),
      });
      expect(refused.status).toBe(412);
      const second = await json(server, 'Customers(2)', {
        method: 'MERGE',
        headers: { 'content-type': 'application/json', 'if-match': first.etag as string },
        body: JSON.stringify({ Name: 'second' }),
      });
      expect(second.status).toBe(204);
      const replicaBeforeWrites = onReplica.connects();
      // A changeset's reads and writes stay on the primary as well.
      const boundary = 'batch_1';
      const changeset = 'changeset_1';
      const body = [
        `--${boundary}`,
        `Content-Type: multipart/mixed; boundary=${changeset}`,
        '',
        `--${changeset}`,
        'Content-Type: application/http',
        'Content-Transfer-Encoding: binary',
        '',
        'MERGE Customers(2) HTTP/1.1',
        'Content-Type: application/json',
        `If-Match: ${second.etag as string}`,
        '',
        JSON.stringify({ Name: 'in a changeset' }),
        `--${changeset}--`,
        `--${boundary}--`,
        '',
      ].join('\r\n');
      const batch = await fetch(`${server.url}/odata/$batch`, { method: 'POST', headers: { 'content-type': `multipart/mixed; boundary=${boundary}` }, body });
      expect(batch.status).toBe(202);
      expect(await batch.text()).toContain('HTTP/1.1 204');
      // A POST through navigation reads its source before the INSERT (which runs alone): on the primary too.
      const viaNavigation = await fetch(`${server.url}/odata/Customers(2)/Orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ Region: 'EU', Number: '77', Placed: null, Total: '1.5' }),
      });
      expect(viaNavigation.status).toBe(201);
      expect(onReplica.connects()).toBe(replicaBeforeWrites);
      await admin.query('select pg_wal_replay_resume()');
      let caughtUp = await json(server, 'Customers(2)');
      for (let attempt = 0; attempt < 100 && entryOf(caughtUp.body).Name !== 'in a changeset'; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        caughtUp = await json(server, 'Customers(2)');
      }
      expect(entryOf(caughtUp.body).Name).toBe('in a changeset');
    } finally {
      await admin.end();
      await server.close();
      await db.close();
      await replicaDb.close();
      await onPrimary.pool.end().catch(() => undefined);
      await onReplica.pool.end().catch(() => undefined);
    }
  }, 120_000);
});
