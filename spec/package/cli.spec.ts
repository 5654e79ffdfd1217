/**
 * The built `express-odata-v2` executable in child processes, for what only a process shows:
 * refusals are one line on stderr with exit code 2 (arguments) or 1 (anything else) and never a
 * stack trace; `introspect` writes the files a user edits and `serve --metadata --mapping` serves
 * the edited model (--read-only: writes are 405); SIGTERM stops a service with exit code 0 and the port released;
 * `user add` reads the password piped to the process, and serve refuses a public address without --auth.
 * (serve.spec.ts covers the Northwind end to end and SIGINT.)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { createServer } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import { createTestPGliteFolder } from '../helpers/pglite';
import { runCli, startServe } from '../cli/support';

const work = mkdtempSync(join(tmpdir(), 'express-odata-v2-cli-process-'));

beforeAll(async () => {
  await createTestPGliteFolder(
    join(work, 'shop'),
    `
    create table customers (id integer primary key, name varchar(40) not null);
    create table orders (id integer primary key, customer_id integer not null references customers, total numeric(10,2));
    comment on column orders.total is 'Total';
    insert into customers values (1, 'Ada'), (2, 'Grace');
    insert into orders values (10, 1, 50), (11, 2, 150);
  `,
  );
  await createTestPGliteFolder(join(work, 'empty'), '');
}, 60_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

function portIsFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const probe = createServer();
    probe.once('error', () => done(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => done(true)));
  });
}

it.each([
  [
    'a mistake in the arguments',
    ['serve', '--db', 'shop', '--prot', '80'],
    2,
    "express-odata-v2: serve: Unknown option '--prot'. See 'express-odata-v2 serve --help'.",
  ],
  [
    'an unreachable server',
    ['introspect', '--db', 'postgres://app:secret@127.0.0.1:1/shop'],
    1,
    'express-odata-v2: Cannot connect to the database at 127.0.0.1:1/shop: connection refused (is the server running, on that host and port?).',
  ],
  ['a database without tables', ['serve', '--db', 'empty'], 1, "express-odata-v2: No table to serve in schema 'public'."],
  ['a model file that is not there', ['serve', '--db', 'shop', '--metadata', 'none.xml'], 1, 'express-odata-v2: Cannot read none.xml: no such file.'],
])(
  '%s is one line on stderr and a non-zero exit code, never a stack trace',
  async (_, args, code, line) => {
    const result = await runCli(args, work);
    expect(result).toEqual({ code, signal: null, stdout: [], stderr: [line] });
  },
  30_000,
);

it('user add reads the password piped to its standard input, and serve refuses a public address without --auth', async () => {
  const added = await runCli(['user', 'add', 'process-users.txt', 'ada', '--role', 'reader'], work, 'correct horse battery\n');
  expect(added).toEqual({ code: 0, signal: null, stdout: ['Added ada (role reader) in process-users.txt.'], stderr: [] });
  expect(readFileSync(join(work, 'process-users.txt'), 'utf8')).toMatch(/\nada:reader:\$scrypt\$v=1\$ln=15,r=8,p=1\$[^$]{22}\$[^$]{43}\n$/);
  const empty = await runCli(['user', 'add', 'process-users.txt', 'bob', '--role', 'reader'], work);
  expect(empty).toEqual({ code: 1, signal: null, stdout: [], stderr: ['express-odata-v2: The password is shorter than 8 characters; nothing was written.'] });
  const refused = await runCli(['serve', '--db', 'shop', '--host', '0.0.0.0'], work);
  expect(refused).toEqual({
    code: 1,
    signal: null,
    stdout: [],
    stderr: [
      'express-odata-v2: serve: refusing to listen on 0.0.0.0 without authentication: anyone who reaches the port could read and change every table. Give --auth jwt or --auth basic, or --allow-anonymous when something in front authenticates.',
    ],
  });
}, 30_000);

it('introspects, serves the edited files read-only, and stops on SIGTERM with exit code 0 and the port released', async () => {
  const introspected = await runCli(['introspect', '--db', 'shop'], work);
  expect(introspected).toEqual({
    code: 0,
    signal: null,
    stdout: [`Wrote metadata.xml (2 entity sets, 1 association) and mapping.json from the PGlite database in shop.`],
    stderr: [],
  });

  // The edits a user makes: the set `Customers` renamed to `Clients` (its mapping entry keeps
  // the table, and the value list of Orders' foreign key follows it), and the order's total relabelled.
  const metadata = readFileSync(join(work, 'metadata.xml'), 'utf8')
    .replace('<EntitySet Name="Customers"', '<EntitySet Name="Clients"')
    .replace('EntitySet="Customers"', 'EntitySet="Clients"')
    .replace('<PropertyValue Property="CollectionPath" String="Customers" />', '<PropertyValue Property="CollectionPath" String="Clients" />')
    .replace('sap:label="Total"', 'sap:label="Order total"');
  writeFileSync(join(work, 'metadata.xml'), metadata);
  const mapping = JSON.parse(readFileSync(join(work, 'mapping.json'), 'utf8')) as { entitySets: Record<string, unknown> };
  mapping.entitySets = { Clients: mapping.entitySets.Customers, Orders: mapping.entitySets.Orders };
  writeFileSync(join(work, 'mapping.json'), JSON.stringify(mapping, null, 2));

  const {
    process: cli,
    url,
    port,
  } = await startServe(['--metadata', 'metadata.xml', '--mapping', 'mapping.json', '--db', 'shop', '--port', '0', '--read-only'], work);
  try {
    expect(cli.stdout[0]).toBe(`Serving 2 entity sets of the PGlite database in shop (read-only) at ${url}`);
    const refused = await fetch(`${url}Clients`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ ID: 3, Name: 'Cy' }),
    });
    expect([refused.status, ((await refused.json()) as { error: { code: string } }).error.code]).toEqual([405, 'METHOD_NOT_ALLOWED']);
    const served = await (await fetch(`${url}$metadata`)).text();
    // --read-only: $metadata says every set refuses writes, as the service does.
    expect(served).toContain(
      '<EntitySet Name="Clients" EntityType="Database.Customer" sap:searchable="true" sap:creatable="false" sap:updatable="false" sap:deletable="false" />',
    );
    expect(served).toContain('<PropertyValue Property="CollectionPath" String="Clients" />');
    expect(served).toContain('sap:label="Order total"');
    const response = await fetch(`${url}Clients(2)/Orders?$select=Total`, { headers: { accept: 'application/json' } });
    expect(((await response.json()) as { d: { results: { Total: string }[] } }).d.results.map((row) => row.Total)).toEqual(['150']);
    cli.kill('SIGTERM');
    const result = await cli.exited;
    expect([result.code, result.signal, result.stderr]).toEqual([0, null, ['Stopping (SIGTERM)...']]);
    expect(await portIsFree(port)).toBe(true);
  } finally {
    cli.kill('SIGKILL');
  }
}, 60_000);
