'use strict';
/**
 * `node bench/streaming-check.js` (after `npm run build`): does a large feed stream? A provider
 * yields 100,000 Products as an async iterable (bench/servers/streaming.js); for JSON and Atom we
 * measure when the client gets the first body byte against when the provider yields its last
 * entity, and how much the server's RSS grows during the send. A writer that buffers the feed
 * sends its first byte only after the last entity and grows with the feed; a streaming one starts
 * at once and stays flat. Exit code 1 when a format does not stream.
 *
 * Settings: STREAM_ENTITIES (default 100000), STREAM_MAX_GROWTH_MB (default 64). `--control`
 * runs the control case (the provider returns an array: the writer cannot stream), which must FAIL.
 */
const http = require('http');
const path = require('path');
const { startServer } = require('./servers/process');

const ENTITIES = Number(process.env.STREAM_ENTITIES || 100000);
const MAX_GROWTH = Number(process.env.STREAM_MAX_GROWTH_MB || 64) * 2 ** 20;
const FORMATS = [
  { name: 'json', query: '$format=json', head: '{"d":[', tail: ']}', needle: '"type":"ODataDemo.Product"' },
  { name: 'atom', query: '$format=atom', head: '<?xml', tail: '</feed>', needle: '<entry>' },
];
const CONTROL = process.argv.includes('--control');
const now = () => performance.timeOrigin + performance.now();
const MB = (bytes) => (bytes / 2 ** 20).toFixed(1);

/** GET the feed, counting entries across chunk boundaries without keeping the body. */
function readFeed(port, format, count) {
  return new Promise((resolve, reject) => {
    const sent = now();
    const request = http.get(
      { host: '127.0.0.1', port, path: `/odata/Products?${format.query}&n=${count}${CONTROL ? '&buffered=1' : ''}`, agent: false },
      (response) => {
        const headers = now();
        let firstByte;
        let bytes = 0;
        let entries = 0;
        let head = '';
        let carry = '';
        let tail = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          if (firstByte === undefined) firstByte = now();
          bytes += Buffer.byteLength(chunk);
          if (head.length < 64) head += chunk.slice(0, 64);
          const text = carry + chunk;
          for (let at = text.indexOf(format.needle); at >= 0; at = text.indexOf(format.needle, at + format.needle.length)) entries++;
          carry = text.slice(-(format.needle.length - 1));
          tail = (tail + chunk).slice(-64);
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode,
            contentType: response.headers['content-type'],
            sent,
            headers,
            firstByte,
            end: now(),
            bytes,
            entries,
            head,
            tail,
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}

async function checkFormat(format) {
  const server = await startServer('streaming', { file: path.join(__dirname, 'servers', 'streaming.js'), execArgv: ['--expose-gc'] });
  try {
    const warm = await readFeed(server.port, format, 2000);
    if (warm.status !== 200) throw new Error(`${format.name}: warm-up answered ${warm.status} ${warm.contentType}: ${warm.head}`);
    await server.ask('gc');
    const before = await server.stats();
    // Sample RSS while the feed is sent; getrusage's peak catches what falls between samples.
    let sampled = before.rss;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const stats = await server.stats();
        sampled = Math.max(sampled, stats.rss);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const read = await readFeed(server.port, format, ENTITIES);
    sampling = false;
    await sampler;
    const after = await server.stats();
    const { timings } = await server.ask('timings');
    const peak = after.maxRSS > before.maxRSS ? Math.max(after.maxRSS, sampled) : sampled;
    const problems = [];
    if (read.status !== 200) problems.push(`status ${read.status}`);
    if (read.entries !== ENTITIES) problems.push(`${read.entries} entries, expected ${ENTITIES}`);
    if (!read.head.startsWith(format.head)) problems.push(`body starts '${read.head.slice(0, 20)}'`);
    if (!read.tail.trimEnd().endsWith(format.tail)) problems.push(`body ends '${read.tail}'`);
    const streams = read.firstByte < timings.lastYield;
    const growth = peak - before.rss;
    return {
      format: format.name,
      entries: read.entries,
      bytes: read.bytes,
      ttfb: read.firstByte - read.sent,
      providerFirst: timings.firstYield - read.sent,
      providerLast: timings.lastYield - read.sent,
      total: read.end - read.sent,
      rssBefore: before.rss,
      peak,
      growth,
      streams,
      bounded: growth <= MAX_GROWTH,
      problems,
    };
  } finally {
    await server.stop();
  }
}

async function main() {
  try {
    require.resolve('express-odata-v2');
  } catch {
    throw new Error("'express-odata-v2' does not resolve: run `npm run build` first");
  }
  const source = CONTROL ? 'an array (control case: expected to FAIL)' : 'an async-iterable provider';
  process.stdout.write(`streaming check: ${ENTITIES} entities from ${source}, RSS growth limit ${MB(MAX_GROWTH)} MB\n\n`);
  const results = [];
  for (const format of FORMATS) results.push(await checkFormat(format));
  const head = ['format', 'entries', 'body MB', 'TTFB ms', 'provider first/last yield ms', 'total ms', 'RSS before MB', 'peak MB', 'growth MB', 'verdict'];
  const lines = results.map((r) => [
    r.format,
    String(r.entries),
    MB(r.bytes),
    r.ttfb.toFixed(1),
    `${r.providerFirst.toFixed(1)} / ${r.providerLast.toFixed(1)}`,
    r.total.toFixed(0),
    MB(r.rssBefore),
    MB(r.peak),
    MB(r.growth),
    r.problems.length > 0
      ? `WRONG: ${r.problems.join(', ')}`
      : r.streams && r.bounded
        ? 'streams'
        : `${r.streams ? '' : 'first byte after the last entity; '}${r.bounded ? '' : 'memory grows with the feed'}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  for (const row of [head, widths.map((w) => '-'.repeat(w)), ...lines]) process.stdout.write(`${row.map((c, i) => c.padEnd(widths[i])).join('  ')}\n`);
  const ok = results.every((r) => r.problems.length === 0 && r.streams && r.bounded);
  process.stdout.write(`\n${ok ? 'PASS: both formats stream' : 'FAIL: see the verdict column'}\n`);
  process.exitCode = ok ? 0 : 1;
}

main().catch((error) => {
  process.stderr.write(`streaming-check: ${error.message}\n`);
  process.exitCode = 2;
});
