/**
 * The schema of write-schema.ts on a PostgreSQL server (`npm run test:postgres`): introspection
 * decides the same insert modes and ETags as on PGlite, POST works on every creatable set, a
 * taken key on a set without ON CONFLICT is its changeset's 409 (ENTITY_EXISTS; CONSTRAINT_VIOLATION
 * when another transaction commits the key between the check and the insert) and the batch goes on,
 * fifty concurrent writers with one row-version ETag (xmin) get one 204 and 49 412, and a role
 * without INSERT, logged in as itself, gets 403 FORBIDDEN (PGlite only knows its superuser's
 * session, where write-schema.spec.ts switches roles with SET ROLE instead).
 */
import express from 'express';
import { Client } from 'pg';
import { odata } from '../../../lib';
import { introspect, postgres, SqlProvider, type IntrospectionResult, type SqlDatabase } from '../../../lib/sql';
import { batchBody, changeset, jsonOf, operation, readBatchResponse, send as sendHttp, single, statuses, type BatchPart } from '../../helpers/batch-http';
import { createTestDatabase } from '../../helpers/postgres-database';
import { startServer, type RunningServer } from '../../helpers/server';
import { WRITE_SCHEMA_KEYS, writeSchemaSql } from './write-schema';

const SCHEMA = 'real';
// Roles belong to the whole server: one of its own per run.
const ROLE = `real_no_insert_${process.pid}`;

let database: { url: string; drop: () => Promise<void> };
let db: SqlDatabase;
let result: IntrospectionResult;
let server: RunningServer;

async function run(url: string, statement: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function serve(on: SqlDatabase): Promise<RunningServer> {
  const { model, mapping } = result;
  const app = express();
  app.use('/odata', odata({ model, provider: new SqlProvider({ model, db: on, mapping }), logger: () => undefined }));
  return startServer(app);
}

beforeAll(async () => {
  database = await createTestDatabase();
  await run(database.url, writeSchemaSql(SCHEMA, ROLE));
  db = postgres(database.url);
  result = await introspect(db, { schemas: [SCHEMA], keys: WRITE_SCHEMA_KEYS });
  server = await serve(db);
}, 60_000);

afterAll(async () => {
  await server.close();
  await db.close();
  await database.drop();
  await run(new URL('/postgres', database.url).toString(), `drop role if exists "${ROLE}"`);
});

function setOf(table: string): string {
  const found = Object.entries(result.mapping.entitySets).find(([, mapping]) => mapping.table === table);
  if (found === undefined) throw new Error(`no entity set for the table ${table}`);
  return found[0];
}

function body(table: string, columns: Record<string, unknown>): Record<string, unknown> {
  const names = result.mapping.entitySets[setOf(table)].columns;
  return Object.fromEntries(
    Object.entries(columns).map(([column, value]) => [Object.keys(names).find((property) => names[property] === column) ?? column, value]),
  );
}

async function send(
  on: RunningServer,
  method: string,
  path: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; etag: string | null; text: string }> {
  const response = await fetch(`${on.url}/odata/${path}`, {
    method,
    headers: { accept: 'application/json', ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  return { status: response.status, etag: response.headers.get('etag'), text: await response.text() };
}

it('decides the insert mode and the ETag of each set as on PGlite', () => {
  const tables = ['gadgets', 'readings', 'events', 'person_names', 'adults', 'notes', 'archive', 'orders'];
  expect(
    Object.fromEntries(tables.map((table) => [table, [result.mapping.entitySets[setOf(table)].insert, result.mapping.entitySets[setOf(table)].etag]])),
  ).toEqual({
    gadgets: [undefined, 'xmin'],
    readings: ['checked', 'xmin'],
    events: [undefined, 'xmin'],
    person_names: ['checked', undefined],
    adults: ['checked', undefined],
    notes: ['readBack', 'xmin'],
    archive: ['readBack', 'xmin'],
    orders: [undefined, 'xmin'],
  });
  expect(result.warnings.filter((warning) => warning.code === 'TABLE_NOT_CREATABLE').map((warning) => warning.target)).toEqual([`${SCHEMA}.tickets`]);
});

it.each([
  ['gadgets', { id: 60, mood: 'happy', sizes: '{1,2}', settings: '{"a":1}', address: '10.0.0.1', during: '[1,3)', amount: 2 }],
  ['readings', { id: 2, region: 'us', value: '2.5' }],
  ['events', { id: 1, day: '/Date(1704067200000)/', name: 'new year' }],
  ['person_names', { id: 2, full_name: 'Grace Hopper' }],
  ['adults', { id: 101, first_name: 'Barbara', last_name: 'Liskov' }],
  ['notes', { id: 1, body: 'logged' }],
  ['archive', { id: 1, body: 'routed' }],
])('POST %s creates the entry; the same key again is 409 ENTITY_EXISTS', async (table, columns) => {
  expect((await send(server, 'POST', setOf(table), body(table, columns))).status).toBe(201);
  const again = await send(server, 'POST', setOf(table), body(table, columns));
  expect(again.status).toBe(409);
  expect(again.text).toContain('ENTITY_EXISTS');
});

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** A $batch of `parts` to `server`, its parts answered. */
async function batch(parts: readonly BatchPart[]): Promise<ReturnType<typeof readBatchResponse>> {
  const boundary = 'batch';
  return readBatchResponse(
    await sendHttp(`${server.url}/odata/$batch`, 'POST', { 'content-type': `multipart/mixed; boundary=${boundary}` }, batchBody(parts, { boundary })),
  );
}

/** POST of `columns` to `table`'s set, as a batch operation. */
function post(table: string, columns: Readonly<Record<string, unknown>>, contentId: string): BatchPart {
  return operation('POST', setOf(table), { headers: JSON_HEADERS, body: JSON.stringify(body(table, columns)), contentId });
}

/** The rows of the tables the checked sets write (a view's rows live in its base table). */
async function stored(): Promise<unknown[]> {
  const client = new Client({ connectionString: database.url });
  await client.connect();
  try {
    return await Promise.all(['readings', 'people'].map(async (table) => (await client.query(`select * from ${SCHEMA}.${table} order by 1, 2`)).rows));
  } finally {
    await client.end();
  }
}

describe('a taken key on a checked set inside a changeset', () => {
  // readings: partitioned, keyed only on its partitions; person_names: a view with INSTEAD OF triggers.
  it.each([
    ['readings', { id: 1, region: 'eu', value: '9' }, { id: 20, region: 'eu', value: '3' }],
    ['person_names', { id: 1, full_name: 'Ada Byron' }, { id: 20, full_name: 'Edsger Dijkstra' }],
  ])('%s: that request is 409 ENTITY_EXISTS, the changeset rolls back, the batch goes on', async (table, taken, fresh) => {
    const before = await stored();
    const parts = await batch([changeset('cs', post(table, fresh, '1'), post(table, taken, '2')), operation('GET', `${setOf(table)}/$count`)]);
    expect(statuses(parts)).toEqual([409, 200]);
    expect([single(parts, 0).mime['Content-ID'], (jsonOf(single(parts, 0)) as { error: { code: string } }).error.code]).toEqual(['2', 'ENTITY_EXISTS']);
    expect(await stored()).toEqual(before);
  });

  it.each([
    ['readings', { id: 40, region: 'eu', value: '4' }, `insert into ${SCHEMA}.readings values (40, 'eu', 7)`, 'readings'],
    ['person_names', { id: 40, full_name: 'Niklaus Wirth' }, `insert into ${SCHEMA}.people values (40, 'Tony', 'Hoare')`, 'people'],
  ])(
    '%s: a key another transaction commits between the check and the insert is 409 CONSTRAINT_VIOLATION (the unique violation aborted the transaction, which rolls back); the batch goes on',
    async (table, columns, rival, holder) => {
      const other = new Client({ connectionString: database.url });
      await other.connect();
      try {
        await other.query('begin');
        await other.query(rival);
        const answered = batch([
          changeset('cs', post(table, { ...columns, id: 41 }, '1'), post(table, columns, '2')),
          operation('GET', `${setOf(table)}/$count`),
        ]);
        // The changeset's INSERT saw no row with the key and now waits for the rival's to commit or roll back.
        for (;;) {
          const waiting = await other.query<{ n: number }>(
            'select count(*)::int as n from pg_stat_activity where pg_backend_pid() = any(pg_blocking_pids(pid))',
          );
          if (waiting.rows[0].n > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        await other.query('commit');
        const parts = await answered;
        expect(statuses(parts)).toEqual([409, 200]);
        expect(single(parts, 0).mime['Content-ID']).toBe('2');
        const value = `The write would repeat a value that must be unique in '${setOf(holder)}'.`;
        expect(jsonOf(single(parts, 0))).toEqual({ error: { code: 'CONSTRAINT_VIOLATION', message: { lang: 'en-US', value } } });
        // The rival's row, and nothing of the changeset.
        expect((await other.query(`select id from ${SCHEMA}.${holder} where id in (40, 41) order by id`)).rows).toEqual([{ id: 40 }]);
      } finally {
        await other.end();
      }
    },
  );
});

it('50 concurrent If-Match writers with one row version: exactly one 204, the rest 412, the final state the winner’s', async () => {
  const path = `${setOf('gadgets')}(1)`;
  const before = await send(server, 'GET', path);
  expect(before.etag).toMatch(/^W\/"\d+"$/);
  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      send(server, 'MERGE', path, body('gadgets', { name: `w${i}` }), { 'if-match': before.etag ?? '' }).then((answer) => ({ i, ...answer })),
    ),
  );
  const winners = answers.filter((answer) => answer.status === 204);
  expect(winners).toHaveLength(1);
  expect(answers.filter((answer) => answer.status === 412)).toHaveLength(49);
  const after = await send(server, 'GET', path);
  expect(after.text).toContain(`"w${winners[0].i}"`);
  expect(after.etag).toBe(winners[0].etag);
  expect(after.etag).not.toBe(before.etag);
});

it('answers 403 FORBIDDEN to a role that may not insert, and lets it update what it may', async () => {
  const url = new URL(database.url);
  url.username = ROLE;
  const restricted = postgres(url.toString());
  const asRole = await serve(restricted);
  try {
    const refused = await send(asRole, 'POST', setOf('gadgets'), body('gadgets', { id: 80 }));
    expect(refused.status).toBe(403);
    expect(refused.text).toContain(`The database does not allow this user to create entries in '${setOf('gadgets')}'.`);
    expect(refused.text).not.toMatch(/permission denied|real\.gadgets/);
    expect((await send(asRole, 'MERGE', `${setOf('gadgets')}(1)`, body('gadgets', { made: '/Date(0)/' }))).status).toBe(204);
  } finally {
    await asRole.close();
    await restricted.close();
  }
});
