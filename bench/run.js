'use strict';
/**
 * `npm run bench`: express-odata-v2 ("ours") against a bare-Express ceiling, scenario by scenario.
 * For each scenario: start both servers (one child process each, 127.0.0.1), check one answer of
 * each (a check failure aborts the scenario), warm up, then measured rounds with the servers
 * alternating; medians of req/s and latency, peak RSS, and ours/ceiling. See docs/performance.md.
 *
 * Engines (BENCH_ENGINES [--engines=memory,pglite,postgres,sqlite], these four by default): `memory` is ours over
 * MemoryProvider against the bare-Express ceiling; `pglite`, `postgres` and `sqlite` are ours over
 * SqlProvider against a database ceiling on the same engine (bench/servers/sql-ceiling.js: one
 * hand-written statement per scenario, the same bytes, asserted before anything is timed; on
 * SQLite, better-sqlite3 with each statement prepared once, each server on its own copy of a file).
 * `postgres` uses DATABASE_URL, else a throwaway server started by the test:postgres harness, and
 * is skipped with a printed line when there are no server binaries. `pglite-session` and
 * `postgres-session` (on request) are those lanes with SqlProvider's `session` on: each request
 * runs as a database role, against the same ceiling.
 *
 * Settings (env, or the flags in brackets): BENCH_DURATION seconds per round [--duration=], BENCH_ROUNDS
 * [--rounds=], BENCH_WARMUP seconds [--warmup=], BENCH_CONNECTIONS [--connections=], BENCH_SCENARIOS
 * [--only=S1,S3], BENCH_SERVERS [--servers=ceiling], BENCH_QUICK=1 [--quick], BENCH_PROFILE=1
 * [--profile] (--cpu-prof for ours), [--update-docs] (write the table into docs/performance.md).
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');
const { execSync } = require('child_process');
const autocannon = require('autocannon');
const { SCENARIOS, normalizeBody } = require('./scenarios');
const { startServer, SERVER_FILES } = require('./servers/process');
const { formatTable, formatMarkdown, updateDocs } = require('./report');

const ROOT = path.join(__dirname, '..');
const RESULTS_DIR = path.join(__dirname, 'results');

// ---- settings ----

const FLAGS = new Set(['quick', 'duration', 'rounds', 'warmup', 'connections', 'only', 'servers', 'engines', 'profile', 'update-docs']);
const ENGINES = ['memory', 'pglite', 'postgres', 'sqlite', 'pglite-session', 'postgres-session'];
const DEFAULT_ENGINES = ['memory', 'pglite', 'postgres', 'sqlite'];

/** Scenarios a SQL lane leaves out, and why. */
const SQL_SKIPS = { S9: '$metadata reads no database' };
const SQL_FILES = { ours: path.join(__dirname, 'servers', 'sql-ours.js'), ceiling: path.join(__dirname, 'servers', 'sql-ceiling.js') };

function readSettings(argv, env) {
  const flags = new Map();
  for (const arg of argv) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (match === null || !FLAGS.has(match[1])) throw new Error(`unknown argument '${arg}' (flags: ${[...FLAGS].map((f) => `--${f}`).join(', ')})`);
    flags.set(match[1], match[2] === undefined ? '1' : match[2]);
  }
  const pick = (flag, name) => (flags.has(flag) ? flags.get(flag) : env[name]);
  const quick = pick('quick', 'BENCH_QUICK') === '1';
  const number = (flag, name, fallback, min) => {
    const text = pick(flag, name);
    if (text === undefined || text === '') return fallback;
    const value = Number(text);
    if (!Number.isFinite(value) || value < min) throw new Error(`${name} / --${flag} must be a number >= ${min}, got '${text}'`);
    return value;
  };
  const list = (flag, name) => {
    const text = pick(flag, name);
    return text === undefined || text === ''
      ? undefined
      : text
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  };
  // autocannon samples once a second and stops on a tick: durations are whole seconds.
  const settings = {
    quick,
    duration: Math.round(number('duration', 'BENCH_DURATION', quick ? 1 : 3, 1)),
    rounds: Math.round(number('rounds', 'BENCH_ROUNDS', quick ? 2 : 3, 1)),
    warmup: Math.round(number('warmup', 'BENCH_WARMUP', quick ? 1 : 2, 0)),
    connections: Math.round(number('connections', 'BENCH_CONNECTIONS', 10, 1)),
    scenarios: list('only', 'BENCH_SCENARIOS'),
    servers: list('servers', 'BENCH_SERVERS') || ['ours', 'ceiling'],
    engines: list('engines', 'BENCH_ENGINES') || DEFAULT_ENGINES,
    profile: pick('profile', 'BENCH_PROFILE') === '1',
    updateDocs: flags.has('update-docs'),
  };
  for (const server of settings.servers) {
    if (server !== 'ours' && server !== 'ceiling') throw new Error(`unknown server '${server}' (ours, ceiling)`);
  }
  for (const engine of settings.engines) {
    if (!ENGINES.includes(engine)) throw new Error(`unknown engine '${engine}' (${ENGINES.join(', ')})`);
  }
  if (settings.scenarios !== undefined) {
    const known = new Set(SCENARIOS.map((s) => s.id));
    for (const id of settings.scenarios) if (!known.has(id)) throw new Error(`unknown scenario '${id}' (${[...known].join(', ')})`);
  }
  return settings;
}

// ---- one request, for the checks ----

function fetchOnce(port, { method, path: target, headers = {}, body }) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(body);
    const request = http.request(
      { host: '127.0.0.1', port, method, path: target, agent: false, headers: payload ? { ...headers, 'content-length': payload.length } : headers },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      },
    );
    request.setTimeout(30000, () => request.destroy(new Error(`no answer to ${method} ${target} within 30 s`)));
    request.on('error', reject);
    request.end(payload);
  });
}

/**
 * Send the scenario's request once and run its check; resolves to the response, rejects with the
 * reason. `id` is the new key for a write scenario: the same for both servers (each has its own
 * store), so their answers compare byte for byte.
 */
async function checkServer(scenario, server, id) {
  const body = scenario.makeBody ? scenario.makeBody(id) : scenario.body;
  const response = await fetchOnce(server.port, { method: scenario.method, path: scenario.path, headers: scenario.headers, body });
  const root = `http://127.0.0.1:${server.port}/odata/`;
  try {
    await scenario.check(response, { root, id, fetch: (request) => fetchOnce(server.port, request) });
  } catch (error) {
    const excerpt = response.body.toString('utf8', 0, 300).replace(/\s+/g, ' ');
    throw new Error(`${error.message}\n      (status ${response.status}, ${response.headers['content-type']}; body starts: ${excerpt})`, { cause: error });
  }
  return response;
}

// ---- load ----

function load(server, scenario, seconds, connections) {
  const request = { method: scenario.method, path: scenario.path, headers: scenario.headers || {} };
  if (scenario.makeBody) {
    request.setupRequest = (req) => ({ ...req, body: scenario.makeBody(scenario.takeId()) });
  } else if (scenario.body !== undefined) {
    request.body = scenario.body;
  }
  // autocannon's own histogram keeps whole milliseconds; the 'response' event has the exact time.
  const latencies = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url: `http://127.0.0.1:${server.port}`, connections, pipelining: 1, duration: seconds, requests: [request], timeout: 30 },
      (error, result) => (error ? reject(error) : resolve({ ...result, exactLatencies: latencies })),
    );
    instance.on('response', (_client, status, _bytes, responseTime) => {
      if (status >= 200 && status < 300) latencies.push(responseTime);
    });
  });
}

function percentile(sorted, fraction) {
  if (sorted.length === 0) return undefined;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

function summarize(result) {
  const sorted = Float64Array.from(result.exactLatencies).sort();
  return {
    rps: result.requests.total / result.duration,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    duration: result.duration,
  };
}

const fixed = (value) => (value === undefined ? '-' : value.toFixed(2));

const median = (values) => {
  values = values.filter((v) => v !== undefined);
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

// ---- one scenario ----

async function runScenario(scenario, settings, log, lane) {
  const record = { engine: lane.id, id: scenario.id, title: scenario.title, method: scenario.method, path: scenario.path, servers: {} };
  const names = settings.servers;
  const execArgvOf = (name) =>
    settings.profile && name === 'ours'
      ? ['--cpu-prof', `--cpu-prof-dir=${path.join(RESULTS_DIR, 'profiles')}`, `--cpu-prof-name=ours-${scenario.id}-${Date.now()}.cpuprofile`]
      : [];
  const running = new Map();
  const peak = new Map(names.map((name) => [name, 0]));
  const remember = async (name) => {
    const stats = await running.get(name).stats();
    peak.set(name, Math.max(peak.get(name), stats.maxRSS));
  };
  const stopAll = async () => {
    for (const name of names) {
      const server = running.get(name);
      if (server === undefined) continue;
      await remember(name).catch(() => undefined);
      await server.stop();
      running.delete(name);
    }
  };
  const startAll = async () => {
    for (const name of names) running.set(name, await startServer(name, { file: lane.files[name], env: lane.envOf(name), execArgv: execArgvOf(name) }));
  };
  const warmAll = async () => {
    if (settings.warmup === 0) return;
    for (const name of names) await load(running.get(name), scenario, settings.warmup, settings.connections);
  };
  try {
    await startAll();
    // Checks: one answer of each server must be right before anything is timed.
    const responses = new Map();
    const id = scenario.takeId ? scenario.takeId() : undefined;
    for (const name of names) {
      try {
        responses.set(name, await checkServer(scenario, running.get(name), id));
      } catch (error) {
        record.error = `${name}: check failed: ${error.message}`;
        log(`  ${scenario.id} ABORTED: ${record.error}`);
        return record;
      }
    }
    if (responses.size === 2) record.sameBytes = compareAnswers(responses.get('ours'), responses.get('ceiling'));
    // A database ceiling must send exactly our bytes, or its req/s measures another answer.
    if (lane.strictBytes && record.sameBytes !== undefined && record.sameBytes !== true) {
      record.error = `answers differ: ${record.sameBytes}`;
      log(`  ${scenario.id} ABORTED: ${record.error}`);
      return record;
    }
    await warmAll();
    const rounds = new Map(names.map((name) => [name, []]));
    for (let round = 0; round < settings.rounds; round++) {
      if (scenario.freshPerRound && round > 0) {
        // Writes grow the store: fresh servers each round keep memory (and GC work) bounded and equal.
        await stopAll();
        await startAll();
        await warmAll();
      }
      const order = round % 2 === 0 ? names : [...names].reverse();
      for (const name of order) {
        const server = running.get(name);
        const before = await server.stats();
        const summary = summarize(await load(server, scenario, settings.duration, settings.connections));
        const after = await server.stats();
        // Server CPU per answer: robust on a shared machine, where req/s also measures the neighbours.
        summary.cpuMicros = summary.requests > 0 ? (after.cpu - before.cpu) / summary.requests : undefined;
        rounds.get(name).push(summary);
        if (summary.non2xx > 0 || summary.errors > 0) {
          record.error = `${name}: ${summary.non2xx} non-2xx answers and ${summary.errors} errors (${summary.timeouts} timeouts) under load in round ${round + 1}`;
        }
      }
    }
    await stopAll();
    for (const name of names) {
      const list = rounds.get(name);
      record.servers[name] = {
        rps: median(list.map((r) => r.rps)),
        p50: median(list.map((r) => r.p50)),
        p99: median(list.map((r) => r.p99)),
        cpuMicros: median(list.map((r) => r.cpuMicros)),
        peakRss: peak.get(name),
        rounds: list,
      };
    }
    if (record.servers.ours && record.servers.ceiling) {
      record.ratio = record.servers.ours.rps / record.servers.ceiling.rps;
      record.cpuRatio = record.servers.ceiling.cpuMicros / record.servers.ours.cpuMicros;
    }
    if (record.error) log(`  ${scenario.id} INVALID: ${record.error}`);
    return record;
  } catch (error) {
    record.error = error.message;
    log(`  ${scenario.id} FAILED: ${error.message}`);
    return record;
  } finally {
    await stopAll().catch(() => undefined);
  }
}

/** Same status, Content-Type, DataServiceVersion, Location, ETag, and body bytes once run-specific parts are blanked. */
function compareAnswers(ours, ceiling) {
  const differences = [];
  if (ours.status !== ceiling.status) differences.push(`status ${ours.status} vs ${ceiling.status}`);
  const blank = (value) => (value || '').replace(/batch_[0-9a-f-]{36}/, 'batch_B').replace(/127\.0\.0\.1:\d+/, 'HOST');
  for (const name of ['content-type', 'dataserviceversion', 'location', 'etag']) {
    const a = blank(ours.headers[name]);
    const b = blank(ceiling.headers[name]);
    if (a !== b) differences.push(`${name} '${a}' vs '${b}'`);
  }
  const a = normalizeBody(ours.body);
  const b = normalizeBody(ceiling.body);
  if (a !== b) {
    let at = 0;
    while (at < a.length && a[at] === b[at]) at++;
    differences.push(
      `body differs at byte ${at} (${a.length} vs ${b.length} bytes): ours '${a.slice(Math.max(0, at - 40), at + 60)}' vs ceiling '${b.slice(Math.max(0, at - 40), at + 60)}'`,
    );
  }
  return differences.length === 0 ? true : differences.join('; ');
}

// ---- the run ----

function machine() {
  const cpu = os.cpus();
  let commit;
  try {
    commit = execSync('git rev-parse --short HEAD', { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    commit = undefined;
  }
  return {
    node: process.version,
    cpuModel: cpu.length > 0 ? cpu[0].model : 'unknown',
    cores: os.availableParallelism ? os.availableParallelism() : cpu.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.type()} ${os.release()}`,
    loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
    express: require('express/package.json').version,
    autocannon: require('autocannon/package.json').version,
    commit,
  };
}

async function main() {
  const settings = readSettings(process.argv.slice(2), process.env);
  const log = (line) => process.stdout.write(`${line}\n`);
  const scenarios = settings.scenarios === undefined ? SCENARIOS : SCENARIOS.filter((s) => settings.scenarios.includes(s.id));
  if (settings.servers.includes('ours')) {
    try {
      require.resolve('express-odata-v2');
    } catch {
      throw new Error("'express-odata-v2' does not resolve: run `npm run build` first (npm run bench does)");
    }
  }
  const perScenario = settings.engines.length * (settings.servers.length * (settings.warmup + settings.rounds * settings.duration) + 2);
  const restarts = scenarios.filter((s) => s.freshPerRound).length * (settings.rounds - 1) * (settings.servers.length * settings.warmup + 2);
  log(
    `express-odata-v2 benchmark: ${scenarios.length} scenarios x [${settings.servers.join(', ')}] x engines [${settings.engines.join(', ')}], ${settings.connections} connections, ` +
      `warm-up ${settings.warmup} s, ${settings.rounds} rounds x ${settings.duration} s${settings.quick ? ' (quick mode)' : ''}; ` +
      `about ${Math.ceil((scenarios.length * perScenario + restarts) / 60)} min`,
  );
  const started = Date.now();
  const results = [];
  for (const engine of settings.engines) {
    const lane = await prepareLane(engine, log);
    if (lane === undefined) continue;
    try {
      for (const scenario of scenarios) {
        if (lane.skips[scenario.id] !== undefined) {
          log(`${lane.label}  ${scenario.id}  skipped: ${lane.skips[scenario.id]}`);
          continue;
        }
        log(`${lane.label}  ${scenario.id}  ${scenario.title}`);
        results.push(await runAndLog(scenario, settings, log, lane));
        // Rows a write scenario created stay in a server's database: later scenarios count them.
        if (scenario.freshPerRound && lane.reset !== undefined) await lane.reset();
      }
    } finally {
      await lane.close();
    }
  }
  const report = {
    date: new Date().toISOString(),
    seconds: Math.round((Date.now() - started) / 1000),
    machine: machine(),
    settings: { ...settings, updateDocs: undefined },
    scenarios: results,
  };
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.md'), formatMarkdown(report));
  log('');
  log(formatTable(report));
  log(targetLine(results));
  log(`\nwritten: bench/results/latest.json, bench/results/latest.md (${report.seconds} s)`);
  if (settings.updateDocs) {
    updateDocs(path.join(ROOT, 'docs', 'performance.md'), report);
    log('updated: docs/performance.md');
  }
  if (results.some((r) => r.error !== undefined)) process.exitCode = 1;
}

/** The SQL lanes' target: every scenario at least half the database ceiling's req/s. */
function targetLine(results) {
  const sql = results.filter((r) => r.engine !== 'memory' && r.ratio !== undefined);
  if (sql.length === 0) return '';
  const missed = sql.filter((r) => r.ratio < 0.5).map((r) => `${r.engine} ${r.id} ${r.ratio.toFixed(2)}`);
  return missed.length === 0
    ? '\nSQL lanes: every scenario >= 0.5 of its database ceiling.'
    : `\nSQL lanes below 0.5 of the database ceiling: ${missed.join(', ')}`;
}

/** A lane: which server files, their environment, what it skips; undefined (with a printed line) when it cannot run. */
async function prepareLane(engine, log) {
  if (engine === 'memory')
    return { id: engine, label: 'memory', files: SERVER_FILES, envOf: () => ({}), skips: {}, strictBytes: false, close: async () => undefined };
  const { load, exec, preparePGlite, preparePostgres, SESSION_ROLE, SESSION_ROLE_STATEMENTS } = require('./sql/prepare');
  const started = Date.now();
  if (engine === 'sqlite') return prepareSqliteLane(log, started);
  // A session lane: ours runs every request as SESSION_ROLE; the ceiling is the same.
  const session = engine.endsWith('-session');
  const sessionEnv = (name) => (session && name === 'ours' ? { BENCH_SESSION_ROLE: SESSION_ROLE } : {});
  if (engine.startsWith('pglite')) {
    const dump = path.join(RESULTS_DIR, `${engine}-bench.tar`);
    await preparePGlite(dump, session ? SESSION_ROLE_STATEMENTS : []);
    log(`${engine}: data loaded and dumped in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const close = async () => fs.rmSync(dump, { force: true });
    // Each server process loads its own copy of the dump: S6's writes stay apart.
    const envOf = (name) => ({ BENCH_ENGINE: 'pglite', BENCH_PGLITE_DUMP: dump, ...sessionEnv(name) });
    return { id: engine, label: engine, files: SQL_FILES, envOf, skips: SQL_SKIPS, strictBytes: true, close };
  }
  // A database per server on one PostgreSQL server: S6 creates the same keys in both.
  const fill = async (db) => {
    await load(db);
    if (session) await exec(db, SESSION_ROLE_STATEMENTS);
  };
  const ours = await preparePostgres(fill, { name: 'eov2_bench_ours' });
  if (ours.skipped !== undefined) {
    log(`${engine}: skipped (${ours.skipped.split('\n')[0]})`);
    return undefined;
  }
  const given = process.env.DATABASE_URL;
  let ceiling;
  try {
    process.env.DATABASE_URL = given || new URL('/postgres', ours.url).toString();
    ceiling = await preparePostgres(undefined, { name: 'eov2_bench_ceiling' });
  } finally {
    process.env.DATABASE_URL = given;
    if (given === undefined) delete process.env.DATABASE_URL;
  }
  log(`${engine}: ${ours.server}, data loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const urls = { ours: ours.url, ceiling: ceiling.url };
  const envOf = (name) => ({ BENCH_ENGINE: 'postgres', BENCH_DATABASE_URL: urls[name], ...sessionEnv(name) });
  const close = async () => {
    await ceiling.close();
    await ours.close();
    // A server of the user's keeps no role of ours (a throwaway server is gone with its roles).
    if (session && given) {
      const { Client } = require('pg');
      const client = new Client({ connectionString: given });
      await client.connect();
      try {
        await client.query(`drop role if exists ${SESSION_ROLE}`);
      } finally {
        await client.end();
      }
    }
  };
  const reset = async () => {
    const { Client } = require('pg');
    for (const url of Object.values(urls)) {
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        await client.query('delete from "Products" where "ID" >= 1000000');
      } finally {
        await client.end();
      }
    }
  };
  return { id: engine, label: engine, files: SQL_FILES, envOf, skips: SQL_SKIPS, strictBytes: true, close, reset };
}

/** The SQLite lane: one prepared file, copied for each server (S6's writes stay apart). */
async function prepareSqliteLane(log, started) {
  const { prepareSqlite } = require('./sql/prepare');
  const source = path.join(RESULTS_DIR, 'sqlite-bench.sqlite');
  await prepareSqlite(source);
  const files = { ours: path.join(RESULTS_DIR, 'sqlite-bench-ours.sqlite'), ceiling: path.join(RESULTS_DIR, 'sqlite-bench-ceiling.sqlite') };
  const remove = (file) => ['', '-wal', '-shm'].forEach((suffix) => fs.rmSync(`${file}${suffix}`, { force: true }));
  const copy = () =>
    Object.values(files).forEach((file) => {
      remove(file);
      fs.copyFileSync(source, file);
    });
  copy();
  log(`sqlite: data loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const envOf = (name) => ({ BENCH_ENGINE: 'sqlite', BENCH_SQLITE_FILE: files[name] });
  const close = async () => [source, ...Object.values(files)].forEach(remove);
  // Rows a write scenario created go with fresh copies (the servers are stopped between scenarios).
  return { id: 'sqlite', label: 'sqlite', files: SQL_FILES, envOf, skips: SQL_SKIPS, strictBytes: true, close, reset: async () => copy() };
}

/** Run one scenario of a lane and print its figures. */
async function runAndLog(scenario, settings, log, lane) {
  const record = await runScenario(scenario, settings, log, lane);
  if (record.sameBytes !== undefined && record.sameBytes !== true && !lane.strictBytes) log(`  note: answers differ: ${record.sameBytes}`);
  for (const name of settings.servers) {
    const s = record.servers[name];
    if (s)
      log(
        `  ${name.padEnd(8)} ${s.rps.toFixed(0).padStart(7)} req/s  p50 ${fixed(s.p50)} ms  p99 ${fixed(s.p99)} ms  CPU ${s.cpuMicros === undefined ? '-' : s.cpuMicros.toFixed(0)} µs/req  peak RSS ${(s.peakRss / 2 ** 20).toFixed(0)} MB`,
      );
  }
  if (record.ratio !== undefined) log(`  ours/ceiling ${record.ratio.toFixed(2)}`);
  return record;
}

main().catch((error) => {
  process.stderr.write(`bench: ${error.message}\n`);
  process.exitCode = 2;
});
