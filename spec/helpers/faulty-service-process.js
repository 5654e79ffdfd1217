'use strict';
/**
 * The faulty Gallery service (faulty-service.ts, over lib/ from its sources) as a process of its
 * own, for spec/package/survival.spec.ts: prints `Serving at <root>` once it listens, and never
 * exits on its own. It installs no process-level handler: whatever a request does, the library must handle it.
 */
require('./ts-require');
const { startFaultyService } = require('./faulty-service.ts');

startFaultyService().then(
  (service) => process.stdout.write(`Serving at ${service.root}\n`),
  (error) => {
    process.stderr.write(`${error && error.stack}\n`);
    process.exitCode = 1;
  },
);
