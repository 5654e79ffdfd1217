'use strict';
/**
 * An Express app that existed before it served OData: its own routes, a request logger and an
 * authentication middleware. The OData service is one more mount, at /api/odata, behind the same
 * authentication, over the same store, through a small custom DataProvider (provider.js).
 *
 * `require('express-odata-v2')` resolves to this package itself (Node's package self-reference),
 * so this file reads exactly like an app that installed the library.
 */
const compression = require('compression');
const cors = require('cors');
const { odata, odataErrorHandler } = require('express-odata-v2');
const { authenticate } = require('./auth');
const { model } = require('./model');
const { createProvider } = require('./provider');
const { Store } = require('./store');

/** A tiny request logger (an app would often use morgan): one line per finished request. */
function requestLogger(log) {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log(`${req.method} ${req.originalUrl} ${res.statusCode} ${ms.toFixed(1)}ms`);
    });
    next();
  };
}

/**
 * compression's default filter compresses only "compressible" types, and multipart/mixed is not
 * one: without this, `$batch` answers (SAPUI5's main path) would go out uncompressed.
 */
function compressODataToo(req, res) {
  return compression.filter(req, res) || /^multipart\/mixed\b/i.test(String(res.getHeader('Content-Type') || ''));
}

/**
 * CORS for browser apps served from other origins: OData writes use MERGE (and tunnelled POSTs),
 * and a client reads the CSRF token, ETags, versions and Location from response headers, so
 * those must be allowed and exposed. `credentials: true` lets the cookies (the app's session, the
 * CSRF cookie with `csrf: true`) travel.
 */
function corsOptions(origins) {
  return {
    origin: origins,
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'MERGE', 'PATCH', 'DELETE'],
    exposedHeaders: ['x-csrf-token', 'ETag', 'DataServiceVersion', 'Location'],
    maxAge: 600,
  };
}

/**
 * Build the app. Options: `express` (the Express module; tests run 4 and 5), `store` (a Store),
 * `log` (a function taking one line; default console.log), `service` (merged into odata() options),
 * `corsOrigins` (browser origins allowed to call /api; default none).
 */
function createApp(options = {}) {
  const express = options.express || require('express');
  const store = options.store || new Store();
  const log = options.log || ((line) => console.log(line));
  const app = express();

  app.use(requestLogger(log));
  app.use(compression({ filter: compressODataToo }));
  // Before authentication: a CORS preflight (OPTIONS) carries no credentials.
  app.use('/api', cors(corsOptions(options.corsOrigins || [])));
  // The app parses JSON for its own routes, with its own limit; OData bodies that fail here reach
  // odataErrorHandler() below instead of Express's HTML error page.
  app.use(express.json({ limit: '100kb' }));

  // The app's own routes, unchanged by OData.
  app.get('/health', (req, res) => res.json({ status: 'ok' }));
  app.get('/', (req, res) => {
    res.type('html').send('<!doctype html><title>Acme</title><h1>Acme orders</h1><p>OData service: <a href="/api/odata/">/api/odata/</a></p>');
  });

  // Everything under /api needs a signed-in user, the OData service included.
  app.use('/api', authenticate());
  app.get('/api/me', (req, res) => res.json({ name: req.user.name, roles: req.user.roles }));
  app.get('/api/customers/:id/summary', (req, res) => {
    const id = Number(req.params.id);
    const customer = store.get('Customers', id);
    if (customer === undefined) {
      res.status(404).json({ error: 'No such customer.' });
      return;
    }
    const orders = store.all('Orders').filter((order) => order.CustomerID === id);
    res.json({ name: customer.Name, orders: orders.length });
  });

  app.use(
    '/api/odata',
    odata({
      model,
      provider: createProvider(store),
      maxPageSize: 50,
      // 5xx details (provider bugs) go to the app's log; clients only see "An internal error occurred."
      logger: (event) => log(`odata ${event.status} ${event.method} ${event.url}: ${event.message} ${String(event.error)}`),
      ...options.service,
    }),
  );
  // Body-parser failures on the service's routes (malformed JSON, over 100kb) as OData errors.
  app.use('/api/odata', odataErrorHandler());
  return app;
}

module.exports = { createApp };
