'use strict';
/**
 * The databases of the SQL benchmark lanes, prepared once per run in the parent process: the
 * benchmark data (bench/data.js) in the tables createSchema makes, loaded by seed, with the indexes
 * docs/sql-provider.md recommends for the scenarios' orders, then ANALYZE.
 *
 * - PGlite: built in memory, dumped to a file; each server process loads its own copy.
 * - SQLite: built in a file; each server process opens its own copy.
 * - PostgreSQL: the server at DATABASE_URL (a database of its own, dropped afterwards), else a
 *   throwaway server started by the harness of `npm run test:postgres`
 *   (spec/helpers/postgres-server.ts, transpiled here), or `undefined` when there are no server
 *   binaries (the caller prints why and skips the lane).
 */
const fs = require('fs');
const Module = require('module');
const path = require('path');
const { loadEdmx } = require('express-odata-v2');
const { createSchema, pglite, postgres, seed, sqlite } = require('express-odata-v2/sql');
const { buildData, readMetadata } = require('../data');

const ROOT = path.join(__dirname, '..', '..');
const LINKS = { Products: { Category: 'CategoryID', Supplier: 'SupplierID' } };

/** The indexes the docs recommend for `$orderby=Name` and `$orderby=Price` (and their $skiptoken pages). */
const INDEXES = [
  'create index if not exists "Products_Name_ID_idx" on "Products" ("Name" nulls first, "ID")',
  'create index if not exists "Products_Price_ID_idx" on "Products" ("Price", "ID")',
];

/** The same on SQLite, which orders nulls first ascending by itself (and takes no NULLS FIRST in an index). */
const SQLITE_INDEXES = ['create index if not exists "Products_Name_ID_idx" on "Products" ("Name", "ID")'];

/** Tables, rows, indexes and statistics in `db`. */
async function load(db, data = buildData(), indexes = INDEXES) {
  const model = loadEdmx(readMetadata());
  await createSchema(db, model);
  await seed(db, model, {}, data, { links: LINKS });
  await exec(db, indexes);
  await exec(db, ['analyze']);
}

async function exec(db, statements) {
  const { sql } = require('kysely');
  for (const statement of statements) await sql.raw(statement).execute(db.kysely);
}

/**
 * The role of the session lanes (`pglite-session`, `postgres-session`): every privilege on the
 * benchmark's tables, no row-level security policy (the lanes measure what the session itself
 * costs: a transaction and its set_config statement per read, no write run alone).
 */
const SESSION_ROLE = 'eov2_bench_reader';
const SESSION_ROLE_STATEMENTS = [
  `do $$ begin if not exists (select from pg_catalog.pg_roles where rolname = '${SESSION_ROLE}') then create role ${SESSION_ROLE}; end if; end $$`,
  `grant usage on schema public to ${SESSION_ROLE}`,
  `grant select, insert, update, delete on all tables in schema public to ${SESSION_ROLE}`,
  `grant usage on all sequences in schema public to ${SESSION_ROLE}`,
];

/** A PGlite data folder with the benchmark data (and `statements` run after it), dumped to `file`. */
async function preparePGlite(file, statements = []) {
  const { PGlite } = require('@electric-sql/pglite');
  const instance = new PGlite();
  await instance.waitReady;
  try {
    const db = pglite(instance);
    await load(db);
    await exec(db, statements);
    const dump = await instance.dumpDataDir('none');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await instance.close();
  }
}

/** A SQLite file with the benchmark data at `file` (replaced when it exists), closed and checkpointed. */
async function prepareSqlite(file) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true });
  const db = sqlite(file);
  try {
    await load(db, buildData(), SQLITE_INDEXES);
  } finally {
    await db.close();
  }
}

/** spec/helpers/postgres-server.ts, transpiled and loaded (the same harness as `npm run test:postgres`). */
function loadHarness() {
  const ts = require('typescript');
  const file = path.join(ROOT, 'spec', 'helpers', 'postgres-server.ts');
  const { outputText } = ts.transpileModule(fs.readFileSync(file, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  const harness = new Module(file, module);
  harness.filename = file;
  harness.paths = Module._nodeModulePaths(path.dirname(file));
  harness._compile(outputText, file);
  return harness.exports;
}

/**
 * A PostgreSQL database for the lane, loaded by `fill(db)`: `{ url, server, close }`, or
 * `{ skipped: reason }`. `close()` drops the database and stops a server this started.
 */
async function preparePostgres(fill = load, { name = 'eov2_bench' } = {}) {
  let server;
  let serverUrl = process.env.DATABASE_URL;
  if (serverUrl === undefined || serverUrl === '') {
    const { startPostgres } = loadHarness();
    try {
      // The server's own settings, not the test harness's far-away time zone: a benchmark wants defaults.
      server = await startPostgres({ timezone: 'UTC', settings: { shared_buffers: '256MB' } });
    } catch (error) {
      // Only a machine without server binaries skips the lane; a server that fails to start is an error.
      if (error instanceof Error && error.message.startsWith('No PostgreSQL server binaries')) return { skipped: error.message };
      throw error;
    }
    serverUrl = server.url;
  }
  const { Client } = require('pg');
  const admin = async (statement) => {
    const client = new Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  const database = `${name}_${process.pid}`;
  await admin(`create database "${database}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  const db = postgres(url.toString());
  try {
    await fill(db);
  } finally {
    await db.close();
  }
  return {
    url: url.toString(),
    server: server === undefined ? `DATABASE_URL` : `a throwaway server (${server.dataDir})`,
    /** The data folder of a server this started (its postmaster.pid names the server process), else undefined. */
    dataDir: server === undefined ? undefined : server.dataDir,
    async close() {
      await admin(`drop database if exists "${database}" with (force)`).catch(() => undefined);
      if (server !== undefined) await server.stop();
    },
  };
}

module.exports = { load, exec, preparePGlite, preparePostgres, prepareSqlite, SESSION_ROLE, SESSION_ROLE_STATEMENTS };
