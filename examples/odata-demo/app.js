'use strict';
/**
 * The ODataDemo reference service (services.odata.org/V2/OData/OData.svc), rebuilt with
 * express-odata-v2: its real $metadata, its data, and an in-memory provider.
 *
 * `require('express-odata-v2')` resolves to this package itself (Node's package self-reference),
 * so this file reads exactly like an app that installed the library.
 */
const fs = require('fs');
const path = require('path');
const { odata, loadEdmx, MemoryProvider } = require('express-odata-v2');

const metadata = fs.readFileSync(path.join(__dirname, 'metadata.xml'), 'utf8');
const data = JSON.parse(fs.readFileSync(path.join(__dirname, 'data.json'), 'utf8'));

/**
 * Build the demo app. `options.express` picks the Express module (the tests run Express 4 and 5);
 * `options.service` is merged into the odata() options (paging, limits, a fixed clock in tests).
 */
function createDemoApp(options = {}) {
  const express = options.express || require('express');
  const model = loadEdmx(metadata);
  // data.json keeps the original service's foreign keys: CategoryID and SupplierID are link
  // targets, not properties of ODataDemo.Product, so they become links and are never emitted.
  const products = model.entitySets.get('Products');
  const provider = new MemoryProvider(model, data, {
    links: { Products: { Category: 'CategoryID', Supplier: 'SupplierID' } },
    operations: {
      // FunctionImport GetProductsByRating(rating Edm.Int32): GET, Collection(ODataDemo.Product).
      // The service composes $filter, $orderby, $top, $skip, $inlinecount and $expand on the result.
      GetProductsByRating: async ({ parameters }) => provider.store.all(products).filter((product) => product.Rating === parameters.rating),
    },
  });
  const app = express();
  app.use('/odata', odata({ model, provider, ...options.service }));
  return app;
}

module.exports = { createDemoApp };
