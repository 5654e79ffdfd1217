'use strict';
/**
 * `node examples/existing-app/server.js`: the app on http://127.0.0.1:4005/, the loopback
 * interface only; HOST=0.0.0.0 (or an interface address) opens it up, PORT picks another port.
 */
const { odataClientErrorHandler } = require('express-odata-v2');
const { createApp } = require('./app');

const host = process.env.HOST || '127.0.0.1';
const port = process.env.PORT === undefined || process.env.PORT === '' ? 4005 : Number(process.env.PORT);

const server = createApp().listen(port, host, () => {
  const address = server.address();
  const root = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  console.log(`Acme app: ${root}/  (OData service at ${root}/api/odata/)`);
  console.log(`  try: curl -H 'Authorization: Bearer alice-token' '${root}/api/odata/Orders?$format=json'`);
});
// Methods Node's HTTP parser does not know (`FOO`) get 501 with an OData error body, not a bare 400.
server.on('clientError', odataClientErrorHandler());
