'use strict';
/** `node examples/existing-app/server.js`: the app on http://localhost:4005/ (PORT overrides). */
const { createApp } = require('./app');

const port = Number(process.env.PORT) || 4005;
createApp().listen(port, () => {
  const root = `http://localhost:${port}`;
  console.log(`Acme app: ${root}/  (OData service at ${root}/api/odata/)`);
  console.log(`  try: curl -H 'Authorization: Bearer alice-token' '${root}/api/odata/Orders?$format=json'`);
});
