/**
 * The package as users get it: `npm pack`, install the tarball into a fresh app next to Express,
 * mount the service from CommonJS and read it over HTTP. Also checks what the tarball contains.
 */
import { execFileSync, spawn, spawnSync } from 'child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, readdirSync } from 'fs';
import { tmpdir } from 'os';
import { join, resolve } from 'path';
import { version as expressVersion } from 'express/package.json';
import { packedTarball, tarballFiles } from './packed';

const ROOT = resolve(__dirname, '..', '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function npm(args: string[], cwd: string): string {
  return execFileSync(NPM, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_loglevel: 'error' } });
}

describe('the packed library', () => {
  let work: string;
  let tarball: string;
  let packedFiles: string[] = [];

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'express-odata-v2-pack-'));
    tarball = packedTarball(work);
    packedFiles = tarballFiles(tarball);
  }, 120_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('contains the build, the types, README, the docs and license, and no tests, sources or fixtures', () => {
    expect(packedFiles).toEqual(
      expect.arrayContaining([
        'dist/index.js',
        'dist/index.d.ts',
        'dist/sql/index.js',
        'dist/sql/index.d.ts',
        'dist/testing/index.js',
        'dist/testing/index.d.ts',
        'dist/fiori/index.js',
        'dist/fiori/index.d.ts',
        'README.md',
        'docs/README.md',
        'docs/command-line.md',
        'LICENSE',
        'package.json',
      ]),
    );
    expect(packedFiles.filter((f) => /^(spec|lib|examples)\//.test(f) || f.endsWith('.map') || f.endsWith('.tsbuildinfo'))).toEqual([]);
  });

  it('installs into a fresh Express app and serves the service document', async () => {
    const app = join(work, 'app');
    execFileSync('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
    npm(['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, `express@${expressVersion}`], app);
    expect(readdirSync(join(app, 'node_modules', 'express-odata-v2', 'dist'))).toContain('index.js');
    writeFileSync(
      join(app, 'server.js'),
      `
const express = require('express');
const { odata, defineModel, MemoryProvider } = require('express-odata-v2');
const model = defineModel({ schemas: [{ namespace: 'Shop', entityTypes: [{ name: 'Item', key: ['ID'], properties: [
  { name: 'ID', type: 'Edm.Int32', nullable: false }, { name: 'Name', type: 'Edm.String' } ] }],
  entityContainers: [{ name: 'Container', isDefaultEntityContainer: true, entitySets: [{ name: 'Items', entityType: 'Shop.Item' }] }] }] });
const provider = new MemoryProvider(model, { Items: [{ ID: 1, Name: 'Pen' }] });
const app = express();
app.use('/odata', odata({ model, provider }));
const server = app.listen(0, '127.0.0.1', () => console.log('PORT ' + server.address().port));
`,
    );
    const child = spawn(process.execPath, ['server.js'], { cwd: app, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const port = await new Promise<number>((done, fail) => {
        child.stdout.on('data', (chunk: Buffer) => {
          const match = /PORT (\d+)/.exec(chunk.toString());
          if (match) done(Number(match[1]));
        });
        child.on('exit', (code) => fail(new Error(`server exited with ${code}`)));
      });
      const serviceDocument = await fetch(`http://127.0.0.1:${port}/odata/?$format=json`);
      expect(serviceDocument.status).toBe(200);
      expect(await serviceDocument.json()).toEqual({ d: { EntitySets: ['Items'] } });
      const entry = await fetch(`http://127.0.0.1:${port}/odata/Items(1)?$format=json`);
      expect(((await entry.json()) as { d: { Name: string } }).d.Name).toBe('Pen');

      const created = await fetch(`http://127.0.0.1:${port}/odata/Items`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ ID: 2, Name: 'Ink' }),
      });
      expect([created.status, created.headers.get('location')]).toEqual([201, `http://127.0.0.1:${port}/odata/Items(2)`]);

      const batch = [
        '--b1',
        'Content-Type: multipart/mixed; boundary=c1',
        '',
        '--c1',
        'Content-Type: application/http',
        'Content-Transfer-Encoding: binary',
        '',
        'MERGE Items(2) HTTP/1.1',
        'Content-Type: application/json',
        '',
        '{"Name":"Blue ink"}',
        '--c1--',
        '--b1',
        'Content-Type: application/http',
        'Content-Transfer-Encoding: binary',
        '',
        'GET Items(2)?$format=json HTTP/1.1',
        '',
        '',
        '--b1--',
        '',
      ].join('\r\n');
      const batched = await fetch(`http://127.0.0.1:${port}/odata/$batch`, {
        method: 'POST',
        headers: { 'content-type': 'multipart/mixed; boundary=b1' },
        body: batch,
      });
      expect(batched.status).toBe(202);
      const text = await batched.text();
      expect(text).toContain('HTTP/1.1 204 No Content');
      expect(text).toContain('"Name":"Blue ink"');
    } finally {
      child.kill();
    }
  }, 180_000);

  it('exports express-odata-v2/sql to CommonJS and TypeScript (node10 and node16 resolution), with kysely only', () => {
    const app = join(work, 'sql-app');
    execFileSync('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'sql-consumer', version: '1.0.0', private: true }));
    // kysely is the subpath's one required peer; pg and PGlite are optional and not installed here.
    const version = (name: string): string =>
      (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
    npm(['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, `kysely@${version('kysely')}`, `@types/node@${version('@types/node')}`], app);
    writeFileSync(
      join(app, 'filter.js'),
      `
const { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } = require('kysely');
const { defineModel } = require('express-odata-v2');
const { compileFilterSql, createPostgresEngine, pglite } = require('express-odata-v2/sql');
const model = defineModel({ schemas: [{ namespace: 'Shop', entityTypes: [{ name: 'Item', key: ['ID'], properties: [
  { name: 'ID', type: 'Edm.Int32', nullable: false }, { name: 'Name', type: 'Edm.String' } ] }],
  entityContainers: [{ name: 'C', isDefaultEntityContainer: true, entitySets: [{ name: 'Items', entityType: 'Shop.Item' }] }] }] });
const name = model.entityTypes.get('Shop.Item').propertiesByName.get('Name');
const filter = { kind: 'Binary', operator: 'eq', type: { kind: 'Primitive', name: 'Edm.Boolean' },
  left: { kind: 'Member', path: ['Name'], steps: [{ kind: 'Property', name: 'Name', property: name }], type: { kind: 'Primitive', name: 'Edm.String' } },
  right: { kind: 'Literal', literalType: 'Edm.String', value: 'Pen', type: { kind: 'Primitive', name: 'Edm.String' } } };
const resolver = { column: (path) => ({ sql: sql.ref('t.' + path.properties[0].name), nullable: true }) };
const db = new Kysely({ dialect: { createAdapter: () => new PostgresAdapter(), createDriver: () => new DummyDriver(),
  createIntrospector: (k) => new PostgresIntrospector(k), createQueryCompiler: () => new PostgresQueryCompiler() } });
const { sql: text, parameters } = compileFilterSql(filter, { dialect: createPostgresEngine().expressions, resolver }).compile(db);
console.log(JSON.stringify({ text, parameters }));
sql\`select 1\`.execute(pglite().kysely).catch((error) => console.log(error.message));
`,
    );
    const output = execFileSync(process.execPath, ['filter.js'], { cwd: app, encoding: 'utf8' }).trim().split('\n');
    expect(output).toEqual([
      JSON.stringify({ text: '("t"."Name" = $1::text)', parameters: ['Pen'] }),
      'pglite() needs the package @electric-sql/pglite: npm install @electric-sql/pglite',
    ]);

    writeFileSync(
      join(app, 'consumer.ts'),
      `import { compileFilterSql, pglite, postgres, type SqlDatabase } from 'express-odata-v2/sql';
const databases: SqlDatabase[] = [pglite('./data', { acquireTimeoutMs: 500 }), postgres('postgres://localhost/db')];
export const compile: typeof compileFilterSql = compileFilterSql;
export default databases;
`,
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    for (const resolution of [
      ['--module', 'commonjs', '--moduleResolution', 'node'],
      ['--module', 'node16', '--moduleResolution', 'node16'],
    ]) {
      // skipLibCheck: the consumer's code is checked against our declarations, which the build checked already.
      execFileSync(process.execPath, [tsc, '--noEmit', '--skipLibCheck', '--strict', '--target', 'es2022', ...resolution, 'consumer.ts'], {
        cwd: app,
        encoding: 'utf8',
      });
    }

    // The installed executable (npm links it into node_modules/.bin): it runs with kysely only, and
    // names the driver a postgres:// URL needs in one line.
    const bin = join(app, 'node_modules', '.bin', 'express-odata-v2');
    expect(execFileSync(bin, ['--version'], { cwd: app, encoding: 'utf8' })).toBe(
      `${(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version}\n`,
    );
    const failed = spawnSync(bin, ['serve', '--db', 'postgres://127.0.0.1:1/shop'], { cwd: app, encoding: 'utf8' });
    expect([failed.status, failed.stdout, failed.stderr]).toEqual([
      1,
      '',
      'express-odata-v2: the database at 127.0.0.1:1/shop: postgres() needs the package pg: npm install pg\n',
    ]);
  }, 180_000);

  it('exports express-odata-v2/testing to CommonJS and TypeScript (node10 and node16), with no test framework installed', () => {
    const app = join(work, 'testing-app');
    execFileSync('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'testing-consumer', version: '1.0.0', private: true }));
    const version = (name: string): string =>
      (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
    npm(['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, `@types/node@${version('@types/node')}`], app);
    writeFileSync(
      join(app, 'check.js'),
      `
const { MemoryProvider } = require('express-odata-v2');
const { checkDataProvider } = require('express-odata-v2/testing');
checkDataProvider(({ model, data }) => ({ provider: new MemoryProvider(model, data) }), { groups: ['keys', '$filter nulls'] })
  .then((report) => console.log(JSON.stringify({ ok: report.ok, cases: report.outcomes.length })));
`,
    );
    const output = JSON.parse(execFileSync(process.execPath, ['check.js'], { cwd: app, encoding: 'utf8' }).trim()) as { ok: boolean; cases: number };
    expect(output).toEqual({ ok: true, cases: expect.any(Number) });
    expect(output.cases).toBeGreaterThan(20);

    // The declarations need no @types/jest: a consumer with only @types/node compiles against them,
    // declarations included (no --skipLibCheck).
    writeFileSync(
      join(app, 'consumer.ts'),
      `import { describeDataProvider, type ProviderSetup, type TestHost } from 'express-odata-v2/testing';
declare const setup: ProviderSetup;
declare const host: TestHost;
describeDataProvider('mine', setup, { host, capabilities: { media: false } });
`,
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    for (const resolution of [
      ['--module', 'commonjs', '--moduleResolution', 'node'],
      ['--module', 'node16', '--moduleResolution', 'node16'],
    ]) {
      execFileSync(process.execPath, [tsc, '--noEmit', '--strict', '--target', 'es2022', '--types', 'node', ...resolution, 'consumer.ts'], {
        cwd: app,
        encoding: 'utf8',
      });
    }
  }, 180_000);
});
