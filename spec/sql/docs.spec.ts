/**
 * docs/sql-provider.md: its complete examples, run as written (transpiled from the markdown), on
 * PGlite, with filters and orderings as the service would hand them to a provider.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import * as kysely from 'kysely';
import type { PGlite } from '@electric-sql/pglite';
import { transpileModule, ModuleKind, ScriptTarget } from 'typescript';
import * as library from '../../lib';
import { defineModel } from '../../lib/edm';
import * as sqlModule from '../../lib/sql';
import { checkExpression, checkFilter, parseExpression, parseOrderBy } from '../../lib/uri/expr';
import type { ExprNode } from '../../lib/uri/expr/ast';
import type { OrderByItem } from '../../lib/uri/types';
import { openTestPGlite } from '../helpers/pglite';
import { demoData } from '../helpers/demo';
import express from 'express';
import request from 'supertest';

interface Example {
  readonly db: sqlModule.SqlDatabase;
  createProducts(): Promise<void>;
  findProducts(filter: ExprNode | undefined, orderBy: readonly OrderByItem[]): Promise<object[]>;
}

/** The example's code block, transpiled to CommonJS and run with the package names mapped to lib/. */
function loadExample(instance: PGlite): Example {
  const markdown = readFileSync(join(__dirname, '..', '..', 'docs', 'sql-provider.md'), 'utf8');
  const start = markdown.indexOf("```ts\nimport { sql } from 'kysely';");
  const end = markdown.indexOf('```', start + 5);
  if (start < 0 || end < 0) throw new Error('the example is missing from docs/sql-provider.md');
  const { outputText } = transpileModule(markdown.slice(start + 5, end), { compilerOptions: { module: ModuleKind.CommonJS, target: ScriptTarget.ES2022 } });
  // pglite() opens an in-memory database: here, the spec's PGlite (started from a cached data folder).
  const sqlPackage = { ...sqlModule, pglite: () => sqlModule.pglite(instance) };
  const modules: Record<string, unknown> = { kysely, 'express-odata-v2': library, 'express-odata-v2/sql': sqlPackage };
  const exports: Record<string, unknown> = {};
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- runs the docs' example as a user would paste it
  const run = new Function('require', 'exports', outputText) as (require: (name: string) => unknown, exports: Record<string, unknown>) => void;
  run((name) => modules[name], exports);
  return exports as unknown as Example;
}

const model = defineModel({
  schemas: [
    {
      namespace: 'Shop',
      entityTypes: [
        {
          name: 'Product',
          key: ['ID'],
          properties: [
            { name: 'ID', type: 'Edm.Int32', nullable: false },
            { name: 'Name', type: 'Edm.String' },
            { name: 'Price', type: 'Edm.Decimal', precision: 12, scale: 2 },
            { name: 'Released', type: 'Edm.DateTime' },
          ],
        },
      ],
      entityContainers: [{ name: 'C', isDefaultEntityContainer: true, entitySets: [{ name: 'Products', entityType: 'Shop.Product' }] }],
    },
  ],
});
const product = model.entityTypes.get('Shop.Product');

const filter = (text: string): ExprNode => {
  if (product === undefined) throw new Error('no Product');
  return checkFilter(parseExpression(text), product, model);
};
const orderBy = (text: string): OrderByItem[] =>
  parseOrderBy(text).map((item) => {
    if (product === undefined) throw new Error('no Product');
    return { expression: checkExpression(item.expression, product, model), direction: item.direction };
  });

let instance: PGlite;
let example: Example;

beforeAll(async () => {
  instance = await openTestPGlite();
  example = loadExample(instance);
  await example.createProducts();
  const rows: [number, string | null, string | null, string | null][] = [
    [1, 'Pen', '2.50', '2020-01-01 00:00:00'],
    [2, 'P_d', '12.99', '2021-06-01 12:00:00'],
    [3, 'Pad', null, '2019-03-01 00:00:00'],
    [4, null, '0.10', null],
  ];
  for (const row of rows)
    await kysely.sql`insert into products values (${row[0]}, ${row[1]}, ${row[2]}::numeric, ${row[3]}::timestamp)`.execute(example.db.kysely);
}, 60_000);

afterAll(() => instance.close());

describe('docs/sql-provider.md', () => {
  it('its example answers filters and orderings as the evaluator would', async () => {
    const ids = async (where: string | undefined, order: string): Promise<unknown[]> =>
      (await example.findProducts(where === undefined ? undefined : filter(where), order === '' ? [] : orderBy(order))).map(
        (row) => (row as { ID: unknown }).ID,
      );
    expect(await ids("startswith(Name, 'P_')", '')).toEqual([2]);
    expect(await ids('Price gt 2.5M', '')).toEqual([2]);
    expect(await ids('Price ne 2.5M', 'Price desc')).toEqual([2, 4, 3]);
    expect(await ids('year(Released) ge 2020 or Name eq null', 'Released desc')).toEqual([2, 1, 4]);
    // Ordinal: '_' (U+005F) sorts before 'a'.
    expect(await ids(undefined, 'Name')).toEqual([4, 2, 3, 1]);
    expect(await example.findProducts(filter('ID eq 1'), [])).toEqual([{ ID: 1, Name: 'Pen', Price: '2.5', Released: new Date('2020-01-01T00:00:00Z') }]);
  });
});

/** The "Serve a database" example, run as an async module body with its free names supplied. */
async function runQuickStart(instance: PGlite): Promise<{ app: Parameters<typeof request>[0] }> {
  const markdown = readFileSync(join(__dirname, '..', '..', 'docs', 'sql-provider.md'), 'utf8');
  const start = markdown.indexOf("```ts\nimport express from 'express';\nimport { loadEdmx, odata }");
  const end = markdown.indexOf('```', start + 5);
  if (start < 0 || end < 0) throw new Error('the quick start is missing from docs/sql-provider.md');
  const { outputText } = transpileModule(markdown.slice(start + 5, end), { compilerOptions: { module: ModuleKind.CommonJS, target: ScriptTarget.ES2022 } });
  const sqlPackage = { ...sqlModule, pglite: () => sqlModule.pglite(instance) };
  const modules: Record<string, unknown> = { express: { default: express }, 'express-odata-v2': library, 'express-odata-v2/sql': sqlPackage };
  const exports: Record<string, unknown> = {};
  // The block's assumptions: `fs` reads the demo's metadata.xml, `data` is the demo's data, no DATABASE_URL.
  const fs = { readFileSync: () => readFileSync(join(__dirname, '..', 'fixtures', 'odata-demo', 'metadata.xml'), 'utf8') };
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...names: string[]) => (...args: unknown[]) => Promise<void>;
  await new AsyncFunction('require', 'exports', 'fs', 'data', 'process', outputText)((name: string) => modules[name], exports, fs, demoData(), { env: {} });
  return exports as { app: Parameters<typeof request>[0] };
}

describe('docs/sql-provider.md, "Serve a database"', () => {
  let quick: PGlite;
  beforeAll(async () => {
    quick = await openTestPGlite();
  }, 60_000);
  afterAll(() => quick.close());

  it('creates and fills the tables once, and serves the demo', async () => {
    const { app } = await runQuickStart(quick);
    // A second start finds the tables and the data: nothing is created or inserted twice.
    await runQuickStart(quick);
    const response = await request(app).get('/odata/Categories(1)/Products?$format=json&$top=2&$select=Name&$expand=Supplier&$filter=Price gt 10');
    expect(response.status).toBe(200);
    const body = response.body as { d: { results: { Name: string; Supplier: { Name: string } }[] } };
    expect(body.d.results.map((product) => [product.Name, product.Supplier.Name])).toEqual([
      ['Vint soda', 'Exotic Liquids'],
      ['Havina Cola', 'Exotic Liquids'],
    ]);
  });
});

/** A fenced block of docs/sql-provider.md that starts with `opening` (its fence line included), without its fences. */
function docsBlock(opening: string): string {
  const markdown = readFileSync(join(__dirname, '..', '..', 'docs', 'sql-provider.md'), 'utf8');
  const start = markdown.indexOf(opening);
  const end = markdown.indexOf('```', start + 5);
  if (start < 0 || end < 0) throw new Error(`the block starting ${JSON.stringify(opening)} is missing from docs/sql-provider.md`);
  return markdown.slice(markdown.indexOf('\n', start) + 1, end);
}

describe('docs/sql-provider.md, "Who may see and change what"', () => {
  let shopDb: PGlite;
  beforeAll(async () => {
    shopDb = await openTestPGlite();
    await shopDb.exec(`
      create role shop_service;
      create table orders (id integer primary key, owner_id text not null, item text not null);
      insert into orders values (1, 'ada', 'pen'), (2, 'bob', 'pad'), (3, 'ada', 'ink');
    `);
    await shopDb.exec(docsBlock('```sql\ncreate role shop_user nologin;'));
  }, 60_000);
  afterAll(() => shopDb.close());

  it('runs each user of req.user as shop_user with app.user_id, and the policy shows each its own orders', async () => {
    const { outputText } = transpileModule(
      docsBlock("```ts\nimport express from 'express';\nimport { odata } from 'express-odata-v2';\nimport { SqlProvider }"),
      {
        compilerOptions: { module: ModuleKind.CommonJS, target: ScriptTarget.ES2022 },
      },
    );
    const modules: Record<string, unknown> = {
      express: Object.assign(express, { default: express }),
      'express-odata-v2': library,
      'express-odata-v2/sql': sqlModule,
    };
    const exports: Record<string, unknown> = {};
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- runs the docs' example as a user would paste it
    new Function('require', 'exports', outputText)((name: string) => modules[name], exports);
    const shop = exports.shop as (model: unknown, db: unknown, mapping: unknown, authenticate: express.RequestHandler) => Parameters<typeof request>[0];
    const db = sqlModule.pglite(shopDb);
    const { model, mapping } = await sqlModule.introspect(db);
    // The stand-in for passport and friends: the user named by a header.
    const authenticate: express.RequestHandler = (req, _res, next) => {
      const id = req.headers['x-user'];
      if (typeof id === 'string') Object.assign(req, { user: { id, role: 'shop_user' } });
      next();
    };
    const app = shop(model, db, mapping, authenticate);
    const ids = async (user: string | undefined): Promise<unknown> => {
      const call = request(app).get('/odata/Orders?$format=json&$select=ID&$orderby=ID');
      const response = await (user === undefined ? call : call.set('x-user', user));
      return response.status === 200 ? (response.body as { d: { results: { ID: number }[] } }).d.results.map((order) => order.ID) : response.status;
    };
    expect(await ids('ada')).toEqual([1, 3]);
    expect(await ids('bob')).toEqual([2]);
    // Without a logger option, a refusal is a console.warn line.
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      expect(await ids(undefined)).toBe(403);
      expect(warn.mock.calls).toEqual([['SqlProvider: the session of a request names no role; the request was refused (403).']]);
    } finally {
      warn.mockRestore();
    }
    expect((await request(app).get('/odata/Orders(2)?$format=json').set('x-user', 'ada')).status).toBe(404);
  });
});
