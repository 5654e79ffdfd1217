'use strict';
/**
 * `npm run bench:bounds`: the work bounds the specs check by counting, timed here instead. Each
 * hostile input of the totality and limit specs is timed at its full size and at half of it, in
 * the same run, through the same function (median of several runs after a warm-up), and reported
 * as its growth: time at full size / (2 x time at half size). About 1: the work grows with the
 * input, as it must; about 0.5: it is refused early and does not grow at all; about 2 or more: it
 * grows with the square of the input (a parser that backtracks or rescans), which the specs cannot
 * see without a clock. The last row times the deep `$expand` of spec/e2e/expand-limits.spec.ts
 * over HTTP: the event loop's longest stall while it is written, against the whole response time.
 *
 *   npm run bench:bounds            # builds dist/, then every case (under a minute on 2 cores)
 *   node bench/bounds.js --runs=15  # more runs per case (default 7)
 *
 * Runs the built internals (dist/), not the package's public surface. Exit code 1 when a case
 * that takes long enough to measure (GROWTH_FLOOR_MS at full size) grows by more than
 * GROWTH_LIMIT, well between linear (1) and quadratic (2).
 */
const fs = require('fs');
const http = require('http');
const path = require('path');

const DIST = path.join(__dirname, '..', 'dist');
const { loadEdmx, odata, MemoryProvider } = require(DIST);
const { parseExpression, checkFilter } = require(path.join(DIST, 'uri', 'expr'));
const { readAtomEntry, readJsonEntry } = require(path.join(DIST, 'format', 'readers'));
const { parseXml } = require(path.join(DIST, 'format', 'xml', 'safe-sax'));
const { processBatch, splitMultipart } = require(path.join(DIST, 'batch'));

const GROWTH_LIMIT = 1.6;
const GROWTH_FLOOR_MS = 5;
const runsFlag = process.argv.find((arg) => arg.startsWith('--runs='));
const RUNS = runsFlag === undefined ? 7 : Number(runsFlag.slice('--runs='.length));

const model = loadEdmx(fs.readFileSync(path.join(__dirname, '..', 'examples', 'odata-demo', 'metadata.xml'), 'utf8'));
const products = model.entitySets.get('Products');
const target = { entitySet: products, entityType: products.entityType };
const context = { model, serviceRoot: 'http://localhost/odata/' };
const ATOM_NAMESPACES =
  'xmlns="http://www.w3.org/2005/Atom" xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"';

/** Run `work`, swallowing the refusal a hostile input is meant to get. */
function attempt(work) {
  try {
    const result = work();
    if (result && typeof result.then === 'function') return result.catch(() => undefined);
  } catch {
    // refused: what the input is for
  }
  return undefined;
}

/** Median milliseconds of `work` over RUNS runs, after two warm-up runs. */
async function median(work) {
  for (let i = 0; i < 2; i++) await attempt(work);
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await attempt(work);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const filterOf = (text) => () => checkFilter(parseExpression(text), products.entityType, model);
const outer = { serviceRoot: 'http://localhost/odata/', headers: {}, context: { request: {}, state: new Map() } };
const batchOf = (text) => {
  const body = Buffer.from(text);
  return () =>
    processBatch({
      body,
      contentType: 'multipart/mixed; boundary=b',
      outer,
      handle: async () => ({ status: 204, headers: { dataserviceversion: '1.0;' }, body: undefined }),
      transaction: (work) => work(),
      limits: { maxBatchParts: 50 },
    });
};
const times = (count, make) => Array.from({ length: count }, (_, i) => make(i)).join('');

/** The hostile inputs of the specs, each as `work(n)`: the work for the input at scale n (full size: `size`). */
const CASES = [
  ['$filter: 1,000,000 "("', 1_000_000, (n) => filterOf('('.repeat(n))],
  ['$filter: a 200,000-character name', 200_000, (n) => filterOf('a'.repeat(n))],
  ['$filter: a 200,000-character string literal', 200_000, (n) => filterOf(`Name eq '${'x'.repeat(n)}'`)],
  ['$filter: 1,000 dangling "and"', 1000, (n) => filterOf('('.repeat(50) + 'Price gt 1' + ')'.repeat(50) + ' and '.repeat(n))],
  ['$filter: 700 comparisons joined by or', 700, (n) => filterOf(Array.from({ length: n }, (_, i) => `ID eq ${i}`).join(' or '))],
  ['$filter: 100,001 quotes', 100_001, (n) => filterOf("'".repeat(n))],
  ['$filter: 100,000 minus signs', 100_000, (n) => filterOf('-'.repeat(n))],
  [
    'JSON entry: 800,000 keys (9.9 MB)',
    800_000,
    (n) => {
      const body = Buffer.from(`{${times(n, (i) => `${i === 0 ? '' : ','}"k${i}":1`)}}`);
      return () => readJsonEntry(body, target, context);
    },
  ],
  [
    'Atom entry: 420,000 attributes',
    420_000,
    (n) => {
      const body = Buffer.from(`<entry ${ATOM_NAMESPACES}${times(n, (i) => ` a${i}="x"`)}/>`);
      return () => readAtomEntry(body, target, context);
    },
  ],
  [
    'XML: billion laughs, 9 to 18 levels',
    18,
    (n) => {
      const entities = ['<!ENTITY lol "lol">'];
      for (let i = 1; i <= n; i++) entities.push(`<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`);
      const text = `<?xml version="1.0"?><!DOCTYPE lolz [${entities.join('')}]><lolz>&lol${n};</lolz>`;
      return () => parseXml(text);
    },
  ],
  [
    'multipart: 200,000 near-delimiters',
    200_000,
    (n) => {
      const body = Buffer.from(`--b\r\n${'--b-x\n'.repeat(n)}\r\n--b--`);
      return () => splitMultipart(body, 'b', 1000, 'parts', 'the batch body');
    },
  ],
  [
    '$batch: 20,000 header lines in a part',
    20_000,
    (n) => batchOf(`--b\r\nContent-Type: application/http\r\n\r\nGET A HTTP/1.1\r\n${'X: y\r\n'.repeat(n)}\r\n--b--`),
  ],
  ['$batch: 200,000 empty lines', 200_000, (n) => batchOf(`--b\r\n${'\r\n'.repeat(n)}--b--`)],
  ['$batch: 300,000 dashes', 300_000, (n) => batchOf('-'.repeat(n))],
  ['$batch: 5,000 empty changeset parts', 5000, (n) => batchOf(`--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n${'--c\r\n'.repeat(n)}--c--\r\n--b--`)],
];

/** The deep $expand of 28,861 entries over HTTP: the longest gap between two turns of the event loop, and the whole time. */
async function expandStall() {
  const express = require('express');
  const data = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'examples', 'odata-demo', 'data.json'), 'utf8'));
  data.Products = Array.from({ length: 30 }, (_, id) => ({
    ID: id,
    Name: `Product ${id}`,
    Description: 'A product of the one big supplier',
    ReleaseDate: '2000-01-01T00:00:00Z',
    DiscontinuedDate: null,
    Rating: id % 6,
    Price: `${id}.5`,
    CategoryID: id % 3,
    SupplierID: 0,
  }));
  const provider = new MemoryProvider(model, data, { links: { Products: { Category: 'CategoryID', Supplier: 'SupplierID' } } });
  const app = express();
  app.use('/odata', odata({ model, provider, limits: { maxExpandedEntities: 100_000 } }));
  const server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const { port } = server.address();
  const get = () =>
    new Promise((resolve, reject) => {
      http
        .get(
          { host: '127.0.0.1', port, path: '/odata/Suppliers(0)?$expand=Products/Supplier/Products/Supplier/Products&$format=json', agent: false },
          (response) => {
            response.on('data', () => undefined);
            response.on('end', resolve);
            response.on('error', reject);
          },
        )
        .on('error', reject);
    });
  const stalls = [];
  const totals = [];
  for (let i = 0; i < RUNS; i++) {
    let longest = 0;
    let last = performance.now();
    let probing = true;
    const probe = () => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      if (probing) setImmediate(probe);
    };
    setImmediate(probe);
    const started = performance.now();
    await get();
    totals.push(performance.now() - started);
    probing = false;
    stalls.push(longest);
  }
  server.close();
  const middle = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return { stall: middle(stalls), total: middle(totals) };
}

async function main() {
  const rows = [];
  for (const [name, size, work] of CASES) {
    const full = await median(work(size));
    const half = await median(work(Math.floor(size / 2)));
    const growth = full / (2 * half);
    rows.push({ name, cells: [full.toFixed(2), half.toFixed(2), growth.toFixed(2)], flagged: full >= GROWTH_FLOOR_MS && growth > GROWTH_LIMIT });
  }
  const { stall, total } = await expandStall();
  rows.push({
    name: '$expand: 28,861 entries (stall / whole response)',
    cells: [stall.toFixed(2), total.toFixed(2), (stall / total).toFixed(2)],
    flagged: false,
  });

  const width = Math.max(...rows.map((row) => row.name.length));
  console.log(`${'case'.padEnd(width)}  ${'full ms'.padStart(9)}  ${'half ms'.padStart(9)}  growth`);
  for (const { name, cells, flagged } of rows) {
    console.log(`${name.padEnd(width)}  ${cells[0].padStart(9)}  ${cells[1].padStart(9)}  ${cells[2].padStart(6)}${flagged ? `  over ${GROWTH_LIMIT}` : ''}`);
  }
  console.log(`\ngrowth: full / (2 x half); ${RUNS} runs each (median); node ${process.version}; ${new Date().toISOString()}`);
  process.exitCode = rows.some((row) => row.flagged) ? 1 : 0;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 2;
});
