'use strict';
/**
 * "ours": the ODataDemo model at benchmark scale, served by MemoryProvider through the public API,
 * mounted exactly as a user mounts it. `require('express-odata-v2')` is the package's
 * self-reference (its `exports`), so it runs dist/: `npm run build` first.
 */
const express = require('express');
const { odata, loadEdmx, MemoryProvider } = require('express-odata-v2');
const { buildData, readMetadata } = require('../data');
const { serveChild } = require('./child');

const model = loadEdmx(readMetadata());
const provider = new MemoryProvider(model, buildData(), {
  links: { Products: { Category: 'CategoryID', Supplier: 'SupplierID' } },
});
const app = express();
app.use('/odata', odata({ model, provider }));

serveChild('ours', app);
