/**
 * `$expand` within its depth and breadth limits is still bounded work (issue 11, item 8):
 * `Suppliers(0)?$expand=Products/Supplier/Products/Supplier/Products` over 100 products of one
 * supplier asks for over a million entries. The response counts expanded entries while it is
 * written (limits.maxExpandedEntities, default 10,000), MemoryProvider copies large expansions
 * lazily, expanded feeds stream, and the event loop gets a turn after every chunk: other requests
 * are answered while a large expansion is written.
 */
import express from 'express';
import http from 'http';
import request from 'supertest';
import { MemoryProvider, odata } from '../../lib';
import type { ODataServiceOptions } from '../../lib';
import { DEMO_LINKS, DEMO_MODEL, demoData } from '../helpers/demo';
import { startServer, type RunningServer } from '../helpers/server';

const DEEP = 'Suppliers(0)?$expand=Products/Supplier/Products/Supplier/Products';

/** The demo data with `count` products, all supplied by Supplier 0. */
function supplierWith(count: number) {
  return {
    ...demoData(),
    Products: Array.from({ length: count }, (_, id) => ({
      ID: id,
      Name: `Product ${id}`,
      Description: 'A product of the one big supplier',
      ReleaseDate: '2000-01-01T00:00:00Z',
      DiscontinuedDate: null,
      Rating: id % 6,
      Price: `${id}.5`,
      CategoryID: id % 3,
      SupplierID: 0,
    })),
  };
}

let server: RunningServer;
const logged: string[] = [];

async function start(products: number, options: Partial<ODataServiceOptions> = {}): Promise<void> {
  const app = express();
  const provider = new MemoryProvider(DEMO_MODEL, supplierWith(products), { links: DEMO_LINKS });
  app.use('/odata', odata({ model: DEMO_MODEL, provider, logger: (event) => logged.push(`${event.level} ${event.status} ${event.message}`), ...options }));
  server = await startServer(app);
}

afterEach(async () => {
  logged.length = 0;
  await server.close();
});

/** GET a path, reading the body as it arrives; resolves with the time of the first byte and the whole text (or the error). */
function fetchSlowly(
  path: string,
  accept = 'application/json',
): Promise<{ status: number | undefined; firstByteAt: number; text: string; error: string | undefined }> {
  return new Promise((resolve) => {
    const { hostname, port } = new URL(server.url);
    let firstByteAt = 0;
    const chunks: Buffer[] = [];
    const call = http.get({ host: hostname, port, path: `/odata/${path}`, headers: { accept }, agent: false }, (response) => {
      response.on('data', (chunk: Buffer) => {
        if (firstByteAt === 0) firstByteAt = Date.now();
        chunks.push(chunk);
      });
      response.on('error', (error) =>
        resolve({ status: response.statusCode, firstByteAt, text: Buffer.concat(chunks).toString('utf8'), error: error.message }),
      );
      response.on('end', () => resolve({ status: response.statusCode, firstByteAt, text: Buffer.concat(chunks).toString('utf8'), error: undefined }));
    });
    call.on('error', (error) => resolve({ status: undefined, firstByteAt, text: '', error: error.message }));
  });
}

describe("the issue's request, with the default limit of 10,000 expanded entries", () => {
  it.each(['application/json', 'application/atom+xml'])(
    'answers 400 QUERY_LIMIT_EXCEEDED (%s) in well under the 7.5 s it took, and stays correct for small expansions',
    async (accept) => {
      await start(100);
      const started = Date.now();
      const response = await request(server.url).get(`/odata/${DEEP}`).set('accept', accept);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(response.status).toBe(400);
      expect(response.text).toContain('QUERY_LIMIT_EXCEEDED');
      expect(response.text).toContain('the response would hold more than 10000 expanded entries (limits.maxExpandedEntities)');
      // Two levels fit: 100 products, each with its supplier inline.
      const small = await request(server.url).get('/odata/Suppliers(0)?$expand=Products/Supplier&$format=json');
      expect(small.status).toBe(200);
      expect(small.body.d.Products.results).toHaveLength(100);
      expect(small.body.d.Products.results[99].Supplier.ID).toBe(0);
    },
  );
});

describe('a large expansion within a raised limit', () => {
  it('streams the expanded feeds (28,860 entries, ~13 MB) without blocking the event loop: another request is answered meanwhile', async () => {
    await start(30, { limits: { maxExpandedEntities: 100_000 } });
    // Client and server share this process: the event loop's longest stall is what any other
    // request would wait. A 5 ms ticker measures it (the gaps between its ticks).
    let longestStall = 0;
    let lastTick = Date.now();
    const ticker = setInterval(() => {
      const now = Date.now();
      longestStall = Math.max(longestStall, now - lastTick);
      lastTick = now;
    }, 5);
    let bigDoneAt = 0;
    const big = fetchSlowly(`${DEEP}&$format=json`).then((result) => {
      bigDoneAt = Date.now();
      return result;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const small = await request(server.url).get('/odata/Categories(0)?$format=json');
    const smallDoneAt = Date.now();
    const result = await big;
    // One more tick, so a stall that ended with the response is measured too.
    await new Promise((resolve) => setTimeout(resolve, 20));
    clearInterval(ticker);
    expect(small.status).toBe(200);
    expect([result.status, result.error]).toEqual([200, undefined]);
    expect(smallDoneAt).toBeLessThan(bigDoneAt);
    // Before: one synchronous build of the whole answer stalled everything (~250 ms at 30 products,
    // 11.6 s at 100); now the longest stall is a chunk's worth of work.
    expect(longestStall).toBeLessThan(200);
    const body = JSON.parse(result.text) as {
      d: { Products: { results: { Supplier: { Products: { results: { Supplier: { Products: { results: unknown[] } } }[] } } }[] } };
    };
    const level1 = body.d.Products.results;
    expect(level1).toHaveLength(30);
    expect(level1[0].Supplier.Products.results).toHaveLength(30);
    expect(level1[29].Supplier.Products.results[29].Supplier.Products.results).toHaveLength(30);
  });

  it('cuts off (and logs) a response that passes the limit only after its first bytes went out', async () => {
    // 60,000 entries are ~27 M characters: the first 16 M were held, then sent, then the limit struck.
    await start(40, { limits: { maxExpandedEntities: 60_000 } });
    const result = await fetchSlowly(`${DEEP}&$format=json`);
    expect(result.status).toBe(200);
    expect(result.error).toBe('aborted');
    expect(logged).toEqual([
      'warn 200 The response was cut off after its headers were sent: $expand exceeds the limit of 60000: the response would hold more than 60000 expanded entries (limits.maxExpandedEntities); ask for fewer with $top, $filter or a narrower $expand.',
    ]);
  });
});
