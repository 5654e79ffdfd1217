'use strict';
/**
 * The database a SQL benchmark server uses, from its environment (set by bench/run.js):
 * BENCH_ENGINE=pglite with BENCH_PGLITE_DUMP (a data folder dumped by bench/sql/prepare.js, loaded
 * into this process's own in-memory PGlite), BENCH_ENGINE=postgres with BENCH_DATABASE_URL, or
 * BENCH_ENGINE=sqlite with BENCH_SQLITE_FILE (this server's own copy of the prepared file).
 */
const fs = require('fs');

/**
 * `{ engine, pglite?: PGlite instance, url?, file? }`. `parsers`: the PGlite instance's type parsers (ours
 * passes `pgliteParsers`, as docs/sql-provider.md recommends for an instance of your own).
 */
async function openEngine(env = process.env, { parsers } = {}) {
  const engine = env.BENCH_ENGINE;
  if (engine === 'pglite') {
    const { PGlite } = require('@electric-sql/pglite');
    const instance = new PGlite({ loadDataDir: new Blob([fs.readFileSync(env.BENCH_PGLITE_DUMP)]), ...(parsers === undefined ? {} : { parsers }) });
    await instance.waitReady;
    return { engine, pglite: instance };
  }
  if (engine === 'postgres') return { engine, url: env.BENCH_DATABASE_URL };
  if (engine === 'sqlite') return { engine, file: env.BENCH_SQLITE_FILE };
  throw new Error(`BENCH_ENGINE must be pglite, postgres or sqlite, got '${engine}'`);
}

module.exports = { openEngine };
