/**
 * The command line in this process (runCommand, as lib/cli/main.ts calls it): help on every
 * command, every refusal as one line with its exit code (2 for a mistake in the arguments, 1 for
 * anything else), introspect's files, and a served PGlite folder stopped with its port released.
 * spec/package/cli.spec.ts runs the built executable for what only a process shows (exit codes,
 * signals, no stack trace).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { createServer } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import { runCommand, type CommandOutcome } from '../../lib/cli/run';
import { createTestPGliteFolder } from '../helpers/pglite';

const work = mkdtempSync(join(tmpdir(), 'express-odata-v2-cli-commands-'));
const shop = join(work, 'shop');
const empty = join(work, 'empty');

const SHOP_SQL = `
create table customers (id integer primary key, name varchar(40) not null);
comment on column customers.name is 'Customer name';
create table orders (id integer generated always as identity primary key, customer_id integer not null references customers, total numeric(10,2));
create table audit_log (happened timestamptz not null, message text);
create view big_orders as select * from orders where total > 100;
insert into customers values (1, 'Ada'), (2, 'Grace');
insert into orders (customer_id, total) values (1, 50), (1, 150), (2, 250);
`;

beforeAll(async () => {
  await createTestPGliteFolder(shop, SHOP_SQL);
  await createTestPGliteFolder(empty, '');
}, 60_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Run {
  readonly outcome: CommandOutcome;
  readonly out: string[];
  readonly err: string[];
}

async function runWith(env: Readonly<Record<string, string>>, args: readonly string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const outcome = await runCommand(args, { out: (line) => out.push(line), err: (line) => err.push(line), cwd: work, env });
  return { outcome, out, err };
}

const run = (...args: string[]): Promise<Run> => runWith({}, args);

/** A finished command's exit code and its output, one entry per line written. */
async function exited(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const { outcome, out, err } = await run(...args);
  if (outcome.kind !== 'exit') {
    await outcome.service.close();
    throw new Error(`${args.join(' ')} kept serving`);
  }
  return { code: outcome.code, out, err };
}

/** A port nothing listens on: bound once by the system's choice, then closed. */
function closedPort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => done(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

describe('help', () => {
  it('prints the commands on --help and help, and on no arguments (to stderr, exit 2)', async () => {
    const help = await exited('--help');
    expect(help.code).toBe(0);
    expect(help.out[0]).toMatch(/^Usage: express-odata-v2 <command> \[options\]\n/);
    expect(help.out[0]).toContain('\n  serve       ');
    expect(help.out[0]).toContain('\n  introspect  ');
    expect(await exited('help')).toEqual(help);
    expect(await exited('-h')).toEqual(help);
    expect(await exited()).toEqual({ code: 2, out: [], err: help.out });
  });

  it('prints the version from package.json', async () => {
    const { version } = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
    expect(await exited('--version')).toEqual({ code: 0, out: [version], err: [] });
  });

  it.each([
    [
      'serve',
      [
        '--db',
        '--schema',
        '--include',
        '--exclude',
        '--key',
        '--version-column',
        '--etag',
        '--namespace',
        '--names',
        '--annotations',
        '--metadata',
        '--mapping',
        '--port',
        '--host',
        '--path',
        '--read-only',
        '--csrf',
        '--statement-timeout',
        '--max-page-size',
        '--max-top',
        '--max-expand-depth',
        '--max-expand-breadth',
        '--max-expanded-entities',
        '--max-filter-length',
        '--max-filter-depth',
        '--max-search-terms',
        '--max-body-size',
        '--max-batch-parts',
        '--max-changeset-operations',
        '--provider-timeout',
        '--body-timeout',
        '--auth',
        '--users',
        '--jwt-secret-file',
        '--jwt-public-key-file',
        '--jwt-jwks-url',
        '--jwt-audience',
        '--jwt-issuer',
        '--role-claim',
        '--default-role',
        '--anonymous-role',
        '--allow-anonymous',
        '--ui',
        '--ui5',
        '--help',
      ],
    ],
    [
      'introspect',
      [
        '--db',
        '--schema',
        '--include',
        '--exclude',
        '--key',
        '--version-column',
        '--etag',
        '--namespace',
        '--names',
        '--annotations',
        '--out',
        '--mapping',
        '--force',
        '--help',
      ],
    ],
  ])('%s --help lists every option, in lines of at most 96 columns', async (command, options) => {
    const help = await exited(command, '--help');
    expect(help.code).toBe(0);
    const text = help.out.join('\n');
    expect(text.startsWith(`Usage: express-odata-v2 ${command} --db <url|file|folder> [options]\n`)).toBe(true);
    const listed = [...text.matchAll(/^ {2}(?:-\w, |\s{4})(--[\w-]+)/gm)].map((match) => match[1]);
    expect(listed).toEqual(options);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(96);
    expect(await exited('help', command)).toEqual(help);
    expect(await exited(command, '-h', '--db', 'ignored')).toEqual(help);
  });
});

it('says that serve bounds every statement by 30 s unless told otherwise', async () => {
  const help = (await exited('serve', '--help')).out.join(' ').replace(/\s+/g, ' ');
  expect(help).toContain('--statement-timeout <ms> Cancel a database statement that runs longer');
  expect(help).toContain('answer 503 STATEMENT_TIMEOUT (default 30000; 0 for none).');
});

describe('mistakes in the arguments: one line on stderr, exit code 2', () => {
  it.each([
    [['srve'], "unknown command 'srve' (expected serve, introspect or user). See 'express-odata-v2 --help'."],
    [['help', 'nope'], "help: unknown command 'nope' (expected serve, introspect or user). See 'express-odata-v2 --help'."],
    [['serve', '--prot', '80'], "serve: Unknown option '--prot'. See 'express-odata-v2 serve --help'."],
    [['serve', '--db'], "serve: Option '--db <value>' argument missing. See 'express-odata-v2 serve --help'."],
    [['serve', '--db', 'x', 'extra'], "serve: Unexpected argument 'extra'. See 'express-odata-v2 serve --help'."],
    [['serve', '--db', 'x', '--read-only=yes'], "serve: Option '--read-only' does not take an argument. See 'express-odata-v2 serve --help'."],
    [['serve'], "serve: --db is required (a postgres:// URL, a SQLite file or a PGlite folder), or set DATABASE_URL. See 'express-odata-v2 serve --help'."],
    [
      ['introspect'],
      "introspect: --db is required (a postgres:// URL, a SQLite file or a PGlite folder), or set DATABASE_URL. See 'express-odata-v2 introspect --help'.",
    ],
    [['serve', '--db', 'x', '--names', 'odata-v4'], "serve: --names must be odata or sql, got 'odata-v4'. See 'express-odata-v2 serve --help'."],
    [
      ['introspect', '--db', 'x', '--annotations', 'ui'],
      "introspect: --annotations must be fiori or none, got 'ui'. See 'express-odata-v2 introspect --help'.",
    ],
    [['serve', '--db', 'x', '--port', '70000'], "serve: --port must be an integer from 0 to 65535, got '70000'. See 'express-odata-v2 serve --help'."],
    [['serve', '--db', 'x', '--port', '80a'], "serve: --port must be an integer from 0 to 65535, got '80a'. See 'express-odata-v2 serve --help'."],
    [
      ['serve', '--db', 'x', '--max-page-size', '1000001'],
      "serve: --max-page-size must be an integer from 0 to 1000000, got '1000001'. See 'express-odata-v2 serve --help'.",
    ],
    [['serve', '--db', 'x', '--max-top', '10k'], "serve: --max-top must be an integer from 0 to 1000000000, got '10k'. See 'express-odata-v2 serve --help'."],
    [
      ['serve', '--db', 'x', '--max-expand-depth', '0'],
      "serve: --max-expand-depth must be an integer from 1 to 1000, got '0'. See 'express-odata-v2 serve --help'.",
    ],
    [
      ['serve', '--db', 'x', '--statement-timeout', '30s'],
      "serve: --statement-timeout must be an integer from 0 to 2147483647, got '30s'. See 'express-odata-v2 serve --help'.",
    ],
    [['serve', '--db', 'x', '--key', 'orders'], "serve: --key expects <table>=<column>[,<column>...], got 'orders'. See 'express-odata-v2 serve --help'."],
    [['serve', '--db', 'x', '--path', 'odata'], "serve: --path must start with / (got 'odata'). See 'express-odata-v2 serve --help'."],
    [['serve', '--db', 'x', '--mapping', 'mapping.json'], "serve: --mapping needs --metadata (the model it maps). See 'express-odata-v2 serve --help'."],
    [['serve', '--db', 'x', '--ui5', '/resources/sap-ui-core.js'], "serve: --ui5 needs --ui (the preview it configures). See 'express-odata-v2 serve --help'."],
    [['serve', '--db', 'x', '--ui', '--path', '/'], "serve: --ui needs a --path other than / (the preview is at /). See 'express-odata-v2 serve --help'."],
    [
      ['introspect', '--db', 'x', '--out', 'same.json', '--mapping', 'same.json'],
      "introspect: --out and --mapping name the same file. See 'express-odata-v2 introspect --help'.",
    ],
  ])('%j', async (args, message) => {
    expect(await exited(...args)).toEqual({ code: 2, out: [], err: [`express-odata-v2: ${message}`] });
  });

  it('refuses a --ui5 the preview cannot load from, after connecting', async () => {
    expect(await exited('serve', '--db', 'shop', '--port', '0', '--ui', '--ui5', 'file:///sap-ui-core.js')).toEqual({
      code: 2,
      out: [],
      err: [
        expect.stringMatching(/^warning: The table public\.audit_log/),
        expect.stringMatching(/^warning: The view public\.big_orders/),
        "express-odata-v2: serve: --ui5 must be an http(s) URL, got 'file:///sap-ui-core.js'. See 'express-odata-v2 serve --help'.",
      ],
    });
  });

  it('refuses a namespace introspection cannot use, after connecting', async () => {
    expect(await exited('introspect', '--db', 'shop', '--namespace', '1bad', '--out', 'n.xml', '--mapping', 'n.json')).toEqual({
      code: 2,
      out: [],
      err: [
        "express-odata-v2: introspect: the namespace '1bad' is not a CSDL namespace name (identifiers joined by dots). See 'express-odata-v2 introspect --help'.",
      ],
    });
  });
});

describe('failures: one line on stderr, exit code 1', () => {
  it('names a --db folder that does not exist, or holds no database', async () => {
    mkdirSync(join(work, 'plain'), { recursive: true });
    expect(await exited('serve', '--db', 'missing')).toEqual({
      code: 1,
      out: [],
      err: [
        'express-odata-v2: --db missing: no such file or folder (give a postgres:// URL, a SQLite database file, or the data folder of a PGlite database).',
      ],
    });
    expect(await exited('serve', '--db', 'plain')).toEqual({
      code: 1,
      out: [],
      err: ['express-odata-v2: --db plain: the folder holds no PGlite database (no PG_VERSION file).'],
    });
  });

  it('takes DATABASE_URL when --db is not given', async () => {
    const { outcome, err } = await runWith({ DATABASE_URL: 'missing' }, ['introspect']);
    expect([outcome, err]).toEqual([
      { kind: 'exit', code: 1 },
      [
        'express-odata-v2: DATABASE_URL missing: no such file or folder (give a postgres:// URL, a SQLite database file, or the data folder of a PGlite database).',
      ],
    ]);
  });

  it('says a server that refuses connections is not running there, without the password', async () => {
    const port = await closedPort();
    expect(await exited('introspect', '--db', `postgres://app:secret@127.0.0.1:${port}/shop`)).toEqual({
      code: 1,
      out: [],
      err: [`express-odata-v2: Cannot connect to the database at 127.0.0.1:${port}/shop: connection refused (is the server running, on that host and port?).`],
    });
  });

  it('says an unknown host is not known', async () => {
    const result = await exited('serve', '--db', 'postgres://app:secret@no-such-host.invalid/shop');
    expect(result).toEqual({
      code: 1,
      out: [],
      err: ['express-odata-v2: Cannot connect to the database at no-such-host.invalid/shop: the host name is not known.'],
    });
  });

  it('says a database without tables has nothing to serve', async () => {
    expect(await exited('serve', '--db', 'empty', '--port', '0')).toEqual({
      code: 1,
      out: [],
      err: ["express-odata-v2: No table to serve in schema 'public'."],
    });
  }, 30_000);

  it('names a model or mapping file that is missing, malformed or does not fit, before connecting', async () => {
    writeFileSync(join(work, 'broken.xml'), '<edmx:Edmx');
    writeFileSync(join(work, 'broken.json'), '{');
    const fail = async (...args: string[]): Promise<string> => {
      const result = await exited('serve', '--db', 'missing', ...args);
      expect([result.code, result.out, result.err.length]).toEqual([1, [], 1]);
      return result.err[0];
    };
    expect(await fail('--metadata', 'nothing.xml')).toBe('express-odata-v2: Cannot read nothing.xml: no such file.');
    expect(await fail('--metadata', 'shop')).toBe('express-odata-v2: Cannot read shop: it is a folder.');
    expect(await fail('--metadata', 'broken.xml')).toMatch(/^express-odata-v2: broken\.xml is not a model this library can serve: \S.*$/);
    // A model introspection wrote (the introspection specs' golden file).
    const golden = join(__dirname, '..', 'golden', 'introspect', 'fixture.xml');
    expect(await fail('--metadata', golden, '--mapping', 'broken.json')).toMatch(/^express-odata-v2: broken\.json is not JSON: \S.*$/);
    writeFileSync(join(work, 'wrong.json'), JSON.stringify({ version: 1, entitySets: {}, associationSets: {} }));
    const mismatch = await fail('--metadata', golden, '--mapping', 'wrong.json');
    // The first five problems and how many more, on one line.
    expect(mismatch).toBe(
      `express-odata-v2: wrong.json does not fit ${golden}: EntitySet 'all_types': not mapped. EntitySet 'all_types': no table. ` +
        "EntitySet 'all_types' / property 'id': no column. EntitySet 'all_types' / property 'c_bool': no column. EntitySet 'all_types' / property 'c_int2': no column. (and 148 more)",
    );
  });

  it('says a port in use is in use', async () => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
    const address = blocker.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      expect(await exited('serve', '--db', 'shop', '--port', String(port), '--exclude', 'audit_log', '--exclude', 'big_orders')).toEqual({
        code: 1,
        out: [],
        err: [`express-odata-v2: Cannot listen on http://127.0.0.1:${port}: the port is in use (choose another with --port, or --port 0 for a free one).`],
      });
    } finally {
      await new Promise((done) => blocker.close(done));
    }
  }, 30_000);
});

describe('introspect', () => {
  it('writes metadata.xml and mapping.json, warns about what it left out, and keeps existing files', async () => {
    const folder = join(work, 'out');
    mkdirSync(folder);
    const result = await exited('introspect', '--db', shop, '--out', join(folder, 'metadata.xml'), '--mapping', join(folder, 'mapping.json'));
    expect(result.code).toBe(0);
    expect(result.out).toEqual([
      `Wrote ${join(folder, 'metadata.xml')} (2 entity sets, 1 association) and ${join(folder, 'mapping.json')} from the PGlite database in ${shop}.`,
    ]);
    expect(result.err).toEqual([
      expect.stringMatching(/^warning: The table public\.audit_log is left out: .*--key.*$/),
      expect.stringMatching(/^warning: The view public\.big_orders is left out: .*--key.*$/),
    ]);
    const metadata = readFileSync(join(folder, 'metadata.xml'), 'utf8');
    expect(metadata).toContain('<Property Name="Name" Type="Edm.String" Nullable="false" MaxLength="40" sap:label="Customer name">');
    const mapping = JSON.parse(readFileSync(join(folder, 'mapping.json'), 'utf8')) as {
      entitySets: Record<string, { table: string; columns: Record<string, string>; storeGenerated?: unknown }>;
    };
    expect(mapping.entitySets.Orders).toMatchObject({ table: 'orders', columns: { ID: 'id', CustomerID: 'customer_id' }, storeGenerated: { ID: 'identity' } });

    const again = await exited('introspect', '--db', shop, '--out', join(folder, 'metadata.xml'), '--mapping', join(folder, 'other.json'));
    expect(again).toEqual({
      code: 1,
      out: [],
      err: [`express-odata-v2: ${join(folder, 'metadata.xml')} exists; give --force to replace it (it may hold your edits).`],
    });
    expect(existsSync(join(folder, 'other.json'))).toBe(false);
    const forced = await exited(
      'introspect',
      '--db',
      shop,
      '--out',
      join(folder, 'metadata.xml'),
      '--mapping',
      join(folder, 'mapping.json'),
      '--force',
      '--key',
      'big_orders=id',
      '--key',
      'audit_log=happened',
      '--namespace',
      'Shop',
    );
    expect([forced.code, forced.err]).toEqual([
      0,
      [expect.stringMatching(/^warning: The view public\.big_orders has no ETag: only a table has a row version/)],
    ]);
    expect(forced.out[0]).toMatch(/\(4 entity sets, 1 association\)/);
    expect(readFileSync(join(folder, 'metadata.xml'), 'utf8')).toContain('<Schema Namespace="Shop"');

    expect(readFileSync(join(folder, 'metadata.xml'), 'utf8')).toContain('<Annotations Target="Shop.Order" xmlns="http://docs.oasis-open.org/odata/ns/edm">');
    const sqlNames = await exited(
      'introspect',
      '--db',
      shop,
      '--out',
      join(folder, 'sql.xml'),
      '--mapping',
      join(folder, 'sql.json'),
      '--names',
      'sql',
      '--annotations',
      'none',
    );
    expect(sqlNames.code).toBe(0);
    const plain = readFileSync(join(folder, 'sql.xml'), 'utf8');
    expect(plain).toContain('<EntitySet Name="orders" EntityType="Database.orders" />');
    expect(plain).not.toContain('Annotations');
  }, 30_000);

  it('refuses a --key two rows share, in one line, before writing anything', async () => {
    const folder = join(work, 'shared-key');
    mkdirSync(folder);
    const result = await exited(
      'introspect',
      '--db',
      shop,
      '--key',
      'orders=customer_id',
      '--out',
      join(folder, 'metadata.xml'),
      '--mapping',
      join(folder, 'mapping.json'),
    );
    expect(result.code).toBe(1);
    expect(result.err.slice(-1)).toEqual([
      "express-odata-v2: The key (customer_id) of public.orders (entity set Orders) does not identify one row: two or more rows have customer_id = '1'. Give key columns that are unique and never null.",
    ]);
    expect(existsSync(join(folder, 'metadata.xml'))).toBe(false);
  }, 30_000);

  it('gives tables the row version as ETag by default, and none with --etag none', async () => {
    const folder = join(work, 'etags');
    mkdirSync(folder);
    const etags = async (...extra: string[]): Promise<Record<string, unknown>> => {
      const written = await exited(
        'introspect',
        '--db',
        shop,
        '--out',
        join(folder, 'metadata.xml'),
        '--mapping',
        join(folder, 'mapping.json'),
        '--force',
        '--names',
        'sql',
        ...extra,
      );
      expect(written.code).toBe(0);
      const mapping = JSON.parse(readFileSync(join(folder, 'mapping.json'), 'utf8')) as { entitySets: Record<string, { etag?: unknown }> };
      return Object.fromEntries(Object.entries(mapping.entitySets).map(([name, set]) => [name, set.etag]));
    };
    expect(await etags()).toEqual({ customers: 'xmin', orders: 'xmin' });
    expect(await etags('--etag', 'xmin')).toEqual({ customers: 'xmin', orders: 'xmin' });
    expect(await etags('--etag', 'none')).toEqual({ customers: undefined, orders: undefined });
    // A column name: that column is the token where a table has it (no row version there), xmin elsewhere.
    expect(await etags('--etag', 'total')).toEqual({ customers: 'xmin', orders: undefined });
    expect(readFileSync(join(folder, 'metadata.xml'), 'utf8')).toMatch(/<Property Name="total" [^>]*ConcurrencyMode="Fixed"/);
  }, 30_000);
});

describe('serve in this process', () => {
  it('serves, logs one line per request, and releases the port and the database on close', async () => {
    const { outcome, out, err } = await run('serve', '--db', 'shop', '--port', '0', '--path', '/api/v1', '--key', 'big_orders=id');
    if (outcome.kind !== 'serving') throw new Error(err.join('\n'));
    const { url } = outcome.service;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/$/);
    expect(out).toEqual([`Serving 3 entity sets of the PGlite database in shop at ${url}`]);
    expect(err).toEqual([
      expect.stringMatching(/^warning: The table public\.audit_log is left out/),
      expect.stringMatching(/^warning: The view public\.big_orders has no ETag/),
    ]);
    try {
      const response = await fetch(`${url}BigOrders?$select=ID&$orderby=ID`, { headers: { accept: 'application/json' } });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { d: { results: { ID: number }[] } }).d.results.map((row) => row.ID)).toEqual([2, 3]);
      const root = await fetch(url.replace(/\/api\/v1\/$/, '/'));
      expect([root.status, await root.text()]).toEqual([404, 'Not found. The OData service is at /api/v1/\n']);
      await new Promise((done) => setTimeout(done, 50));
      expect(out.slice(1)).toEqual([
        expect.stringMatching(/^\S+Z GET \/api\/v1\/BigOrders\?\$select=ID&\$orderby=ID 200 \d+ms$/),
        expect.stringMatching(/^\S+Z GET \/ 404 \d+ms$/),
      ]);
    } finally {
      await outcome.service.close();
    }
    await expect(fetch(url)).rejects.toThrow();
    // The folder is free again: another command opens it.
    expect((await exited('introspect', '--db', 'shop', '--out', 'again.xml', '--mapping', 'again.json')).code).toBe(0);
  }, 30_000);

  it('serves the Fiori preview at / with --ui, its apps calling the service at --path and loading SAPUI5 from --ui5', async () => {
    const { outcome, out, err } = await run(
      'serve',
      '--db',
      'shop',
      '--port',
      '0',
      '--path',
      '/api',
      '--ui',
      '--ui5',
      'http://127.0.0.1:1/resources/sap-ui-core.js',
    );
    if (outcome.kind !== 'serving') throw new Error(err.join('\n'));
    const { url } = outcome.service;
    const root = url.replace(/\/api\/$/, '/');
    expect(out).toEqual([`Serving 2 entity sets of the PGlite database in shop at ${url}`, `Fiori preview at ${root}`]);
    try {
      const launch = await fetch(root);
      expect([launch.status, launch.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
      const links = [...(await launch.text()).matchAll(/data-entity-set="([^"]+)"/g)].map((match) => match[1]);
      expect(links).toEqual(['Customers', 'Orders']);
      const app = await (await fetch(`${root}apps/Orders/`)).text();
      expect(app).toContain('src="http://127.0.0.1:1/resources/sap-ui-core.js"');
      const manifest = (await (await fetch(`${root}apps/Orders/manifest.json`)).json()) as { 'sap.app': { dataSources: { mainService: { uri: string } } } };
      expect(manifest['sap.app'].dataSources.mainService.uri).toBe('/api/');
      const elsewhere = await fetch(`${root}nothing`);
      expect([elsewhere.status, await elsewhere.text()]).toEqual([404, 'Not found. The OData service is at /api/, its preview at /\n']);
    } finally {
      await outcome.service.close();
    }
  }, 30_000);

  it('gives a display-only preview with --read-only: the launch page and $metadata say every set refuses writes', async () => {
    const { outcome, err } = await run('serve', '--db', 'shop', '--port', '0', '--ui', '--read-only');
    if (outcome.kind !== 'serving') throw new Error(err.join('\n'));
    const { url } = outcome.service;
    try {
      const launch = await (await fetch(url.replace(/\/odata\/$/, '/'))).text();
      const capabilities = [...launch.matchAll(/data-entity-set="([^"]+)".*?<span class="capabilities">([^<]*)<\/span>/g)].map((match) => [match[1], match[2]]);
      expect(capabilities).toEqual([
        ['Customers', 'display only'],
        ['Orders', 'display only'],
      ]);
      const metadata = await (await fetch(`${url}$metadata`)).text();
      expect(
        metadata
          .match(/<EntitySet [^>]*>/g)
          ?.map((set) => /sap:creatable="false"/.test(set) && /sap:updatable="false"/.test(set) && /sap:deletable="false"/.test(set)),
      ).toEqual([true, true]);
    } finally {
      await outcome.service.close();
    }
  }, 30_000);
});

describe('stopped before it is done (Ctrl-C during introspection)', () => {
  async function interrupted(signal: NodeJS.Signals, ...args: string[]): Promise<{ code: number; err: string[] }> {
    const err: string[] = [];
    const interrupt = new AbortController();
    const running = runCommand(args, { out: () => undefined, err: (line) => err.push(line), cwd: work, env: {}, signal: interrupt.signal });
    interrupt.abort(signal); // while the database is being opened and read
    const outcome = await running;
    if (outcome.kind !== 'exit') {
      await outcome.service.close();
      throw new Error(`${args.join(' ')} kept serving after ${signal}`);
    }
    return { code: outcome.code, err };
  }

  it.each([
    ['introspect', 'SIGINT', 130],
    ['introspect', 'SIGTERM', 143],
    ['serve', 'SIGINT', 130],
  ] as const)(
    '%s stops at its next step on %s: exit %i, nothing written, the database closed',
    async (command, signal, code) => {
      const out = join(work, `stopped-${command}-${signal}`);
      mkdirSync(out);
      const args =
        command === 'introspect'
          ? [command, '--db', shop, '--out', join(out, 'm.xml'), '--mapping', join(out, 'm.json')]
          : [command, '--db', shop, '--port', '0'];
      expect(await interrupted(signal, ...args)).toEqual({
        code,
        err: [`express-odata-v2: stopped by ${signal} before the command was done; nothing was written.`],
      });
      expect(existsSync(join(out, 'm.xml')) || existsSync(join(out, 'm.json'))).toBe(false);
      // The folder was closed: the next command opens it.
      expect((await exited('introspect', '--db', shop, '--out', join(out, 'again.xml'), '--mapping', join(out, 'again.json'))).code).toBe(0);
    },
    60_000,
  );
});
