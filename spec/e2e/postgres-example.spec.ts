/**
 * examples/postgres: the ODataDemo service over PostgreSQL (SqlProvider on PGlite), in process: it
 * answers as the memory demo does, and the README's "Serve your database" commands are the ones
 * that work. spec/package/postgres-example.spec.ts runs server.js as `npm run start:postgres` does.
 */
import { readFileSync } from 'fs';
import { join, resolve } from 'path';
import type { PGlite } from '@electric-sql/pglite';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { pglite } from '../../lib/sql';
import type { SqlDatabase } from '../../lib/sql';
import { FIXED_NOW, startDemo } from '../helpers/demo';
import { openTestPGlite } from '../helpers/pglite';
import { startServer, type RunningServer } from '../helpers/server';
import { comparable, get } from '../sql/provider/support';

const ROOT = resolve(__dirname, '..', '..');
const SERVER = join(ROOT, 'examples', 'postgres', 'server.js');

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createPostgresApp, openDatabase } = require('../../examples/postgres/app') as {
  createPostgresApp(db: SqlDatabase, service?: Record<string, unknown>): Promise<Parameters<typeof startServer>[0]>;
  openDatabase(env: Record<string, string | undefined>): SqlDatabase;
};

/** Reads the memory demo and the SQL example must answer alike (JSON compared as data). */
const READS = [
  'Products?$format=json',
  'Products(1)?$format=json&$expand=Category,Supplier',
  'Categories?$format=json&$expand=Products&$orderby=Name desc',
  "Products?$format=json&$filter=Price gt 20 and substringof('a', Name)&$orderby=Name&$inlinecount=allpages",
  'Suppliers(0)/Address?$format=json',
  'Suppliers?$format=json&$select=Name,Concurrency',
  'Categories(1)/Products/$count',
  'Products(99)?$format=json',
  '$metadata',
  // The service operation: the provider reads the rated products, the service composes the rest.
  'GetProductsByRating?rating=3&$orderby=Price desc&$top=2&$format=json',
  'GetProductsByRating?rating=3&$orderby=ID&$top=1&$expand=Category&$inlinecount=allpages&$format=json',
  'GetProductsByRating/$count?rating=3&$filter=Price gt 20m',
  'GetProductsByRating?rating=7&$format=json',
  "GetProductsByRating?rating='x'&$format=json",
];

describe('examples/postgres/app.js over PGlite', () => {
  let instance: PGlite;
  let sqlServer: RunningServer;
  let memoryServer: RunningServer;

  beforeAll(async () => {
    instance = await openTestPGlite();
    const db = pglite(instance);
    await createPostgresApp(db);
    // A second start finds the tables and the rows: nothing is created or inserted twice.
    sqlServer = await startServer(await createPostgresApp(db, { now: () => FIXED_NOW }));
    memoryServer = await startDemo();
  }, 60_000);

  afterAll(async () => {
    await sqlServer?.close();
    await memoryServer?.close();
    await instance?.close();
  });

  it('serves the demo data once, however often it starts', async () => {
    expect(await get(sqlServer, 'Products/$count')).toEqual({ status: 200, contentType: 'text/plain;charset=utf-8', body: '9' });
  });

  it.each(READS)('answers %s as the memory demo does', async (path) => {
    const [memory, sql] = await Promise.all([get(memoryServer, path), get(sqlServer, path)]);
    expect(comparable(sql)).toEqual(comparable(memory));
  });

  it('answers GetProductsByRating from one SELECT that reads only the rated products (the condition in its WHERE)', async () => {
    const rows: number[] = [];
    const counter: KyselyPlugin = {
      transformQuery: (args: PluginTransformQueryArgs): RootOperationNode => args.node,
      transformResult: async (args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> => {
        rows.push(args.result.rows.length);
        return args.result;
      },
    };
    const plain = pglite(instance);
    const counted = await startServer(await createPostgresApp({ ...plain, kysely: plain.kysely.withPlugin(counter) }));
    try {
      const answer = await get(counted, 'GetProductsByRating?rating=4&$format=json');
      expect(answer.status).toBe(200);
      expect((JSON.parse(answer.body) as { d: { results: { ID: number }[] } }).d.results.map((product) => product.ID)).toEqual([0]);
      // Once started (the seed check ran), the call is one statement returning the one product rated 4 of nine.
      rows.length = 0;
      await get(counted, 'GetProductsByRating?rating=4&$format=json');
      expect(rows).toEqual([1]);
    } finally {
      await counted.close();
    }
  });

  it('opens PGlite in DATA_DIR, or the server at DATABASE_URL', async () => {
    const folder = openDatabase({ DATA_DIR: '/nowhere' });
    const server = openDatabase({ DATABASE_URL: 'postgres://user@127.0.0.1:1/shop', DATA_DIR: '/nowhere' });
    expect([folder.engine, server.engine]).toEqual(['pglite', 'postgres']);
    // Nothing was opened: creating a database opens nothing before the first statement.
    await Promise.all([folder.close(), server.close()]);
  });
});

describe('README "Serve your database"', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Serve your database'), readme.indexOf('## Features'));
  const commands = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';

  it('runs the scripts package.json has, and the example reads the variables it sets', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const named = [...commands.matchAll(/npm run ([\w:-]+)/g)].map((match) => match[1]);
    expect(named.length).toBeGreaterThan(0);
    for (const script of named) expect(scripts[script]).toContain('node examples/postgres/server.js');
    const app = readFileSync(join(ROOT, 'examples', 'postgres', 'app.js'), 'utf8');
    for (const [, variable] of commands.matchAll(/^([A-Z_]+)=/gm)) expect(app).toContain(`env.${variable}`);
    expect(commands).toContain('examples/postgres/data');
    expect(readFileSync(join(ROOT, '.gitignore'), 'utf8').split('\n')).toContain('examples/postgres/data/');
  });

  it('its curl is answered by the example (port 4004 is the default of server.js)', async () => {
    const url = /curl '(http:\/\/127\.0\.0\.1:4004\/odata\/[^']+)'/.exec(commands)?.[1];
    expect(url).toBeDefined();
    expect(readFileSync(SERVER, 'utf8')).toContain('? 4004 :');
    const instance = await openTestPGlite();
    const server = await startServer(await createPostgresApp(pglite(instance)));
    try {
      const response = await fetch(String(url).replace('http://127.0.0.1:4004', server.url));
      expect(response.status).toBe(200);
      const body = (await response.json()) as { d: { results: { Name: string; Category: { Name: string } }[] } };
      expect(body.d.results.map((product) => [product.Name, product.Category.Name])).toEqual([
        ['Vint soda', 'Beverages'],
        ['Fruit Punch', 'Beverages'],
        ['Cranberry Juice', 'Beverages'],
        ['DVD Player', 'Electronics'],
        ['LCD HDTV', 'Electronics'],
      ]);
    } finally {
      await server.close();
      await instance.close();
    }
  }, 60_000);
});
