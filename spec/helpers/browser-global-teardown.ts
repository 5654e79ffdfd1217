/**
 * Jest global teardown of `npm run test:browser`: stop the UI5 server the setup started, and close
 * the shared PGlite instance (spec/helpers/pglite.ts) that the lane's one worker, jest's own
 * process, holds: its timers would keep the process alive.
 */
import { ui5ServerProcess } from './browser-global-setup';
import { closeSharedPGlite } from './pglite';

export default async function globalTeardown(): Promise<void> {
  await closeSharedPGlite();
  const child = ui5ServerProcess();
  if (child === undefined || child.exitCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}
