/**
 * `serve --metadata` checks at start that the database has every table and column the files name,
 * with `--mapping` and without it (the naming conventions): each one missing is an `error:` line,
 * then one line that names the files and exit code 1, before anything listens. Files that fit
 * are served.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { runCommand, type CommandOutcome } from '../../lib/cli/run';
import { createTestPGliteFolder } from '../helpers/pglite';

const work = mkdtempSync(join(tmpdir(), 'express-odata-v2-cli-model-fit-'));
const shop = join(work, 'shop');

beforeAll(async () => {
  await createTestPGliteFolder(
    shop,
    `
    create table customers (id integer primary key, name varchar(40) not null, city text);
    create table orders (id integer primary key, customer_id integer not null references customers, total numeric(10,2));
    insert into customers values (1, 'Ada', 'London');
    insert into orders values (10, 1, 50);
    `,
  );
  const out: string[] = [];
  const outcome = await runCommand(['introspect', '--db', shop, '--out', 'metadata.xml', '--mapping', 'mapping.json'], {
    out: (line) => out.push(line),
    err: (line) => out.push(line),
    cwd: work,
    env: {},
  });
  if (outcome.kind !== 'exit' || outcome.code !== 0) throw new Error(out.join('\n'));
}, 60_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

async function serve(metadata: string, ...args: string[]): Promise<{ outcome: CommandOutcome; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const outcome = await runCommand(['serve', '--db', 'shop', '--port', '0', '--metadata', metadata, ...args], {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    cwd: work,
    env: {},
  });
  return { outcome, out, err };
}

/** mapping.json as introspect wrote it, changed by `edit`, saved as `file`. */
function editedMapping(file: string, edit: (mapping: { entitySets: Record<string, { table: string; columns: Record<string, string> }> }) => void): string {
  const mapping = JSON.parse(readFileSync(join(work, 'mapping.json'), 'utf8')) as {
    entitySets: Record<string, { table: string; columns: Record<string, string> }>;
  };
  edit(mapping);
  writeFileSync(join(work, file), JSON.stringify(mapping, null, 2));
  return file;
}

it('serves files that fit the database', async () => {
  const { outcome, out, err } = await serve('metadata.xml', '--mapping', 'mapping.json');
  if (outcome.kind !== 'serving') throw new Error(err.join('\n'));
  try {
    expect([out, err]).toEqual([[`Serving 2 entity sets of the PGlite database in shop at ${outcome.service.url}`], []]);
    const response = await fetch(`${outcome.service.url}Customers(1)/Orders?$select=Total`, { headers: { accept: 'application/json' } });
    expect(((await response.json()) as { d: { results: { Total: string }[] } }).d.results).toEqual([{ __metadata: expect.anything(), Total: '50' }]);
  } finally {
    await outcome.service.close();
  }
}, 30_000);

it('refuses a mapping that names a table or column the database lacks: a line for each, then exit 1', async () => {
  const file = editedMapping('renamed.json', (mapping) => {
    mapping.entitySets.Orders.table = 'order_header';
    mapping.entitySets.Customers.columns.City = 'town';
    mapping.entitySets.Customers.columns.Name = 'full_name';
  });
  expect(await serve('metadata.xml', '--mapping', file)).toEqual({
    outcome: { kind: 'exit', code: 1 },
    out: [],
    err: [
      "error: EntitySet 'Customers' / property 'Name': no column full_name in public.customers.",
      "error: EntitySet 'Customers' / property 'City': no column town in public.customers.",
      "error: EntitySet 'Orders': no table public.order_header.",
      'express-odata-v2: metadata.xml and renamed.json do not fit the PGlite database in shop: 3 tables or columns named there are missing (listed above). Serve files introspect wrote for this database, or edit them.',
    ],
  });
}, 30_000);

it('serves a model with the SQL names by the naming conventions (no --mapping), and refuses one whose sets they map to tables the database lacks', async () => {
  const written: string[] = [];
  const io = { out: (line: string) => written.push(line), err: (line: string) => written.push(line), cwd: work, env: {} };
  expect(await runCommand(['introspect', '--db', 'shop', '--names', 'sql', '--out', 'sql.xml', '--mapping', 'sql.json'], io)).toEqual({
    kind: 'exit',
    code: 0,
  });
  const { outcome, err } = await serve('sql.xml');
  if (outcome.kind !== 'serving') throw new Error(err.join('\n'));
  await outcome.service.close();

  expect(await serve('metadata.xml')).toEqual({
    outcome: { kind: 'exit', code: 1 },
    out: [],
    err: [
      "error: EntitySet 'Customers': no table Customers in the schemas of the search path (public).",
      "error: EntitySet 'Orders': no table Orders in the schemas of the search path (public).",
      'express-odata-v2: metadata.xml (mapped by the naming conventions) does not fit the PGlite database in shop: 2 tables or columns named there are missing (listed above). Serve files introspect wrote for this database, or edit them.',
    ],
  });
}, 30_000);
