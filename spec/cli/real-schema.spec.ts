/**
 * The command line on the real-schema spec database (spec/fixtures/sql/real-schema.sql, a PGlite
 * folder): OData names by default, every key a warning proposes is a --key that works when run,
 * a --key two rows share stops `serve` with one line, the metadata.xml `introspect` writes is served
 * back unchanged by `serve --metadata`, and the SAP Cloud SDK generator builds a
 * client from the served $metadata without renaming a class (it refuses naming conflicts unless
 * told otherwise), one class per entity set, named as the set.
 */
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { runCommand, type CommandOutcome } from '../../lib/cli/run';
import { generateClient } from '../clients/sap-cloud-sdk-generate';
import { createTestPGliteFolder } from '../helpers/pglite';
import { realSchemaSql } from '../helpers/real-schema';

const work = mkdtempSync(join(tmpdir(), 'express-odata-v2-cli-real-schema-'));
const folder = join(work, 'shop');

beforeAll(() => createTestPGliteFolder(folder, realSchemaSql('real_schema_cli')), 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Run {
  readonly outcome: CommandOutcome;
  readonly out: string[];
  readonly err: string[];
}

async function run(...args: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const outcome = await runCommand(args, { out: (line) => out.push(line), err: (line) => err.push(line), cwd: work, env: {} });
  return { outcome, out, err };
}

/** Serve with `args`, run `body` against the service root, always stop. */
async function serving(args: readonly string[], body: (url: string, err: readonly string[]) => Promise<void>): Promise<void> {
  const { outcome, err } = await run('serve', '--db', folder, '--port', '0', ...args);
  if (outcome.kind !== 'serving') throw new Error(err.join('\n'));
  try {
    await body(outcome.service.url, err);
  } finally {
    await outcome.service.close();
  }
}

const getJson = async (url: string): Promise<{ status: number; d: unknown }> => {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  return { status: response.status, d: ((await response.json()) as { d?: unknown }).d };
};

it('serves OData names by default, and the --key a warning proposes serves the view', async () => {
  let proposed: string[] = [];
  await serving([], async (url, err) => {
    expect(err).toEqual([
      expect.stringMatching(/^warning: The view public\.active_products is left out: .* --key active_products=product_id on the command line/),
      expect.stringMatching(/^warning: The table public\.category_log is left out: /),
      expect.stringMatching(/^warning: The view public\.order_overview is left out: /),
    ]);
    proposed = [...err[0].matchAll(/--key (\S+)/g)].map((match) => match[1]);
    const { status, d } = await getJson(`${url}Orders(10248)?$expand=Shipper,BillToAddress&$select=ShipVia,Shipper/CompanyName,BillToAddress/City`);
    expect(status).toBe(200);
    expect(d).toMatchObject({ ShipVia: 1, Shipper: { CompanyName: 'Speedy Express' }, BillToAddress: { City: 'Berlin' } });
  });
  expect(proposed).toEqual(['active_products=product_id']);
  await serving(['--key', proposed[0]], async (url, err) => {
    // Left out no more; as a view it has no row version, so no ETag.
    expect(err.filter((line) => line.includes('active_products'))).toEqual([expect.stringMatching(/^warning: The view public\.active_products has no ETag/)]);
    const { status, d } = await getJson(`${url}ActiveProducts(1)?$select=ProductName`);
    expect([status, d]).toEqual([200, { __metadata: expect.anything(), ProductName: 'Chai' }]);
  });
}, 60_000);

it('refuses a --key two rows share with one line and exit code 1', async () => {
  const { outcome, out, err } = await run('serve', '--db', folder, '--port', '0', '--key', 'track=album_id');
  expect(outcome).toEqual({ kind: 'exit', code: 1 });
  expect(out).toEqual([]);
  expect(err.slice(-1)).toEqual([
    "express-odata-v2: The key (album_id) of public.track (entity set Tracks) does not identify one row: two or more rows have album_id = '2'. Give key columns that are unique and never null.",
  ]);
}, 60_000);

it('serves the metadata.xml introspect wrote with serve --metadata: labels, quick info and documentation unchanged', async () => {
  const written = await run('introspect', '--db', folder, '--key', 'order_overview=order_id', '--out', 'metadata.xml', '--mapping', 'mapping.json');
  expect(written.outcome).toEqual({ kind: 'exit', code: 0 });
  const xml = readFileSync(join(work, 'metadata.xml'), 'utf8');
  expect(xml).toContain('sap:label="Unit Price" sap:quickinfo="The price of one unit in the currency of the company,');
  await serving(['--metadata', 'metadata.xml', '--mapping', 'mapping.json'], async (url) => {
    expect(await (await fetch(`${url}$metadata`)).text()).toBe(xml);
    const { status, d } = await getJson(`${url}Employees(1)/ReportsTo?$select=LastName`);
    expect([status, d]).toEqual([200, { __metadata: expect.anything(), LastName: 'Fuller' }]);
  });
}, 60_000);

/** What the test reads of the generated client: the orders API's getAll. */
interface ShopModule {
  shop(): { ordersApi: { requestBuilder(): { getAll(): { execute(destination: { url: string }): Promise<{ orderId: number; shipVia: number | null }[]> } } } };
}

function isShopModule(value: unknown): value is ShopModule {
  return typeof value === 'object' && value !== null && typeof (value as { shop?: unknown }).shop === 'function';
}

it('gives the SAP Cloud SDK generator a model it builds a client from without renaming a class', async () => {
  await serving(['--key', 'active_products=product_id', '--key', 'order_overview=order_id'], async (url) => {
    const generated = await generateClient(url.replace(/\/$/, ''), { name: 'shop', basePath: '/odata' });
    const sets = [...generated.metadata.matchAll(/<EntitySet Name="(\w+)"/g)].map((match) => match[1]);
    expect(sets).toHaveLength(17);
    const exported = Object.keys(generated.module as object);
    expect(sets.filter((set) => !exported.includes(set))).toEqual([]);
    if (!isShopModule(generated.module)) throw new Error('the generated module does not export the shop client');
    const orders = await generated.module
      .shop()
      .ordersApi.requestBuilder()
      .getAll()
      .execute({ url: url.replace(/\/odata\/$/, '') });
    expect(orders.map((order) => [order.orderId, order.shipVia])).toEqual([
      [10248, 1],
      [10249, 2],
    ]);
  });
}, 120_000);
