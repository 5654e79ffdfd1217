'use strict';
/**
 * "ours" over a database: the ODataDemo model at benchmark scale served by SqlProvider through the
 * public API (`express-odata-v2/sql`, dist/), on PGlite, a PostgreSQL server or a SQLite file (sql-engine.js),
 * with the tables createSchema made and the rows seed loaded (bench/sql/prepare.js). With
 * BENCH_SESSION_ROLE (the session lanes), every request runs as that role with a claims setting,
 * as `serve --auth` runs them.
 */
const express = require('express');
const { odata, loadEdmx } = require('express-odata-v2');
const { SqlProvider, pglite, pgliteParsers, postgres, sqlite } = require('express-odata-v2/sql');
const { readMetadata } = require('../data');
const { serveChild } = require('./child');
const { openEngine } = require('./sql-engine');

openEngine(process.env, { parsers: pgliteParsers }).then(
  ({ engine, pglite: instance, url, file }) => {
    const model = loadEdmx(readMetadata());
    const db = engine === 'pglite' ? pglite(instance) : engine === 'sqlite' ? sqlite(file) : postgres(url);
    const app = express();
    // BENCH_MAX_PAGE_SIZE: server-driven paging (the scale bench pages with $skiptoken).
    const maxPageSize = process.env.BENCH_MAX_PAGE_SIZE === undefined ? undefined : Number(process.env.BENCH_MAX_PAGE_SIZE);
    const role = process.env.BENCH_SESSION_ROLE;
    const settings = { 'request.jwt.claims': JSON.stringify({ sub: 'bench', role }) };
    const session = role === undefined ? {} : { session: () => ({ role, settings }) };
    app.use('/odata', odata({ model, provider: new SqlProvider({ model, db, ...session }), maxPageSize }));
    serveChild('ours', app);
  },
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
