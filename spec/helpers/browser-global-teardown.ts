/** Jest global teardown of `npm run test:browser`: stop the UI5 server the setup started. */
import { ui5ServerProcess } from './browser-global-setup';

export default async function globalTeardown(): Promise<void> {
  const child = ui5ServerProcess();
  if (child === undefined || child.exitCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}
