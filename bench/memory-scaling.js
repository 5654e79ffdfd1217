'use strict';
/**
 * How MemoryProvider scales with the size of a set: the ODataDemo model with 1,000 to 1,000,000
 * Products (bench/data.js, 50 Categories, 100 Suppliers), each size loaded in a fresh child
 * process. Per size: load time, heap and RSS of the loaded store, and the median latency of a few
 * reads over HTTP on 127.0.0.1 (the service as a user mounts it, server-driven paging at 50).
 * The table ends with the growth ratio largest/smallest per row: a read that does not depend on
 * the set's size stays near 1.
 *
 *   npm run bench:memory                      # builds dist/, then 1k, 10k, 100k, 1M (about 2-3 minutes)
 *   node bench/memory-scaling.js --max=100000 # up to 100k only
 *   node bench/memory-scaling.js --sizes=1000,50000 --runs=21
 *   node bench/memory-scaling.js --json       # also print the raw results as JSON
 *   node bench/memory-scaling.js --snapshot=100000   # where the bytes go: heap by constructor for one size
 *
 * Runs dist/ (the package's self-reference): `npm run build` first. Not part of `npm test`.
 */
const { spawnSync } = require('child_process');
const http = require('http');
const os = require('os');
const path = require('path');

const PAGE = 50;
const DEFAULT_SIZES = [1000, 10000, 100000, 1000000];

/** The reads measured per size: label and URL (relative to the service root); `mid` is half the size. */
function scenarios(size) {
  const mid = Math.floor(size / 2);
  return [
    { id: 'count', label: '`Products/$count`', url: 'Products/$count', check: (body) => body === String(size) },
    { id: 'navcount', label: '`Categories(7)/Products/$count`', url: 'Categories(7)/Products/$count', check: (body) => /^\d+$/.test(body) },
    { id: 'first', label: 'first page `Products`', url: 'Products?$format=json', check: firstIdIs(0) },
    { id: 'middle', label: `middle page \`Products?$skiptoken=${mid - 1}\``, url: `Products?$format=json&$skiptoken=${mid - 1}`, check: firstIdIs(mid) },
    {
      id: 'inline',
      label: '`Products?$inlinecount=allpages`',
      url: 'Products?$format=json&$inlinecount=allpages',
      check: (body) => JSON.parse(body).d.__count === String(size),
    },
    {
      id: 'filtered',
      label: '`Products?$filter=Price gt 20 and Rating ge 3&$inlinecount=allpages`',
      url: `Products?$format=json&$inlinecount=allpages&$filter=${encodeURIComponent('Price gt 20 and Rating ge 3')}`,
      check: (body) => JSON.parse(body).d.results.length === Math.min(PAGE, Number(JSON.parse(body).d.__count)),
    },
    {
      id: 'ordered',
      label: '`Products?$orderby=Name` (first page)',
      url: `Products?$format=json&$orderby=Name`,
      check: (body) => JSON.parse(body).d.results.length === PAGE,
    },
  ];
}

function firstIdIs(id) {
  return (body) => {
    const results = JSON.parse(body).d.results;
    return results.length === PAGE && results[0].ID === id;
  };
}

function parseArgs(argv) {
  const args = { max: Infinity, sizes: DEFAULT_SIZES, runs: 15, json: false, child: undefined, snapshot: undefined };
  for (const arg of argv) {
    const [name, value] = arg.split('=');
    if (name === '--max') args.max = Number(value);
    else if (name === '--sizes') args.sizes = value.split(',').map(Number);
    else if (name === '--runs') args.runs = Number(value);
    else if (name === '--json') args.json = true;
    else if (name === '--child') args.child = Number(value);
    else if (name === '--snapshot') args.snapshot = Number(value);
    else if (/^\d+$/.test(arg)) args.max = Number(arg);
    else throw new Error(`unknown argument ${arg} (see the comment at the top of bench/memory-scaling.js)`);
  }
  return args;
}

// --- child: one size ------------------------------------------------------------------------------

function gc() {
  for (let i = 0; i < 3; i++) global.gc();
}

function get(port, url) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    http
      .get({ host: '127.0.0.1', port, path: `/odata/${url}`, agent: false }, (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          const used = process.cpuUsage(cpu);
          resolve({ status: response.statusCode, body: Buffer.concat(chunks).toString('utf8'), ms, cpuMs: (used.user + used.system) / 1000 });
        });
      })
      .on('error', reject);
  });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function child(size, runs) {
  const express = require('express');
  const { odata, loadEdmx, MemoryProvider } = require('express-odata-v2');
  const { buildData, readMetadata } = require('./data');
  const model = loadEdmx(readMetadata());
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  let data = buildData({ Products: size, Categories: 50, Suppliers: 100 });
  gc();
  const heapWithData = process.memoryUsage().heapUsed;
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const provider = new MemoryProvider(model, data, { links: { Products: { Category: 'CategoryID', Supplier: 'SupplierID' } } });
  const loadMs = Number(process.hrtime.bigint() - started) / 1e6;
  const loadCpu = process.cpuUsage(cpu);
  // eslint-disable-next-line no-useless-assignment -- drops the reference so that gc() can free the input
  data = undefined; // what the user passed in may go; what stays is the store's
  gc();
  const memory = process.memoryUsage();
  const result = {
    size,
    loadMs,
    loadCpuMs: (loadCpu.user + loadCpu.system) / 1000,
    inputHeapMB: (heapWithData - heapBefore) / 2 ** 20,
    storeHeapMB: (memory.heapUsed - heapBefore) / 2 ** 20,
    rssMB: memory.rss / 2 ** 20,
    peakRssMB: (process.resourceUsage().maxRSS * 1024) / 2 ** 20,
    latency: {},
    cpu: {},
  };
  const app = express();
  app.use('/odata', odata({ model, provider, maxPageSize: PAGE }));
  const server = http.createServer(app);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  try {
    for (const scenario of scenarios(size)) {
      const first = await get(port, scenario.url);
      if (first.status !== 200 || !scenario.check(first.body)) {
        throw new Error(`${scenario.url} at ${size}: status ${first.status}, unexpected answer ${first.body.slice(0, 300)}`);
      }
      // Big sets get fewer rounds of the slow reads, so a 1M run stays within minutes.
      const rounds = first.ms > 200 ? Math.min(runs, 5) : runs;
      for (let i = 0; i < 2; i++) await get(port, scenario.url);
      const times = [];
      const cpuTimes = [];
      for (let i = 0; i < rounds; i++) {
        const answer = await get(port, scenario.url);
        times.push(answer.ms);
        cpuTimes.push(answer.cpuMs);
      }
      result.latency[scenario.id] = median(times);
      result.cpu[scenario.id] = median(cpuTimes);
    }
  } finally {
    server.close();
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

// --- snapshot: where the bytes go --------------------------------------------------------------------

/** Heap by constructor (self sizes) of a process holding only the store, from a V8 heap snapshot. */
function snapshot(size) {
  const v8 = require('v8');
  const fs = require('fs');
  const { loadEdmx, MemoryProvider } = require('express-odata-v2');
  const { buildData, readMetadata } = require('./data');
  const model = loadEdmx(readMetadata());
  let provider = new MemoryProvider(model, buildData({ Products: size, Categories: 50, Suppliers: 100 }), {
    links: { Products: { Category: 'CategoryID', Supplier: 'SupplierID' } },
  });
  gc();
  const file = path.join(os.tmpdir(), `memory-scaling-${process.pid}.heapsnapshot`);
  v8.writeHeapSnapshot(file);
  if (provider.model !== model) throw new Error('unreachable'); // keeps the provider alive until here
  // eslint-disable-next-line no-useless-assignment -- drops the reference so that gc() can free the store
  provider = undefined;
  const heap = JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.unlinkSync(file);
  const fields = heap.snapshot.meta.node_fields;
  const types = heap.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((field) => fields.indexOf(field));
  const groups = new Map();
  const nodes = heap.nodes;
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + typeAt]];
    const name = heap.strings[nodes[i + nameAt]];
    // Unnamed arrays are mostly the backing stores of Maps, Sets and WeakMaps (hash tables).
    const label =
      ['object', 'closure', 'array', 'hidden'].includes(type) && name !== ''
        ? `${type} ${name}`
        : type === 'array'
          ? 'array (hash tables, backing stores)'
          : type;
    const group = groups.get(label) ?? { count: 0, bytes: 0 };
    group.count++;
    group.bytes += nodes[i + sizeAt];
    groups.set(label, group);
  }
  const rows = [...groups].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 20);
  const total = [...groups.values()].reduce((sum, group) => sum + group.bytes, 0);
  console.log(`Heap of a process holding ${size.toLocaleString('en-US')} Products (self sizes by constructor, total ${(total / 2 ** 20).toFixed(1)} MB):\n`);
  console.log('| what | count | MB | bytes per Product |\n| --- | ---: | ---: | ---: |');
  for (const [label, group] of rows) {
    console.log(`| ${label} | ${group.count} | ${(group.bytes / 2 ** 20).toFixed(1)} | ${(group.bytes / size).toFixed(1)} |`);
  }
}

// --- parent: every size, then the table ---------------------------------------------------------------

function format(value, digits) {
  if (value === undefined) return '-';
  return value >= 100 ? value.toFixed(0) : value.toFixed(digits);
}

function report(results, args) {
  const sizes = results.map((result) => result.size);
  const label = (size) => (size >= 1e6 ? `${size / 1e6}M` : size >= 1e3 ? `${size / 1e3}k` : String(size));
  const header = ['', ...sizes.map(label), `${label(sizes[sizes.length - 1])}/${label(sizes[0])}`];
  const rows = [
    ['load ms (CPU ms)', (r) => r.loadCpuMs, 0],
    ['load ms (wall clock)', (r) => r.loadMs, 0],
    ['store heap MB', (r) => r.storeHeapMB, 1],
    ['bytes per Product (store heap / Products)', (r) => (r.storeHeapMB * 2 ** 20) / r.size, 0],
    ['RSS MB after load', (r) => r.rssMB, 0],
    ['peak RSS MB (input data included)', (r) => r.peakRssMB, 0],
    ...scenarios(1000).map((scenario) => [`${scenario.label.replace(/skiptoken=\d+/, 'skiptoken=n/2-1')}`, (r) => r.cpu[scenario.id], 2]),
  ];
  const lines = [`| ${header.join(' | ')} |`, `| --- |${sizes.map(() => ' ---: |').join('')} ---: |`];
  for (const [name, read, digits] of rows) {
    const values = results.map(read);
    const ratio = values[values.length - 1] / values[0];
    lines.push(`| ${name} | ${values.map((value) => format(value, digits)).join(' | ')} | ${ratio.toFixed(1)}x |`);
  }
  console.log(
    `\nMemoryProvider at scale: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, reads: CPU ms of one request (server and client share the process), median of ${args.runs} (5 for reads over 200 ms); page size ${PAGE}\n`,
  );
  console.log(lines.join('\n'));
  if (args.json) console.log(`\n${JSON.stringify(results, null, 2)}`);
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.child !== undefined) {
    child(args.child, args.runs).catch((error) => {
      console.error(error);
      process.exit(1);
    });
    return;
  }
  if (args.snapshot !== undefined) {
    snapshot(args.snapshot);
    return;
  }
  const sizes = args.sizes.filter((size) => size <= args.max);
  if (sizes.length === 0 || sizes.some((size) => !Number.isInteger(size) || size < 1)) throw new Error('no sizes to run (check --max / --sizes)');
  const results = [];
  for (const size of sizes) {
    process.stderr.write(`loading ${size.toLocaleString('en-US')} Products ...\n`);
    const run = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=8192', __filename, `--child=${size}`, `--runs=${args.runs}`], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 1 << 20,
    });
    if (run.status !== 0) {
      console.error(`the run with ${size} Products failed (exit ${run.status})`);
      process.exit(1);
    }
    results.push(JSON.parse(run.stdout.trim().split('\n').pop()));
  }
  report(results, args);
}

if (require.main === module) {
  if (typeof global.gc === 'function') {
    main();
  } else {
    // Every mode measures after full collections: run again with --expose-gc.
    const run = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=8192', __filename, ...process.argv.slice(2)], { stdio: 'inherit' });
    process.exit(run.status ?? 1);
  }
}
