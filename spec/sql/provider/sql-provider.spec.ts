/**
 * SqlProvider beyond the differentials (what MemoryProvider's data cannot hold, and what only a
 * database does): derived entity types in one table with a discriminator (`isof`, `cast`, their
 * properties only on their rows, also through the evaluator), media resources from the side table,
 * `$select` reading only what is needed, no free connection as 503 with Retry-After, a database
 * error masked as 500, and a streamed read's snapshot ended when its reader stops or goes idle.
 */
import express from 'express';
import { sql, type KyselyPlugin } from 'kysely';
import type { PGlite } from '@electric-sql/pglite';
import { odata } from '../../../lib';
import type { ServiceLogEvent } from '../../../lib/options';
import { defineModel } from '../../../lib/edm';
import type { Entity, QueryRequest } from '../../../lib/provider/types';
import { withKeyTieBreaker } from '../../../lib/uri';
import { checkExpression, checkFilter, parseExpression } from '../../../lib/uri/expr';
import { SqlAcquireTimeoutError, SqlProvider, createSchema } from '../../../lib/sql';
import type { SqlDatabase } from '../../../lib/sql/database';
import { pglite } from '../../../lib/sql/postgres/pglite';
import { FIXED_NOW } from '../../helpers/demo';
import { openTestPGlite } from '../../helpers/pglite';
import { startServer, type RunningServer } from '../../helpers/server';
import { CATALOG, catalogData } from './catalog';
import { get, loadDatabase } from './support';

const ZOO = defineModel({
  namespace: 'Zoo',
  entityTypes: [
    {
      name: 'Animal',
      key: ['ID'],
      openType: true,
      properties: [
        { name: 'ID', type: 'Edm.Int32', nullable: false },
        { name: 'Name', type: 'Edm.String' },
      ],
    },
    { name: 'Cat', baseType: 'Zoo.Animal', properties: [{ name: 'Lives', type: 'Edm.Int32', nullable: false }] },
    { name: 'Lion', baseType: 'Zoo.Cat', properties: [{ name: 'Mane', type: 'Edm.String' }] },
  ],
  entityContainers: [{ name: 'Z', isDefaultEntityContainer: true, entitySets: [{ name: 'Animals', entityType: 'Zoo.Animal' }] }],
});

let instance: PGlite;
let db: SqlDatabase;
const logged: ServiceLogEvent[] = [];

function serve(model: typeof ZOO, provider: SqlProvider): Promise<RunningServer> {
  const app = express();
  app.use('/odata', odata({ model, provider, now: () => FIXED_NOW, logger: (event) => logged.push(event) }));
  return startServer(app);
}

async function json(server: RunningServer, path: string): Promise<{ status: number; body: unknown }> {
  const answer = await get(server, path);
  return { status: answer.status, body: JSON.parse(answer.body) as unknown };
}

function ids(body: unknown): unknown[] {
  return (body as { d: { results: { ID: unknown }[] } }).d.results.map((entity) => entity.ID);
}

function request(model: typeof ZOO, setName: string, options: { filter?: string; orderBy?: string; select?: string[]; top?: number } = {}): QueryRequest {
  const entitySet = model.entitySets.get(setName);
  if (entitySet === undefined) throw new Error(setName);
  const type = entitySet.entityType;
  const orderBy =
    options.orderBy === undefined ? [] : [{ expression: checkExpression(parseExpression(options.orderBy), type, model), direction: 'asc' as const }];
  return {
    entitySet,
    entityType: type,
    path: { root: { entitySet, key: undefined }, navigation: [] },
    single: false,
    filter: options.filter === undefined ? undefined : checkFilter(parseExpression(options.filter), type, model),
    orderBy: withKeyTieBreaker(orderBy, type),
    skip: undefined,
    top: options.top,
    skipToken: undefined,
    selectExpand: {
      select: options.select === undefined ? undefined : { allProperties: false, properties: new Set(options.select), navigationProperties: new Set() },
      expand: [],
    },
    count: false,
    customOptions: {},
  };
}

const context = { request: {} as never, state: new Map<string | symbol, unknown>() };

beforeAll(async () => {
  instance = await openTestPGlite();
  db = pglite(instance);
  await createSchema(db, ZOO);
  await sql`insert into "Animals" ("ID", "Name", "Lives", "Mane", "$type", "$dynamic") values
    (1, 'Rex', null, null, 'Zoo.Animal', '{"Color": "brown"}'), (2, 'Tom', 9, null, 'Zoo.Cat', '{"Color": "black"}'),
    (3, 'Leo', 7, 'golden', 'Zoo.Lion', null), (4, 'Kit', 1, null, 'Zoo.Cat', '{"Color": "white"}')`.execute(db.kysely);
  await loadDatabase(db, CATALOG, catalogData(), undefined, { schema: 'catalog' });
  await sql`insert into catalog."Photos_media" ("ID", "ContentType", "Body") values (1, 'image/png', '\\x89504e47')`.execute(db.kysely);
}, 60_000);
afterAll(() => instance.close());

describe('derived entity types: one table, a discriminator', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serve(ZOO, new SqlProvider({ model: ZOO, db }));
  });
  afterAll(() => server.close());

  it.each([
    ["isof('Zoo.Cat')", [2, 3, 4]],
    ["isof('Zoo.Lion')", [3]],
    ["not isof('Zoo.Cat')", [1]],
    ["cast('Zoo.Cat')/Lives gt 5", [2, 3]],
    ["cast('Zoo.Lion')/Mane eq 'golden'", [3]],
    // The whole filter goes to the evaluator (a dynamic property), which learns each row's type from the discriminator.
    ["isof('Zoo.Lion') or Color eq 'white'", [3, 4]],
    ["cast('Zoo.Cat')/Lives lt 5 or Color eq 'brown'", [1, 4]],
  ])('$filter=%s', async (filter, expected) => {
    const { status, body } = await json(server, `Animals?$format=json&$filter=${encodeURIComponent(filter)}`);
    expect([status, ids(body)]).toEqual([200, expected]);
  });

  it('an entity has its own type’s properties only, and its dynamic ones', async () => {
    const provider = new SqlProvider({ model: ZOO, db });
    const result = await provider.query(request(ZOO, 'Animals'), context);
    expect(result.entities).toEqual([
      { ID: 1, Name: 'Rex', Color: 'brown' },
      { ID: 2, Name: 'Tom', Lives: 9, Color: 'black' },
      { ID: 3, Name: 'Leo', Lives: 7, Mane: 'golden' },
      { ID: 4, Name: 'Kit', Lives: 1, Color: 'white' },
    ]);
  });
});

describe('media resources from the side table', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serve(CATALOG, new SqlProvider({ model: CATALOG, db, mapping: { schema: 'catalog' } }));
  });
  afterAll(() => server.close());

  it('$value: the bytes and their type; 404 for a missing entry and for an entry without media', async () => {
    const response = await fetch(`${server.url}/odata/Photos(1)/$value`);
    expect([response.status, response.headers.get('content-type'), [...new Uint8Array(await response.arrayBuffer())]]).toEqual([
      200,
      'image/png',
      [0x89, 0x50, 0x4e, 0x47],
    ]);
    for (const [path, code] of [
      ['Photos(2)/$value', 'RESOURCE_NOT_FOUND'],
      ['Photos(9)/$value', 'ENTITY_NOT_FOUND'],
    ]) {
      const answer = await get(server, path, 'application/json');
      expect({ path, status: answer.status, body: JSON.parse(answer.body) as unknown }).toMatchObject({ path, status: 404, body: { error: { code } } });
    }
  });

  it('the feed tells each entry’s media type', async () => {
    const { body } = await json(server, 'Photos?$format=json&$top=2');
    const types = (body as { d: { results: { __metadata: { content_type: string } }[] } }).d.results.map((entry) => entry.__metadata.content_type);
    expect(types).toEqual(['application/octet-stream', 'image/png']);
  });
});

describe('$select reads what is needed', () => {
  it('the selected properties, the key, concurrency tokens and what $orderby reads; nothing else', async () => {
    const provider = new SqlProvider({ model: CATALOG, db, mapping: { schema: 'catalog' } });
    const result = await provider.query(request(CATALOG, 'Products', { select: ['Name'], orderBy: 'Weight', top: 1 }), context);
    expect((result.entities as readonly Entity[]).map((entity) => Object.keys(entity).sort())).toEqual([['ID', 'Name', 'Version', 'Weight']]);
  });
});

describe('failures', () => {
  it('no connection within the wait: 503 with Retry-After', async () => {
    const waiting = pglite(instance, { acquireTimeoutMs: 100, retryAfterSeconds: 7 });
    const server = await serve(ZOO, new SqlProvider({ model: ZOO, db: waiting }));
    // PGlite is one session: a transaction holds it, and every other statement waits its turn.
    const holder = await waiting.kysely.startTransaction().execute();
    try {
      const response = await fetch(`${server.url}/odata/Animals?$format=json`);
      expect([response.status, response.headers.get('retry-after'), ((await response.json()) as { error: { code: string } }).error.code]).toEqual([
        503,
        '7',
        'SERVICE_UNAVAILABLE',
      ]);
    } finally {
      await holder.rollback().execute();
      await server.close();
    }
  });

  it('a serialization failure (40001) is retried, up to three attempts, then 503 TRANSACTION_CONFLICT', async () => {
    let failures = 0;
    const flaky = (times: number): KyselyPlugin => ({
      transformQuery(args) {
        if (failures < times) {
          failures++;
          throw Object.assign(new Error('could not serialize access'), { code: '40001' });
        }
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const provider = new SqlProvider({ model: ZOO, db: { ...db, kysely: db.kysely.withPlugin(flaky(2)) } });
    expect((await provider.query(request(ZOO, 'Animals', { top: 1 }), context)).entities).toHaveLength(1);
    expect(failures).toBe(2);
    failures = 0;
    const hopeless = new SqlProvider({ model: ZOO, db: { ...db, kysely: db.kysely.withPlugin(flaky(3)) } });
    await expect(hopeless.query(request(ZOO, 'Animals', { top: 1 }), context)).rejects.toMatchObject({
      code: 'TRANSACTION_CONFLICT',
      status: 503,
      headers: { 'retry-after': '1' },
      cause: { code: '40001' },
    });
    expect(failures).toBe(3);
  });

  it('a database error is a 500 without its message; the logger gets it', async () => {
    const server = await serve(CATALOG, new SqlProvider({ model: CATALOG, db, mapping: { schema: 'catalog', entitySets: { Tags: { table: 'missing' } } } }));
    try {
      logged.length = 0;
      const answer = await get(server, 'Tags?$format=json');
      expect([answer.status, answer.body]).toEqual([500, '{"error":{"code":"INTERNAL","message":{"lang":"en-US","value":"An internal error occurred."}}}']);
      expect(JSON.stringify(logged.map((event) => String((event as { error?: unknown }).error)))).toContain('relation \\"catalog.missing\\" does not exist');
    } finally {
      await server.close();
    }
  });
});

describe('a streamed read in one snapshot', () => {
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  const products = (provider: SqlProvider): Promise<AsyncIterator<Entity>> =>
    provider.query(request(CATALOG, 'Products'), context).then((result) => (result.entities as AsyncIterable<Entity>)[Symbol.asyncIterator]());

  it('holds PGlite’s session while the feed is read, and ends its transaction when the reader stops early', async () => {
    const held = pglite(instance, { acquireTimeoutMs: 200 });
    const provider = new SqlProvider({ model: CATALOG, db: held, mapping: { schema: 'catalog' }, chunkSize: 5, streamSnapshot: true });
    const iterator = await products(provider);
    expect((await iterator.next()).value).toMatchObject({ ID: 0 });
    await expect(sql`select 1 as one`.execute(held.kysely)).rejects.toBeInstanceOf(SqlAcquireTimeoutError);
    await iterator.return?.();
    await expect(sql`select 1 as one`.execute(held.kysely)).resolves.toMatchObject({ rows: [{ one: 1 }] });
  });

  it('frees PGlite’s session when the reader stays away past the idle limit, not before; reading on then fails', async () => {
    // jest's fake clock drives the idle check (its interval timer and Date.now()); PGlite runs
    // outside the sandbox, on the real one. The statement waiting for the session is seen when
    // PGlite receives it.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const received: string[] = [];
    const query = instance.query.bind(instance);
    jest.spyOn(instance, 'query').mockImplementation((text, ...rest) => {
      if (text.includes('waiting for the session')) received.push(text);
      return query(text, ...rest);
    });
    const held = pglite(instance, { acquireTimeoutMs: 5000 });
    const provider = new SqlProvider({
      model: CATALOG,
      db: held,
      mapping: { schema: 'catalog' },
      chunkSize: 5,
      streamSnapshot: true,
      streamIdleTimeoutMs: 100,
    });
    const iterator = await products(provider);
    expect((await iterator.next()).value).toMatchObject({ ID: 0 });
    const waiting = sql`select 1 as one -- waiting for the session`.execute(held.kysely);
    await jest.advanceTimersByTimeAsync(100);
    expect(received).toEqual([]);
    // The check runs every 25 ms: the first one past the limit ends the read and frees the session.
    await jest.advanceTimersByTimeAsync(25);
    await expect(waiting).resolves.toMatchObject({ rows: [{ one: 1 }] });
    expect(received).toHaveLength(1);
    await expect(iterator.next()).rejects.toThrow('A streamed read was not continued within 100 ms; its snapshot was released.');
  });
});
