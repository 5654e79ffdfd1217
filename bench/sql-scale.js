'use strict';
/**
 * `npm run bench:sql-scale`: does SqlProvider's cost stay flat as a table grows? The same reads
 * against 1,000 and 1,000,000 Products in a real PostgreSQL server (DATABASE_URL, else a throwaway
 * server from the test:postgres harness; nothing to do without server binaries), with the indexes
 * docs/sql-provider.md recommends: a key read, the first page, a page in the middle of the feed
 * reached by $skiptoken, and a filtered, ordered page. Each answer is checked once, then each
 * size is loaded in alternating rounds. The cost of a read is the CPU time it takes in our server
 * process plus in the PostgreSQL server's processes (read from /proc, when this run started the
 * server), per request: robust on a busy machine, where req/s also measures the neighbours
 * (req/s is printed too). Target: 1M within 2x of 1k for every read.
 *
 * Settings: BENCH_DURATION (s per round, 3), BENCH_ROUNDS (2), BENCH_WARMUP (s, 1),
 * BENCH_CONNECTIONS (10), BENCH_SCALE_ROWS (1000000).
 */
const path = require('path');
const os = require('os');
const autocannon = require('autocannon');
const { sql } = require('kysely');
const { buildData } = require('./data');
const { load, exec, preparePostgres } = require('./sql/prepare');
const { startServer } = require('./servers/process');

const env = (name, fallback) => (process.env[name] === undefined || process.env[name] === '' ? fallback : Number(process.env[name]));
const DURATION = env('BENCH_DURATION', 3);
const ROUNDS = env('BENCH_ROUNDS', 2);
const WARMUP = env('BENCH_WARMUP', 1);
const CONNECTIONS = env('BENCH_CONNECTIONS', 10);
const LARGE = env('BENCH_SCALE_ROWS', 1000000);
const PAGE = 50;

/**
 * The large table: createSchema's tables, the benchmark's categories and suppliers (seed), then
 * the products generated in SQL (seed through the evaluator would take minutes for a million):
 * deterministic spreads of prices, ratings, dates and links, as bench/data.js has them.
 */
async function loadLarge(db) {
  const data = buildData();
  await load(db, { ...data, Products: [] });
  await exec(db, ['drop index if exists "Products_Name_ID_idx"', 'drop index if exists "Products_Price_ID_idx"']);
  await sql`insert into "Products" ("ID", "Name", "Description", "ReleaseDate", "DiscontinuedDate", "Rating", "Price", "Category_ID", "Supplier_ID")
    select g, 'Product ' || g, 'Description ' || (g % 17),
      timestamp '1990-01-01' + ((g * 37) % 12000) * interval '1 day',
      case when g % 5 = 0 then timestamp '1995-01-01' + ((g * 13) % 9000) * interval '1 day' end,
      (g * 31) % 6, ((g::bigint * 7919) % 10000 + 100) / 100.0, g % ${data.Categories.length}, g % ${data.Suppliers.length}
    from generate_series(0, ${LARGE - 1}) as g`.execute(db.kysely);
  // The indexes after the rows (faster), then statistics.
  await exec(db, [
    'create index "Products_Name_ID_idx" on "Products" ("Name" nulls first, "ID")',
    'create index "Products_Price_ID_idx" on "Products" ("Price", "ID")',
    'vacuum analyze "Products"',
  ]);
}

/** The reads, for a table of `rows` products (keys 0 .. rows-1). */
function reads(rows) {
  const middle = Math.floor(rows / 2);
  return [
    { id: 'key', title: 'a key read', path: `/odata/Products(${middle + 7})?$format=json`, check: (d) => d.ID === middle + 7 },
    {
      id: 'first',
      title: 'the first page',
      path: '/odata/Products?$format=json',
      check: (d) => d.results.length === PAGE && d.results[0].ID === 0 && d.__next !== undefined,
    },
    {
      id: 'middle',
      title: 'a page in the middle ($skiptoken)',
      path: `/odata/Products?$format=json&$skiptoken=${middle}`,
      check: (d) => d.results.length === PAGE && d.results[0].ID === middle + 1,
    },
    {
      id: 'filtered',
      title: 'a filtered page ordered by Name',
      path: `/odata/Products?$format=json&$filter=${encodeURIComponent('Price gt 20 and Rating ge 3')}&$orderby=Name`,
      check: (d) =>
        d.results.length === PAGE && d.results.every((p, i) => Number(p.Price) > 20 && p.Rating >= 3 && (i === 0 || d.results[i - 1].Name <= p.Name)),
    },
  ];
}

async function fetchJson(port, target) {
  const response = await fetch(`http://127.0.0.1:${port}${target}`);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${target}: ${response.status} ${text.slice(0, 200)}`);
  return JSON.parse(text).d;
}

function measure(port, target, seconds) {
  return new Promise((resolve, reject) => {
    autocannon({ url: `http://127.0.0.1:${port}${target}`, connections: CONNECTIONS, duration: seconds, timeout: 30 }, (error, result) =>
      error ? reject(error) : resolve({ rps: result.requests.total / result.duration, p50: result.latency.p50, bad: result.non2xx + result.errors }),
    );
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

/** CPU time (µs) of a PostgreSQL server's processes so far: the postmaster and its children (Linux /proc). */
function postgresCpuMicros(dataDir) {
  if (dataDir === undefined) return undefined;
  const fs = require('fs');
  let postmaster;
  try {
    postmaster = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
  let ticks = 0;
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid ... utime(14) stime(15): the fields after the command name's ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(name) === postmaster || Number(fields[1]) === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1e6) / 100; // USER_HZ is 100 on Linux
}

/** Load `target` for `seconds`; the CPU per answer of our server and of PostgreSQL. */
async function measureCost(server, dataDir, target, seconds) {
  const [oursBefore, pgBefore] = [(await server.stats()).cpu, postgresCpuMicros(dataDir)];
  const result = await measure(server.port, target, seconds);
  const [oursAfter, pgAfter] = [(await server.stats()).cpu, postgresCpuMicros(dataDir)];
  const requests = result.rps * seconds;
  const ours = (oursAfter - oursBefore) / requests;
  const database = pgBefore === undefined ? undefined : (pgAfter - pgBefore) / requests;
  return { ...result, ours, database, cost: database === undefined ? 1e6 / result.rps : ours + database };
}

async function main() {
  const log = (line) => process.stdout.write(`${line}\n`);
  log(
    `SqlProvider at scale: ${LARGE.toLocaleString('en-US')} vs 1,000 Products; ${ROUNDS} rounds x ${DURATION} s, ${CONNECTIONS} connections; load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  const started = Date.now();
  const small = await preparePostgres(undefined, { name: 'eov2_scale_small' });
  if (small.skipped !== undefined) {
    log(`skipped: ${small.skipped.split('\n')[0]}`);
    return;
  }
  let large;
  const servers = [];
  try {
    // A second database on the same server: the harness starts one server per preparePostgres without DATABASE_URL.
    process.env.DATABASE_URL = process.env.DATABASE_URL || new URL('/postgres', small.url).toString();
    large = await preparePostgres(loadLarge, { name: 'eov2_scale_large' });
    log(`loaded in ${((Date.now() - started) / 1000).toFixed(0)} s (${small.server})`);
    const sizes = [
      { rows: 1000, database: small },
      { rows: LARGE, database: large },
    ];
    for (const size of sizes) {
      size.server = await startServer('ours', {
        file: path.join(__dirname, 'servers', 'sql-ours.js'),
        env: { BENCH_ENGINE: 'postgres', BENCH_DATABASE_URL: size.database.url, BENCH_MAX_PAGE_SIZE: String(PAGE) },
      });
      servers.push(size.server);
    }
    const table = [];
    for (const [index, read] of reads(1000).entries()) {
      const results = sizes.map(() => []);
      for (const size of sizes) {
        const target = reads(size.rows)[index];
        if (!target.check(await fetchJson(size.server.port, target.path))) throw new Error(`${read.id} at ${size.rows} rows: wrong answer`);
        if (WARMUP > 0) await measure(size.server.port, target.path, WARMUP);
      }
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? [0, 1] : [1, 0];
        for (const s of order) {
          const result = await measureCost(sizes[s].server, small.dataDir, reads(sizes[s].rows)[index].path, DURATION);
          if (result.bad > 0) throw new Error(`${read.id} at ${sizes[s].rows} rows: ${result.bad} failed answers under load`);
          results[s].push(result);
        }
      }
      const summary = (list) => ({
        rps: median(list.map((r) => r.rps)),
        p50: median(list.map((r) => r.p50)),
        ours: median(list.map((r) => r.ours)),
        database: median(list.map((r) => r.database ?? 0)),
        cost: median(list.map((r) => r.cost)),
      });
      const [a, b] = results.map(summary);
      table.push({ read, small: a, large: b, factor: b.cost / a.cost });
      const shown = (x) => `${x.rps.toFixed(0).padStart(5)} req/s, ${x.ours.toFixed(0)} + ${x.database.toFixed(0)} µs CPU`;
      log(`${read.title.padEnd(36)} 1k ${shown(a)}   ${LARGE / 1000}k ${shown(b)}   cost x${(b.cost / a.cost).toFixed(2)}`);
    }
    log('');
    const largeLabel = LARGE.toLocaleString('en-US');
    log(`| read | 1,000 rows: µs CPU (ours + PostgreSQL), req/s | ${largeLabel} rows: µs CPU, req/s | cost at ${largeLabel} / at 1,000 |`);
    log('| --- | ---: | ---: | ---: |');
    const cell = (x) => `${x.ours.toFixed(0)} + ${x.database.toFixed(0)}, ${x.rps.toFixed(0)}`;
    for (const row of table)
      log(
        `| ${row.read.title}: \`${reads(LARGE)[table.indexOf(row)].path.replace('/odata/', '')}\` | ${cell(row.small)} | ${cell(row.large)} | ${row.factor.toFixed(2)} |`,
      );
    const missed = table.filter((row) => row.factor > 2);
    log(missed.length === 0 ? '\nevery read within 2x of its cost at 1,000 rows' : `\nabove 2x: ${missed.map((row) => row.read.id).join(', ')}`);
    log(
      `load average after the run ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}; ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    if (missed.length > 0) process.exitCode = 1;
  } finally {
    for (const server of servers) await server.stop();
    if (large !== undefined) await large.close();
    await small.close();
  }
}

main().catch((error) => {
  process.stderr.write(`bench:sql-scale: ${error.stack}\n`);
  process.exitCode = 2;
});
