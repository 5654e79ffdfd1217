/**
 * The SQLite engine beyond the conformance suite: the storage of each EDM type (the table of
 * docs/sql-provider.md), a database locked by another process (an asynchronous backoff that
 * leaves the event loop free, then 503 with Retry-After), SQLite's errors as the provider's
 * 4xx, the options SQLite refuses, and links kept in a view's column, written through its
 * INSTEAD OF UPDATE trigger.
 */
import express from 'express';
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { sql } from 'kysely';
import { odata } from '../../../lib';
import { defineModel } from '../../../lib/edm';
import type { Entity, QueryRequest } from '../../../lib/provider/types';
import { SqlProvider, createSchema, introspect, seed, sqlite, type SqlDatabase } from '../../../lib/sql';
import { openSqlite } from '../../../lib/sql/sqlite/connection';
import { FIXED_NOW } from '../../helpers/demo';
import { StatementLog } from '../provider/support';
import { callInProcess, inProcess } from '../../helpers/in-process';
import { startServer, type RunningServer } from '../../helpers/server';

const STORE = defineModel({
  namespace: 'Store',
  entityTypes: [
    {
      name: 'Value',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.Int64', nullable: false },
        { name: 'Flag', type: 'Edm.Boolean' },
        { name: 'Small', type: 'Edm.Byte' },
        { name: 'Amount', type: 'Edm.Decimal', precision: 30, scale: 10 },
        { name: 'Ratio', type: 'Edm.Double' },
        { name: 'At', type: 'Edm.DateTime' },
        { name: 'Stamp', type: 'Edm.DateTimeOffset' },
        { name: 'Clock', type: 'Edm.Time' },
        { name: 'Token', type: 'Edm.Guid' },
        { name: 'Bytes', type: 'Edm.Binary' },
        { name: 'Name', type: 'Edm.String', nullable: false },
      ],
    },
  ],
  entityContainers: [{ name: 'S', isDefaultEntityContainer: true, entitySets: [{ name: 'Values', entityType: 'Store.Value' }] }],
});

const folder = mkdtempSync(join(tmpdir(), 'odata-sqlite-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function serve(db: SqlDatabase): Promise<RunningServer> {
  const app = express();
  app.use('/odata', odata({ model: STORE, provider: new SqlProvider({ model: STORE, db }), now: () => FIXED_NOW }));
  return startServer(app);
}

async function post(server: RunningServer, body: Record<string, unknown>): Promise<{ status: number; retryAfter: string | null; body: unknown }> {
  const response = await fetch(`${server.url}/odata/Values`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() };
}

describe('storage: each EDM type in the SQLite storage class the docs list', () => {
  let db: SqlDatabase;
  let server: RunningServer;

  beforeAll(async () => {
    db = sqlite(':memory:');
    await createSchema(db, STORE);
    server = await serve(db);
  });
  afterAll(async () => {
    await server.close();
    await db.close();
  });

  it('writes fixed-width UTC text for timestamps, canonical text for decimals, integers for Int64 and Boolean, lower-case text for a Guid, a blob for Binary', async () => {
    const created = await post(server, {
      ID: '9007199254740993',
      Flag: true,
      Small: 7,
      Amount: '12345678901234567890.1234567890',
      Ratio: 0.5,
      At: '/Date(946782245123)/',
      Stamp: '/Date(946782245123+0120)/',
      Clock: 'PT13H5M',
      Token: '01234567-89AB-CDEF-0123-456789ABCDEF',
      Bytes: 'AAH/',
      Name: 'Zoë',
    });
    expect(created.status).toBe(201);
    const { rows } = await sql<Record<string, unknown>>`select
        typeof("ID") as id_class, "ID" as id, typeof("Flag") as flag_class, "Flag" as flag, typeof("Amount") as amount_class, "Amount" as amount,
        typeof("At") as at_class, "At" as at, "Stamp" as stamp, "Clock" as clock, "Token" as token, typeof("Bytes") as bytes_class, "Ratio" as ratio
      from "Values"`.execute(db.kysely);
    expect(rows).toEqual([
      {
        id_class: 'integer',
        id: 9007199254740993n,
        flag_class: 'integer',
        flag: 1n,
        amount_class: 'text',
        amount: '12345678901234567890.123456789',
        at_class: 'text',
        at: '2000-01-02 03:04:05.123',
        stamp: '2000-01-02 03:04:05.123',
        clock: '13:05:00.000',
        token: '01234567-89ab-cdef-0123-456789abcdef',
        bytes_class: 'blob',
        ratio: 0.5,
      },
    ]);
    const read = await fetch(`${server.url}/odata/Values(9007199254740993L)?$format=json`);
    expect(((await read.json()) as { d: Record<string, unknown> }).d).toMatchObject({
      ID: '9007199254740993',
      Flag: true,
      Amount: '12345678901234567890.123456789',
      At: '/Date(946782245123)/',
      Stamp: '/Date(946782245123+0000)/',
      Clock: 'PT13H5M',
      Bytes: 'AAH/',
      Name: 'Zoë',
    });
  });

  it.each([
    [{ ID: '1', Name: 'x', Small: 256 }, 400],
    [{ ID: '2', Name: null }, 400],
    [{ ID: '3', Name: '\ud800' }, 400],
  ])('a value SQLite cannot take, %j: %i with an OData error', async (body, status) => {
    const answer = await post(server, body);
    expect([answer.status, typeof (answer.body as { error?: { code?: unknown } }).error?.code]).toEqual([status, 'string']);
  });

  it('a taken key: 409 ENTITY_EXISTS, from the driver’s unique violation', async () => {
    expect((await post(server, { ID: '10', Name: 'a' })).status).toBe(201);
    const taken = await post(server, { ID: '10', Name: 'b' });
    expect([taken.status, (taken.body as { error: { code: string } }).error.code]).toEqual([409, 'ENTITY_EXISTS']);
  });
});

describe('a POST, PUT or MERGE on SQLite is one statement: the written row comes back from its own RETURNING list', () => {
  const log = new StatementLog();
  let db: SqlDatabase;
  let server: RunningServer;

  beforeAll(async () => {
    db = sqlite(':memory:');
    await createSchema(db, STORE);
    server = await serve({ ...db, kysely: db.kysely.withPlugin(log) });
  });
  afterAll(async () => {
    await server.close();
    await db.close();
  });

  async function send(method: string, path: string, body: Record<string, unknown>): Promise<{ status: number; statements: string[]; answer: string }> {
    log.statements = [];
    const response = await fetch(`${server.url}/odata/${path}`, {
      method,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, statements: log.statements, answer: await response.text() };
  }

  it('POST: one INSERT, and the answer is the row as stored (the time at milliseconds, the decimal canonical)', async () => {
    const answer = await send('POST', 'Values', { ID: '41', Name: 'new', Amount: '1.50', At: '/Date(946782245123)/' });
    expect({ status: answer.status, statements: answer.statements }).toEqual({ status: 201, statements: ['insert into'] });
    expect(JSON.parse(answer.answer)).toMatchObject({ d: { ID: '41', Name: 'new', Amount: '1.5', At: '/Date(946782245123)/', Flag: null } });
  });

  it.each([
    ['PUT', { ID: '41', Name: 'replaced', Flag: true }],
    ['MERGE', { Token: '01234567-89AB-CDEF-0123-456789ABCDEF' }],
  ])('%s: one UPDATE', async (method, body) => {
    expect(await send(method, 'Values(41L)', body)).toEqual({ status: 204, statements: ['update'], answer: '' });
  });
});

describe('paging on SQLite', () => {
  it('$skip without $top and without an order (SQLite takes no OFFSET without a LIMIT: `limit -1` stands for none)', async () => {
    const db = sqlite(':memory:');
    try {
      await createSchema(db, STORE);
      await seed(db, STORE, {}, { Values: ['1', '2', '3'].map((ID) => ({ ID, Name: `n${ID}` })) });
      const entitySet = STORE.defaultContainer.entitySets[0];
      // A request as a provider may get it (MemoryProvider's contract): no order at all, so no keyset position.
      const request: QueryRequest = {
        entitySet,
        entityType: entitySet.entityType,
        path: { root: { entitySet, key: undefined }, navigation: [] },
        single: false,
        filter: undefined,
        orderBy: [],
        skip: 1,
        top: undefined,
        skipToken: undefined,
        selectExpand: { select: undefined, expand: [] },
        count: false,
        customOptions: {},
      };
      const result = await new SqlProvider({ model: STORE, db }).query(request, { request: {} as never, state: new Map() });
      expect((result.entities as readonly Entity[]).map((entity) => entity.ID)).toEqual(['2', '3']);
    } finally {
      await db.close();
    }
  });
});

describe('a database another connection holds locked', () => {
  afterEach(() => jest.useRealTimers());

  it('waits in asynchronous pauses, then 503 with Retry-After saying the database is locked; works again once the lock is gone', async () => {
    const file = join(folder, 'locked.sqlite');
    const db = sqlite(file, { busyTimeoutMs: 5_000, retryAfterSeconds: 3 });
    await createSchema(db, STORE);
    const service = inProcess({ model: STORE, provider: new SqlProvider({ model: STORE, db }), now: () => FIXED_NOW });
    const create = (id: string) =>
      callInProcess(service, 'POST', 'Values', {
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ ID: id, Name: 'a' }),
      });
    const other = openSqlite(file);
    try {
      other.prepare('begin immediate').run();
      // Only the backoff's timers are faked: the statement is tried again as the clock moves on.
      jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
      let answer: Awaited<ReturnType<typeof create>> | undefined;
      const pending = create('1').then((settled) => (answer = settled));
      await jest.advanceTimersByTimeAsync(4_000);
      // Still waiting for the lock, and the event loop was free meanwhile (the clock moved on).
      expect(answer).toBeUndefined();
      await jest.advanceTimersByTimeAsync(2_000);
      await pending;
      jest.useRealTimers();
      expect({ status: answer?.status, retryAfter: answer?.headers['retry-after'], body: JSON.parse(String(answer?.body)) as unknown }).toEqual({
        status: 503,
        retryAfter: '3',
        body: {
          error: {
            code: 'SERVICE_UNAVAILABLE',
            message: { lang: 'en-US', value: 'The service is temporarily unavailable: the database is locked by another connection (busy). Retry later.' },
          },
        },
      });
      other.prepare('rollback').run();
      expect((await create('1')).status).toBe(201);
    } finally {
      jest.useRealTimers();
      other.close();
      await db.close();
    }
  });
});

describe('what SQLite refuses, with a clear error', () => {
  const db = sqlite(':memory:');
  afterAll(() => db.close());

  it('statementTimeoutMs (SQLite cannot bound a statement)', () => {
    expect(() => new SqlProvider({ model: STORE, db, statementTimeoutMs: 100 })).toThrow(
      "SqlProvider option 'statementTimeoutMs' needs an engine that bounds a statement's time; SQLite cannot.",
    );
  });

  it('a per-request database session (SQLite has no roles and no transaction-local settings)', () => {
    expect(() => new SqlProvider({ model: STORE, db, session: () => ({ role: 'reader' }) })).toThrow(
      "SqlProvider option 'session' needs roles and transaction-local settings, which SQLite does not have.",
    );
  });

  it("a mapping with etag: 'xmin' (SQLite has no row version), and introspect's etag 'xmin'", async () => {
    expect(() => new SqlProvider({ model: STORE, db, mapping: { entitySets: { Values: { etag: 'xmin' } } } })).toThrow(
      "SqlProvider: the mapping gives 'Values' etag: 'xmin', PostgreSQL's row version, which SQLite does not have; map a version column instead.",
    );
    await createSchema(db, STORE);
    await expect(introspect(db, { etag: 'xmin' })).rejects.toThrow(
      "introspect: SQLite has no row version (etag 'xmin'); name version columns (versionColumns) or use etag 'none'.",
    );
    // By default no set gets the row version: the introspected model is served as it is.
    const { model, mapping } = await introspect(db);
    expect(Object.values(mapping.entitySets).map((set) => set.etag)).toEqual([undefined]);
    expect(() => new SqlProvider({ model, db, mapping })).not.toThrow();
  });

  it('a mapping into a named schema', async () => {
    await expect(createSchema(db, STORE, { schema: 'shop' })).rejects.toThrow("SQLite has no schemas; the mapping names 'shop'.");
  });

  it('a busyTimeoutMs that is not a non-negative integer', () => {
    expect(() => sqlite(':memory:', { busyTimeoutMs: -1 })).toThrow('busyTimeoutMs must be a non-negative integer, got -1.');
  });

  it('seed writes the rows, and the generated key continues after them', async () => {
    const counters = defineModel({
      namespace: 'C',
      entityTypes: [
        {
          name: 'Counter',
          key: ['ID'],
          properties: [
            { name: 'ID', type: 'Edm.Int32', nullable: false },
            { name: 'N', type: 'Edm.Int32' },
          ],
        },
      ],
      entityContainers: [{ name: 'C', isDefaultEntityContainer: true, entitySets: [{ name: 'Counters', entityType: 'C.Counter' }] }],
    });
    const own = sqlite(':memory:');
    try {
      await createSchema(own, counters);
      await seed(own, counters, {}, { Counters: [{ ID: 5, N: 1 }] });
      const provider = new SqlProvider({ model: counters, db: own });
      const app = express();
      app.use('/odata', odata({ model: counters, provider, now: () => FIXED_NOW }));
      const server = await startServer(app);
      try {
        const response = await fetch(`${server.url}/odata/Counters`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ N: 2 }),
        });
        expect([response.status, ((await response.json()) as { d: { ID: number } }).d.ID]).toEqual([201, 6]);
      } finally {
        await server.close();
      }
    } finally {
      await own.close();
    }
  });
});

describe('a view that holds a foreign key, written through its INSTEAD OF UPDATE trigger', () => {
  // Tasks is a view over task_rows; its Owner link is the view's Owner_ID column (the conventional name).
  const TASKS = defineModel({
    namespace: 'T',
    entityTypes: [
      {
        name: 'Task',
        key: ['ID'],
        properties: [
          { name: 'ID', type: 'Edm.Int32', nullable: false },
          { name: 'Title', type: 'Edm.String' },
        ],
        navigationProperties: [{ name: 'Owner', relationship: 'T.Task_Owner', fromRole: 'Tasks', toRole: 'Owner' }],
      },
      { name: 'Person', key: ['ID'], properties: [{ name: 'ID', type: 'Edm.Int32', nullable: false }] },
    ],
    associations: [
      {
        name: 'Task_Owner',
        ends: [
          { role: 'Owner', type: 'T.Person', multiplicity: '0..1' },
          { role: 'Tasks', type: 'T.Task', multiplicity: '*' },
        ],
      },
    ],
    entityContainers: [
      {
        name: 'T',
        isDefaultEntityContainer: true,
        entitySets: [
          { name: 'Tasks', entityType: 'T.Task' },
          { name: 'People', entityType: 'T.Person' },
        ],
        associationSets: [
          {
            name: 'Task_Owner',
            association: 'T.Task_Owner',
            ends: [
              { role: 'Owner', entitySet: 'People' },
              { role: 'Tasks', entitySet: 'Tasks' },
            ],
          },
        ],
      },
    ],
  });
  const SCHEMA = [
    'create table "People" ("ID" integer primary key)',
    'create table task_rows (id integer primary key, title text, owner integer references "People")',
    'create view "Tasks" as select id as "ID", title as "Title", owner as "Owner_ID" from task_rows',
    `create trigger tasks_update instead of update on "Tasks"
       begin update task_rows set title = new."Title", owner = new."Owner_ID" where id = old."ID"; end`,
    'insert into "People" values (1), (2)',
    "insert into task_rows values (1, 'write', 1)",
  ];
  let db: SqlDatabase;
  let service: ReturnType<typeof inProcess>;

  beforeAll(async () => {
    db = sqlite(':memory:');
    for (const statement of SCHEMA) await sql.raw(statement).execute(db.kysely);
    service = inProcess({ model: TASKS, provider: new SqlProvider({ model: TASKS, db, mapping: { entitySets: { Tasks: { insert: 'checked' } } } }) });
  });
  afterAll(() => db.close());

  const owner = async (): Promise<number | null> => {
    const { rows } = await sql<{ owner: bigint | null }>`select owner from task_rows where id = 1`.execute(db.kysely);
    const value = rows[0]?.owner ?? null;
    return value === null ? null : Number(value);
  };
  const send = async (method: string, path: string, body?: unknown): Promise<{ status: number; code?: string }> => {
    const answer = await callInProcess(service, method, path, {
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = String(answer.body);
    return text === '' ? { status: answer.status } : { status: answer.status, code: (JSON.parse(text) as { error?: { code: string } }).error?.code };
  };

  it('links and unlinks through the trigger (SQLite counts no row a trigger changes: the statement returns the rows it matched), and 404 for a missing task', async () => {
    expect(await send('PUT', 'Tasks(1)/$links/Owner', { uri: 'People(2)' })).toEqual({ status: 204 });
    expect(await owner()).toBe(2);
    expect(await send('PUT', 'Tasks(9)/$links/Owner', { uri: 'People(2)' })).toEqual({ status: 404, code: 'ENTITY_NOT_FOUND' });
    expect(await send('DELETE', 'Tasks(1)/$links/Owner')).toEqual({ status: 204 });
    expect(await owner()).toBeNull();
    // A MERGE that sets the link sets the view's column in its own UPDATE.
    expect(await send('MERGE', 'Tasks(1)', { Title: 'review', Owner: { __metadata: { uri: 'People(1)' } } })).toEqual({ status: 204 });
    expect(await owner()).toBe(1);
  });
});
