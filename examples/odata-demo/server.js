'use strict';
/**
 * `npm start`: serve the ODataDemo service on http://127.0.0.1:4004/odata/. It listens on the
 * loopback interface only, so a demo never answers the network by accident: HOST=0.0.0.0 (or an
 * interface address) opens it up, PORT picks another port (0: any free one).
 */
const { odataClientErrorHandler } = require('express-odata-v2');
const { createDemoApp } = require('./app');

const host = process.env.HOST || '127.0.0.1';
const port = process.env.PORT === undefined || process.env.PORT === '' ? 4004 : Number(process.env.PORT);

const server = createDemoApp().listen(port, host, () => {
  const address = server.address();
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const root = `http://${shown}:${address.port}/odata/`;
  console.log(`ODataDemo service: ${root}  (listening on ${address.address}; HOST and PORT change that)`);
  console.log(`  try: curl '${root}Products(1)?$format=json'`);
});
// Methods Node's HTTP parser does not know (`FOO`) get 501 with an OData error body, not a bare 400.
server.on('clientError', odataClientErrorHandler());
