/**
 * Jest global setup of `npm run test:browser`: start SAPUI5's development server over the pinned
 * packages (spec/browser/ui5-server.mjs, in a child process: @ui5/server is an ES module) and
 * publish the URL of its sap-ui-core.js to the workers (they inherit process.env).
 */
import { spawn, type ChildProcess } from 'child_process';
import { join } from 'path';

/** Where the teardown finds the server this setup started (same process, same global). */
export const UI5_SERVER_KEY = Symbol.for('express-odata-v2.ui5-server');

/** The variable the browser specs read the bootstrap URL from. */
export const UI5_URL_VARIABLE = 'EXPRESS_ODATA_V2_UI5';

export default async function globalSetup(): Promise<void> {
  const child = spawn(process.execPath, [join(__dirname, '..', 'browser', 'ui5-server.mjs')], { stdio: ['ignore', 'pipe', 'pipe'] });
  (globalThis as Record<symbol, unknown>)[UI5_SERVER_KEY] = child;
  process.env[UI5_URL_VARIABLE] = await new Promise<string>((done, fail) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`the UI5 server did not start within 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const match = /^UI5 (\S+)$/m.exec(output);
      if (match !== null) {
        clearTimeout(timer);
        done(match[1]);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`the UI5 server exited with ${String(code)}:\n${output}`));
    });
  });
}

/** The child the setup started, for the teardown. */
export function ui5ServerProcess(): ChildProcess | undefined {
  return (globalThis as Record<symbol, unknown>)[UI5_SERVER_KEY] as ChildProcess | undefined;
}
