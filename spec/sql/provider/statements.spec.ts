/**
 * Statements per request, counted by a Kysely plugin on every statement the provider runs (BEGIN
 * and COMMIT of a snapshot are not statements here): one for the page, one for a count the page
 * does not show, one per expanded navigation property and level, never one per row; so the
 * count does not change with the page size. `/$count` is one COUNT(*) and reads no row. The demo
 * (public schema) and the Catalog (schema "catalog", by mapping override) share one database.
 * A service operation's entities are read again in batches of keys, so `$expand` on its result
 * costs the same statements for 3 entities as for 50.
 */
import express from 'express';
import type { PGlite } from '@electric-sql/pglite';
import { odata } from '../../../lib';
import type { EdmModel } from '../../../lib/edm/model';
import { SqlProvider, type SqlProviderOptions } from '../../../lib/sql';
import type { SqlDatabase } from '../../../lib/sql/database';
import { pglite, type PGliteLike } from '../../../lib/sql/postgres/pglite';
import { DEMO_LINKS, DEMO_MODEL, FIXED_NOW } from '../../helpers/demo';
import { openTestPGlite } from '../../helpers/pglite';
import { batchBody, changeset, operation } from '../../helpers/batch-http';
import { startServer, type RunningServer } from '../../helpers/server';
import { CATALOG, catalogData } from './catalog';
import { largerDemoData } from './demo-data';
import { StatementLog, get, loadDatabase } from './support';

const log = new StatementLog();
let instance: PGlite;
let demo: RunningServer;
let catalog: RunningServer;
let streamed: RunningServer;
let operations: RunningServer;

function serve(
  model: EdmModel,
  db: SqlDatabase,
  options: {
    schema?: string;
    chunkSize?: number;
    streamSnapshot?: boolean;
    statementTimeoutMs?: number;
    operations?: SqlProviderOptions['operations'];
  } = {},
): Promise<RunningServer> {
  const provider = new SqlProvider({
    model,
    db,
    mapping: options.schema === undefined ? {} : { schema: options.schema },
    chunkSize: options.chunkSize,
    streamSnapshot: options.streamSnapshot,
    operations: options.operations,
    statementTimeoutMs: options.statementTimeoutMs,
  });
  const app = express();
  app.use('/odata', odata({ model, provider, now: () => FIXED_NOW }));
  return startServer(app);
}

beforeAll(async () => {
  instance = await openTestPGlite();
  const plain = pglite(instance);
  await loadDatabase(plain, DEMO_MODEL, largerDemoData(), DEMO_LINKS);
  await loadDatabase(plain, CATALOG, catalogData(), undefined, { schema: 'catalog' });
  const counted: SqlDatabase = { ...plain, kysely: plain.kysely.withPlugin(log) };
  demo = await serve(DEMO_MODEL, counted);
  catalog = await serve(CATALOG, counted, { schema: 'catalog' });
  streamed = await serve(DEMO_MODEL, counted, { chunkSize: 10 });
  // Here GetProductsByRating answers the keys of the first `rating` products, read by no statement of its own.
  operations = await serve(DEMO_MODEL, counted, {
    operations: { GetProductsByRating: async ({ parameters }) => Array.from({ length: Number(parameters.rating) }, (_, id) => ({ ID: id })) },
  });
}, 60_000);

afterAll(async () => {
  await Promise.all([demo?.close(), catalog?.close(), streamed?.close(), operations?.close()]);
  await instance.close();
});

/** The statements one GET ran (its status must be `status`). */
async function statementsOf(server: RunningServer, path: string, status = 200): Promise<string[]> {
  log.statements = [];
  const answer = await get(server, path);
  expect({ path, status: answer.status }).toEqual({ path, status });
  return log.statements;
}

describe('statements per request', () => {
  it.each([
    // A two-level $expand: the page, the products of every category, the suppliers of every product.
    ['Categories?$format=json&$expand=Products/Supplier', 3],
    ['Categories?$format=json&$expand=Products/Supplier&$top=2', 3],
    // To-one expansions through a foreign key the row holds: LEFT JOINs of the page's own statement.
    ['Products?$format=json&$expand=Category,Supplier&$top=100', 1],
    ['Products?$format=json&$expand=Category,Supplier&$top=3', 1],
    ['Products(1)?$format=json&$expand=Category', 1],
    // A to-one expansion with a level below it is read as a level of its own.
    ['Products?$format=json&$expand=Category/Products&$top=3', 3],
    // $inlinecount: the count is a subquery of the page's statement.
    ['Products?$format=json&$inlinecount=allpages&$top=2', 1],
    ['Products?$format=json&$inlinecount=allpages&$top=2&$skip=3', 1],
    ['Products?$format=json&$inlinecount=allpages&$top=2&$skiptoken=7', 1],
    // An empty page that skipped rows: the count on its own.
    ['Products?$format=json&$inlinecount=allpages&$top=2&$skip=100000', 2],
    ['Categories?$format=json&$inlinecount=allpages', 1],
    ['Products?$format=json&$inlinecount=allpages&$top=2&$expand=Category/Products', 3],
    ['Products(1)?$format=json', 1],
    ['Products(1)/Category/Products?$format=json', 1],
    ["Products?$format=json&$filter=Category/Name eq 'Food'&$orderby=Supplier/Address/City", 1],
    // An empty result of a keyed path: one more statement tells whether the path exists.
    ['Categories(10)/Products?$format=json', 2],
  ])('%s: %d', async (path, count) => {
    expect(await statementsOf(demo, path)).toHaveLength(count);
  });

  it('a 404 path costs the read and one check', async () => {
    expect(await statementsOf(demo, 'Categories(99)/Products?$format=json', 404)).toHaveLength(2);
  });

  it.each([
    ['Customers?$format=json&$expand=Orders/Lines,Profile', 4],
    ["Tags('red')/Products?$format=json&$expand=Tags,Category", 2],
    ['Categories?$format=json&$expand=Children/Products,Parent', 3],
  ])('Catalog %s: %d', async (path, count) => {
    expect(await statementsOf(catalog, path)).toHaveLength(count);
  });

  it('/$count is one COUNT(*) and reads no row', async () => {
    expect(await statementsOf(demo, 'Products/$count?$filter=Price gt 10')).toEqual(['select count(*) as']);
    expect(await statementsOf(demo, 'Categories(1)/Products/$count')).toEqual(['select count(*) as']);
  });

  it('a streamed feed reads one statement per chunk (plus its expansions), never one per row', async () => {
    // 249 products in chunks of 10: 25 chunks, each expanded with one statement (Category is joined: none).
    expect(await statementsOf(streamed, 'Products?$format=json&$expand=Category')).toHaveLength(25);
    expect(await statementsOf(streamed, 'Products?$format=json&$expand=Category/Products')).toHaveLength(75);
    expect(await statementsOf(streamed, 'Products?$format=json&$top=25')).toHaveLength(3);
  });

  it('a feed that ends exactly at a chunk end needs no statement to find nothing more (each chunk reads one row ahead)', async () => {
    expect(await statementsOf(streamed, 'Products?$format=json&$filter=ID lt 10')).toHaveLength(1);
    expect(await statementsOf(streamed, 'Products?$format=json&$filter=ID lt 20')).toHaveLength(2);
    // The count of a feed read to its end is known without COUNT(*).
    expect(await statementsOf(streamed, 'Products?$format=json&$filter=ID lt 10&$inlinecount=allpages')).toHaveLength(1);
  });
});

describe('statements of a service operation result', () => {
  it.each([3, 50])('%i entities with a two-level $expand: the keys (the suppliers joined), the categories, their products', async (n) => {
    const statements = await statementsOf(operations, `GetProductsByRating?rating=${n}&$format=json&$expand=Category/Products,Supplier`);
    expect(statements).toHaveLength(3);
    // The same entries as the entity set's feed of those products.
    const [result, set] = await Promise.all([
      get(operations, `GetProductsByRating?rating=${n}&$format=json&$expand=Category/Products,Supplier`),
      get(demo, `Products?$filter=ID lt ${n}&$format=json&$expand=Category/Products,Supplier`),
    ]);
    expect(result.body).toBe(set.body);
  });

  it.each([3, 50])('%i entities with $orderby over navigation: the keys with categories for the order, then the $expand (a join)', async (n) => {
    const statements = await statementsOf(operations, `GetProductsByRating?rating=${n}&$format=json&$orderby=Category/Name&$expand=Supplier`);
    expect(statements).toHaveLength(2);
    const [result, set] = await Promise.all([
      get(operations, `GetProductsByRating?rating=${n}&$format=json&$orderby=Category/Name&$expand=Supplier`),
      get(demo, `Products?$filter=ID lt ${n}&$format=json&$orderby=Category/Name&$expand=Supplier`),
    ]);
    expect(result.body).toBe(set.body);
  });
});

describe('on PGlite, statements that share a snapshot share the held session, without BEGIN and COMMIT', () => {
  /** Every statement text PGlite receives, transaction control included. */
  const wire: string[] = [];
  let onWire: RunningServer;
  let withTimeout: RunningServer;
  let inSnapshot: RunningServer;

  beforeAll(async () => {
    const recorded: PGliteLike = {
      waitReady: instance.waitReady,
      get closed() {
        return instance.closed;
      },
      query: (text, parameters, options) => {
        wire.push(text.trim().split(/\s+/)[0].toLowerCase());
        return instance.query(text, parameters, options);
      },
      exec: (text) => {
        wire.push(text.trim().split(/\s+/)[0].toLowerCase());
        return instance.exec(text);
      },
      close: () => instance.close(),
    };
    onWire = await serve(DEMO_MODEL, pglite(recorded));
    withTimeout = await serve(DEMO_MODEL, pglite(recorded), { statementTimeoutMs: 5000 });
    inSnapshot = await serve(DEMO_MODEL, pglite(recorded), { chunkSize: 10, streamSnapshot: true });
  });

  afterAll(async () => {
    await Promise.all([onWire?.close(), withTimeout?.close(), inSnapshot?.close()]);
  });

  async function wireOf(server: RunningServer, path: string): Promise<string[]> {
    wire.length = 0;
    expect((await get(server, path)).status).toBe(200);
    return [...wire];
  }

  it.each([
    ['Products?$format=json&$expand=Category/Products&$top=50', ['select', 'select', 'select']],
    ['Products?$format=json&$expand=Category&$top=50', ['select']],
    ['Products?$format=json&$inlinecount=allpages&$top=10', ['select']],
    ['Products?$format=json&$inlinecount=allpages&$top=10&$skip=5', ['select']],
    ['Products(1)?$format=json', ['select']],
  ])('%s: %j', async (path, statements) => {
    expect(await wireOf(onWire, path)).toEqual(statements);
  });

  it('a feed that may stream in one snapshot but ends in its first chunk is one statement (its own snapshot)', async () => {
    expect(await wireOf(inSnapshot, 'Products?$format=json&$filter=ID lt 10')).toEqual(['select']);
  });

  it('a feed that goes on past its first chunk reads that chunk again in the snapshot, then the rest', async () => {
    const statements = await wireOf(inSnapshot, 'Products?$format=json&$filter=ID lt 25');
    // The first chunk without a snapshot, again in it, then chunks of 10 until a short one: 10 + 10 + 5 rows.
    expect(statements).toEqual(['select', 'select', 'select', 'select']);
  });

  /** The statements of one request (`body` as JSON), the status it was answered with. */
  async function wireOfWrite(server: RunningServer, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    wire.length = 0;
    const answer = await fetch(`${server.url}/odata/${path}`, {
      method,
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
    });
    await answer.arrayBuffer();
    return { status: answer.status, statements: [...wire] };
  }

  const product = (id: number) => ({ ID: id, Name: 'Wire', Description: 'counted', ReleaseDate: '/Date(0)/', Rating: 1, Price: '1.5' });

  // A write request that is one statement runs alone: PostgreSQL makes a single statement atomic,
  // so BEGIN and COMMIT would only add two round trips. (`with`: the INSERT/UPDATE ... RETURNING
  // wrapped in the projection that decodes the stored row; no read-back statement.)
  it.each([
    ['POST an entry', 'POST', 'Products', product(900001), 201, ['with']],
    ['MERGE it', 'MERGE', 'Products(900001)', { Name: 'Merged' }, 204, ['with']],
    [
      'PUT it with its Category link, whose foreign key the row holds',
      'PUT',
      'Products(900001)',
      { ...product(900001), Category: { __metadata: { uri: 'Categories(1)' } } },
      204,
      ['with'],
    ],
    ['PUT a property', 'PUT', 'Products(900001)/Rating', { Rating: 4 }, 204, ['with']],
    ['PUT without a required property: 400 PROPERTY_REQUIRED before any statement', 'PUT', 'Products(900001)', { ID: 900001, Name: 'no date' }, 400, []],
    [
      'MERGE a missing entry: the UPDATE changes nothing, 404 (no If-Match, so no read to tell 404 from 412)',
      'MERGE',
      'Products(900099)',
      { Name: 'x' },
      404,
      ['with'],
    ],
    ['DELETE it', 'DELETE', 'Products(900001)', undefined, 204, ['delete']],
    [
      'POST through a navigation whose foreign key the new row holds: the source is read first (on the primary)',
      'POST',
      'Categories(1)/Products',
      product(900002),
      201,
      ['select', 'with'],
    ],
    ['DELETE that one', 'DELETE', 'Products(900002)', undefined, 204, ['delete']],
  ])('%s: %j', async (_what, method, path, body, status, statements) => {
    expect(await wireOfWrite(onWire, method, path, body)).toEqual({ status, statements });
  });

  it('a write of more than one statement runs in a transaction of its own (a deep insert: the inline Category first)', async () => {
    const body = { ...product(900003), Category: { ID: 900003, Name: 'Inline' } };
    expect(await wireOfWrite(onWire, 'POST', 'Products', body)).toEqual({ status: 201, statements: ['start', 'with', 'with', 'commit'] });
    await instance.query('delete from "Products" where "ID" = 900003');
    await instance.query('delete from "Categories" where "ID" = 900003');
  });

  it('a changeset of one POST is still a transaction: its writes must commit together, whatever they are', async () => {
    const body = batchBody([
      changeset('changeset_1', operation('POST', 'Products', { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(product(900004)) })),
    ]);
    const answer = await wireOfWrite(onWire, 'POST', '$batch', body, { 'content-type': 'multipart/mixed; boundary=batch_1' });
    expect(answer).toEqual({ status: 202, statements: ['start', 'with', 'commit'] });
    await instance.query('delete from "Products" where "ID" = 900004');
  });

  it('with a statement timeout every write runs in a transaction (the timeout is set inside it)', async () => {
    expect(await wireOfWrite(withTimeout, 'POST', 'Products', product(900005))).toEqual({ status: 201, statements: ['start', 'select', 'with', 'commit'] });
    await instance.query('delete from "Products" where "ID" = 900005');
  });

  it('a statement timeout still needs a transaction (set_config(..., true) lives in one)', async () => {
    expect(await wireOf(withTimeout, 'Products?$format=json&$expand=Category/Products&$top=50')).toEqual([
      'start',
      'select',
      'select',
      'select',
      'select',
      'commit',
    ]);
  });
});
