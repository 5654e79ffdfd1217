'use strict';
/** `npm start`: serve the ODataDemo service on http://localhost:4004/odata/ (PORT overrides). */
const { createDemoApp } = require('./app');

const port = Number(process.env.PORT) || 4004;
createDemoApp().listen(port, () => {
  console.log(`ODataDemo service: http://localhost:${port}/odata/`);
  console.log(`  try: curl 'http://localhost:${port}/odata/Products(1)?$format=json'`);
});
