// `npm run lint [-- <eslint options>]`: ESLint, the Prettier check and knip, one after the other.
// All three run even when one fails (one run shows every finding); the exit code is non-zero when
// any failed. Options go to ESLint, so `npm run lint -- --fix` applies its fixes.
// Both caches live in node_modules/.cache (a clean clone, as in CI, lints everything). ESLint's cache
// is per file: a type change in one file can leave a cached finding in another stale until that
// file changes; `rm -rf node_modules/.cache/eslint` (or a clean clone) gives the full answer.
import { spawnSync } from 'node:child_process';

const eslintOptions = process.argv.slice(2);
const steps = [
  ['eslint', ['--cache', '--cache-location', 'node_modules/.cache/eslint/', ...eslintOptions, '.']],
  ['prettier', ['--check', '--log-level', 'warn', '--cache', '--cache-location', 'node_modules/.cache/prettier/cache.json', '.']],
  ['knip', []],
];

let failed = 0;
for (const [tool, args] of steps) {
  const started = process.hrtime.bigint();
  const { status, error } = spawnSync(tool, args, { stdio: 'inherit', shell: process.platform === 'win32' });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (error !== undefined || status !== 0) failed++;
  console.log(`${tool}: ${status === 0 ? 'ok' : 'failed'} (${seconds.toFixed(1)} s)`);
}
process.exitCode = failed === 0 ? 0 : 1;
