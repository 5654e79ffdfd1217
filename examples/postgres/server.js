'use strict';
/**
 * `npm run start:postgres`: the ODataDemo service over PostgreSQL on http://127.0.0.1:4004/odata/
 * (PGlite in examples/postgres/data, or the server at DATABASE_URL). Loopback only unless HOST
 * says otherwise; PORT picks another port (0: any free one). Ctrl-C closes the database cleanly.
 */
const { odataClientErrorHandler } = require('express-odata-v2');
const { createPostgresApp, openDatabase } = require('./app');

const host = process.env.HOST || '127.0.0.1';
const port = process.env.PORT === undefined || process.env.PORT === '' ? 4004 : Number(process.env.PORT);

async function main() {
  const db = openDatabase();
  const app = await createPostgresApp(db);
  const server = app.listen(port, host, () => {
    const address = server.address();
    const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const root = `http://${shown}:${address.port}/odata/`;
    console.log(
      `ODataDemo service over ${db.engine === 'pglite' ? 'PGlite' : 'PostgreSQL'}: ${root}  (listening on ${address.address}; HOST and PORT change that)`,
    );
    console.log(`  try: curl '${root}Products?$filter=Price%20gt%2020&$expand=Category&$format=json'`);
  });
  server.on('clientError', odataClientErrorHandler());
  // Close the pool (or write PGlite's folder out) before leaving.
  const shutdown = () => {
    server.close(() =>
      db.close().then(
        () => process.exit(0),
        () => process.exit(1),
      ),
    );
    server.closeIdleConnections();
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
