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
  const provider = new SqlProvider({ model, db, operations: { GetProductsByRating: (call, context) => productsByRating(provider, call, context) } });
  const app = express();
  app.use('/odata', odata({ model, provider, ...service }));
  return app;
}

const products = model.defaultContainer.entitySets.find((set) => set.name === 'Products');

/** A type-checked property path node (`Rating`), as the service's $filter parser hands one over. */
function member(name) {
  const property = products.entityType.propertiesByName.get(name);
  return { kind: 'Member', path: [name], steps: [{ kind: 'Property', name, property }], type: { kind: 'Primitive', name: property.type.name } };
}

/**
 * FunctionImport GetProductsByRating(rating Edm.Int32): GET, Collection(ODataDemo.Product). The
 * handler asks the provider for `Products?$filter=Rating eq <rating>`: one SELECT with the
 * condition in its WHERE. The service then composes the client's $filter, $orderby, $top, $skip,
 * $inlinecount and $expand on what it returns, as for the memory demo.
 */
async function productsByRating(provider, { parameters }, context) {
  const rating = { kind: 'Literal', literalType: 'Edm.Int32', value: parameters.rating, type: { kind: 'Primitive', name: 'Edm.Int32' } };
  const { entities } = await provider.query(
    {
      entitySet: products,
      entityType: products.entityType,
      path: { root: { entitySet: products, key: undefined }, navigation: [] },
      single: false,
      filter: { kind: 'Binary', operator: 'eq', left: member('Rating'), right: rating, type: { kind: 'Primitive', name: 'Edm.Boolean' } },
      orderBy: [{ expression: member('ID'), direction: 'asc' }],
      skip: undefined,
      top: undefined,
      skipToken: undefined,
      selectExpand: { select: undefined, expand: [] },
      count: false,
      customOptions: {},
    },
    context,
  );
  // A large result streams from the provider; an operation answers an array.
  const rows = [];
  for await (const entity of entities) rows.push(entity);
  return rows;
}

module.exports = { createPostgresApp, openDatabase };
