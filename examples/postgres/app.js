'use strict';
/**
 * The ODataDemo service (examples/odata-demo: its real $metadata and data) served from PostgreSQL
 * by SqlProvider: embedded PGlite in a data folder by default, a PostgreSQL server when
 * DATABASE_URL is set. The tables are created (createSchema) and filled (seed) on the first start.
 *
 * `require('express-odata-v2')` resolves to this package itself (Node's package self-reference),
 * so this file reads exactly like an app that installed the library (and kysely, and
 * @electric-sql/pglite or pg).
 */
const fs = require('fs');
const path = require('path');
const express = require('express');
const { odata, loadEdmx } = require('express-odata-v2');
const { SqlProvider, createSchema, pglite, postgres, seed } = require('express-odata-v2/sql');

const demo = path.join(__dirname, '..', 'odata-demo');
const model = loadEdmx(fs.readFileSync(path.join(demo, 'metadata.xml'), 'utf8'));

/** A server at DATABASE_URL, else PGlite kept in DATA_DIR (default: examples/postgres/data). */
function openDatabase(env = process.env) {
  return env.DATABASE_URL ? postgres(env.DATABASE_URL) : pglite(env.DATA_DIR || path.join(__dirname, 'data'));
}

/** The app over `db`; `service` is merged into the odata() options (paging, limits, a clock in tests). */
async function createPostgresApp(db, service = {}) {
  await createSchema(db, model); // the tables, foreign keys and indexes that are missing
  const seeded = await db.kysely.selectFrom('Categories').select('ID').limit(1).execute();
  if (seeded.length === 0) {
    const data = JSON.parse(fs.readFileSync(path.join(demo, 'data.json'), 'utf8'));
    // data.json keeps the original service's foreign keys: they become links, not properties.
    await seed(db, model, {}, data, { links: { Products: { Category: 'CategoryID', Supplier: 'SupplierID' } } });
  }
  const app = express();
  app.use('/odata', odata({ model, provider: new SqlProvider({ model, db }), ...service }));
  return app;
}

module.exports = { createPostgresApp, openDatabase };
