/**
 * No global net: nothing in lib/ (the command line included) or examples/ listens for
 * 'uncaughtException' or 'unhandledRejection'. A service survives a failing request, provider or
 * database by handling what it starts (spec/package/survival.spec.ts, survival.pg.spec.ts and
 * outages.pg.spec.ts check the running processes); a process-level handler would hide the failures
 * those specs exist to find.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { join, relative, resolve } from 'path';

const ROOT = resolve(__dirname, '..');

function sources(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'data' ? [] : sources(path);
    return /\.(ts|js|mjs|cjs)$/.test(name) ? [path] : [];
  });
}

const PROCESS_HANDLER =
  /\bprocess\s*\.\s*(on|once|addListener|prependListener|prependOnceListener)\s*\(\s*['"`](uncaughtException|unhandledRejection|uncaughtExceptionMonitor)['"`]/;

it.each(['lib', 'examples'])('%s/ installs no process-level handler for uncaught errors', (folder) => {
  const files = sources(join(ROOT, folder));
  expect(files.length).toBeGreaterThan(3);
  const offending = files.filter((file) => PROCESS_HANDLER.test(readFileSync(file, 'utf8'))).map((file) => relative(ROOT, file));
  expect(offending).toEqual([]);
});

it('would find one', () => {
  expect(PROCESS_HANDLER.test("process.on('unhandledRejection', () => undefined)")).toBe(true);
  expect(PROCESS_HANDLER.test('process .once ( "uncaughtException" , log)')).toBe(true);
  expect(PROCESS_HANDLER.test("process.on('SIGTERM', stop)")).toBe(false);
});
