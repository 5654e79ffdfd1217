'use strict';
/**
 * "ours" over a database: the ODataDemo model at benchmark scale served by SqlProvider through the
 * public API (`express-odata-v2/sql`, dist/), on PGlite or a PostgreSQL server (sql-engine.js),
 * with the tables createSchema made and the rows seed loaded (bench/sql/prepare.js).
 */
const express = require('express');
const { odata, loadEdmx } = require('express-odata-v2');
const { SqlProvider, pglite, pgliteParsers, postgres } = require('express-odata-v2/sql');
const { readMetadata } = require('../data');
const { serveChild } = require('./child');
const { openEngine } = require('./sql-engine');

openEngine(process.env, { parsers: pgliteParsers }).then(
  ({ engine, pglite: instance, url }) => {
    const model = loadEdmx(readMetadata());
    const db = engine === 'pglite' ? pglite(instance) : postgres(url);
    const app = express();
    // BENCH_MAX_PAGE_SIZE: server-driven paging (the scale bench pages with $skiptoken).
    const maxPageSize = process.env.BENCH_MAX_PAGE_SIZE === undefined ? undefined : Number(process.env.BENCH_MAX_PAGE_SIZE);
    app.use('/odata', odata({ model, provider: new SqlProvider({ model, db }), maxPageSize }));
    serveChild('ours', app);
  },
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
