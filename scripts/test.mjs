// `npm test [-- <jest options>]`: the fast lane. Two things run side by side, as they need nothing
// from each other: the type-check and lint chain, and jest with coverage (options after `--` go to
// jest). The chain is one incremental `tsc -b` (dist/, the specs, examples and bench against it, and
// the type tests in spec/types), then `npm run lint` (ESLint, Prettier, knip). Its output is held
// and printed as one block when it ends, so it never interleaves with jest's; every step runs even
// when another failed, and the exit code is non-zero when any failed. Jest gets every core: the
// chain needs one for its first minute or two, jest keeps them all busy after that.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const jestOptions = process.argv.slice(2);
const windows = process.platform === 'win32';

/** Run a command; resolves with its exit status, its output (when held) and its seconds. */
function run(command, args, { hold }) {
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: hold ? ['ignore', 'pipe', 'pipe'] : 'inherit', shell: windows });
    let output = '';
    if (hold) {
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
    }
    const done = (status) => resolve({ status, output, seconds: Number(process.hrtime.bigint() - started) / 1e9 });
    child.on('error', (error) => {
      output += `${command}: ${error.message}\n`;
      done(1);
    });
    child.on('close', (code) => done(code ?? 1));
  });
}

const results = [];
const record = (name, result) => {
  results.push({ name, ...result });
  return result;
};

async function chain() {
  const steps = [
    ['types', 'tsc', ['-b', 'tsconfig.json', 'spec/types']],
    ['lint', 'node', ['scripts/lint.mjs']],
  ];
  for (const [name, command, args] of steps) {
    const result = record(name, await run(command, args, { hold: true }));
    process.stdout.write(`\n── ${name} (${command} ${args.join(' ')}): ${result.status === 0 ? 'ok' : 'FAILED'}\n${result.output}`);
  }
}

// Unless the options choose the workers themselves (-w, --maxWorkers, -i, --runInBand).
const chosen = jestOptions.some((option) => /^(-w|--maxWorkers|-i|--runInBand)(=|$)/.test(option));
const workers = chosen ? [] : [`--maxWorkers=${Math.max(1, availableParallelism())}`];
await Promise.all([chain(), run('jest', ['--coverage', ...workers, ...jestOptions], { hold: false }).then((result) => record('jest', result))]);

console.log('\nnpm test:');
for (const { name, status, seconds } of results) console.log(`  ${name.padEnd(6)} ${status === 0 ? 'ok    ' : 'FAILED'} ${seconds.toFixed(1).padStart(6)} s`);
process.exitCode = results.every(({ status }) => status === 0) ? 0 : 1;
