/**
 * The command line on a SQLite file, in this process: `--db ./app.sqlite` is told apart from a
 * PGlite folder and a URL by the file's header, `introspect` writes the model of the file, `serve`
 * serves it (reads and writes) and releases it; what SQLite cannot do is refused before the file
 * is opened.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { runCommand, type CommandOutcome } from '../../lib/cli/run';
import { openSqlite } from '../../lib/sql/sqlite/connection';

const work = mkdtempSync(join(tmpdir(), 'express-odata-v2-cli-sqlite-'));

const APP_SQL = [
  'create table customers (id integer primary key, name varchar(40) not null)',
  'create table orders (id integer primary key, customer_id integer not null references customers, total decimal(10,2), placed datetime)',
  "insert into customers values (1, 'Ada'), (2, 'Grace')",
  "insert into orders values (1, 1, '50.00', '2024-05-01 10:00:00'), (2, 1, '150.5', null), (3, 2, '250', null)",
];

beforeAll(() => {
  const writer = openSqlite(join(work, 'app.sqlite'));
  for (const statement of APP_SQL) writer.prepare(statement).run();
  writer.close();
  writeFileSync(join(work, 'notes.txt'), 'not a database');
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

async function run(...args: string[]): Promise<{ outcome: CommandOutcome; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const outcome = await runCommand(args, { out: (line) => out.push(line), err: (line) => err.push(line), cwd: work, env: {} });
  return { outcome, out, err };
}

describe('--db names a SQLite file', () => {
  it('introspect writes the model and the mapping of the file', async () => {
    const { outcome, err } = await run('introspect', '--db', 'app.sqlite', '--out', 'metadata.xml', '--mapping', 'mapping.json');
    expect([outcome, err]).toEqual([{ kind: 'exit', code: 0 }, []]);
    const xml = readFileSync(join(work, 'metadata.xml'), 'utf8');
    expect(xml).toContain('<EntitySet Name="Orders" EntityType="Database.Order"');
    expect(xml).toContain('<Property Name="Total" Type="Edm.Decimal" Nullable="true" Precision="10" Scale="2"');
    expect(existsSync(join(work, 'mapping.json'))).toBe(true);
  });

  it('serve serves it, reads and writes, and releases it on close', async () => {
    const { outcome, out, err } = await run('serve', '--db', 'app.sqlite', '--port', '0');
    if (outcome.kind !== 'serving') throw new Error(err.join('\n'));
    const { url } = outcome.service;
    try {
      expect(out).toEqual([`Serving 2 entity sets of the SQLite database app.sqlite at ${url}`]);
      const read = await fetch(`${url}Orders?$filter=Total gt 100M&$orderby=ID&$expand=Customer`, { headers: { accept: 'application/json' } });
      const rows = ((await read.json()) as { d: { results: { ID: string; Total: string; Customer: { Name: string } }[] } }).d.results;
      expect(rows.map((row) => [row.ID, row.Total, row.Customer.Name])).toEqual([
        ['2', '150.5', 'Ada'],
        ['3', '250', 'Grace'],
      ]);
      const created = await fetch(`${url}Customers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ Name: 'Linus' }),
      });
      expect([created.status, ((await created.json()) as { d: { ID: string } }).d.ID]).toEqual([201, '3']);
    } finally {
      await outcome.service.close();
    }
    await expect(fetch(url)).rejects.toThrow();
  }, 30_000);
});

describe('--metadata and --mapping over a SQLite file', () => {
  it('serves the files introspect wrote, after checking that their tables and columns exist', async () => {
    expect((await run('introspect', '--db', 'app.sqlite', '--out', 'edited.xml', '--mapping', 'edited.json')).outcome).toEqual({ kind: 'exit', code: 0 });
    const { outcome, err } = await run('serve', '--db', 'app.sqlite', '--port', '0', '--metadata', 'edited.xml', '--mapping', 'edited.json');
    if (outcome.kind !== 'serving') throw new Error(err.join('\n'));
    try {
      const response = await fetch(`${outcome.service.url}Customers(1L)?$format=json`);
      expect([response.status, ((await response.json()) as { d: { Name: string } }).d.Name]).toEqual([200, 'Ada']);
    } finally {
      await outcome.service.close();
    }
    // A mapping naming a column the file lacks: refused with the column named.
    const mapping = JSON.parse(readFileSync(join(work, 'edited.json'), 'utf8')) as { entitySets: { Customers: { columns: Record<string, string> } } };
    mapping.entitySets.Customers.columns.Name = 'full_name';
    writeFileSync(join(work, 'wrong.json'), JSON.stringify(mapping));
    const wrong = await run('serve', '--db', 'app.sqlite', '--port', '0', '--metadata', 'edited.xml', '--mapping', 'wrong.json');
    expect(wrong.outcome).toEqual({ kind: 'exit', code: 1 });
    expect(wrong.err.join('\n')).toContain("EntitySet 'Customers' / property 'Name': no column full_name in main.customers.");
  }, 30_000);
});

describe('what SQLite cannot do: refused, one line each', () => {
  it.each([
    [['serve', '--db', 'notes.txt'], 1, 'express-odata-v2: --db notes.txt: the file is not a SQLite database (it does not start with "SQLite format 3").'],
    [
      ['serve', '--db', 'app.sqlite', '--anonymous-role', 'web_anon'],
      1,
      'express-odata-v2: serve: --auth and --anonymous-role run each request as a database role, which needs PostgreSQL: SQLite has no roles.',
    ],
    [
      ['introspect', '--db', 'app.sqlite', '--etag', 'xmin', '--out', 'x.xml', '--mapping', 'x.json'],
      2,
      "express-odata-v2: introspect: SQLite has no row version (etag 'xmin'); name version columns (versionColumns) or use etag 'none'. See 'express-odata-v2 introspect --help'.",
    ],
    [
      ['serve', '--db', 'app.sqlite', '--statement-timeout', '5000'],
      2,
      "express-odata-v2: serve: --statement-timeout needs PostgreSQL (SQLite cannot bound a statement). See 'express-odata-v2 serve --help'.",
    ],
  ])('%j: exit code %i', async (args, code, line) => {
    const { outcome, err } = await run(...args);
    expect([outcome, err]).toEqual([{ kind: 'exit', code }, [line]]);
  });
});
