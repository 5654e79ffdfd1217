/**
 * `$expand` within its depth and breadth limits is still bounded work (issue 11, item 8):
 * `Suppliers(0)?$expand=Products/Supplier/Products/Supplier/Products` over 100 products of one
 * supplier asks for over a million entries. The response counts expanded entries while it is
 * written (limits.maxExpandedEntities, default 10,000), MemoryProvider copies large expansions
 * lazily, expanded feeds stream, and the event loop gets a turn after every chunk: other requests
 * are answered while a large expansion is written. How much is written between two turns is
 * counted, never timed: a setImmediate probe numbers the event loop's turns, and every entry the
 * writer reads is counted in the turn it is read in.
 */
import express from 'express';
import http from 'http';
import request from 'supertest';
import { MemoryProvider, odata } from '../../lib';
import type { DataProvider, Entity, ODataServiceOptions } from '../../lib';
import { SYNC_EXPANDED } from '../../lib/format/stream';
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

async function start(
  products: number,
  options: Partial<ODataServiceOptions> = {},
  wrap: (inner: MemoryProvider) => DataProvider = (inner) => inner,
): Promise<void> {
  const app = express();
  const provider = wrap(new MemoryProvider(DEMO_MODEL, supplierWith(products), { links: DEMO_LINKS }));
  app.use('/odata', odata({ model: DEMO_MODEL, provider, logger: (event) => logged.push(`${event.level} ${event.status} ${event.message}`), ...options }));
  server = await startServer(app);
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> => typeof value === 'object' && value !== null && Symbol.asyncIterator in value;

/**
 * `inner`, with every Supplier it returns and the entities expanded from it (however deep, in
 * arrays or streamed) replaced by ones whose properties call `read(entity)` when the writer reads
 * them; each property's value is wrapped once, when first read.
 */
function readCounting(inner: MemoryProvider, read: (entity: object) => void): DataProvider {
  const wrapValue = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(wrapValue);
    if (isAsyncIterable(value))
      return (async function* () {
        for await (const item of value) yield wrapValue(item);
      })();
    return isPlainObject(value) && 'ID' in value ? wrapEntity(value) : value;
  };
  const wrapEntity = (entity: Record<string, unknown>): Entity => {
    const out: Entity = {};
    for (const name of Object.keys(entity)) {
      let wrapped: { value: unknown } | undefined;
      Object.defineProperty(out, name, {
        enumerable: true,
        get: () => {
          read(out);
          wrapped ??= { value: wrapValue(entity[name]) };
          return wrapped.value;
        },
      });
    }
    return out;
  };
  return {
    query: async (queryRequest, context) => {
      const result = await inner.query(queryRequest, context);
      return queryRequest.entitySet.name === 'Suppliers' ? { ...result, entities: wrapValue(result.entities) as Entity[] } : result;
    },
  };
}

afterEach(async () => {
  logged.length = 0;
  await server.close();
});

/** GET a path, reading the body as it arrives; resolves with the whole text (or the error). */
function fetchSlowly(path: string, accept = 'application/json'): Promise<{ status: number | undefined; text: string; error: string | undefined }> {
  return new Promise((resolve) => {
    const { hostname, port } = new URL(server.url);
    const chunks: Buffer[] = [];
    const call = http.get({ host: hostname, port, path: `/odata/${path}`, headers: { accept }, agent: false }, (response) => {
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', (error) => resolve({ status: response.statusCode, text: Buffer.concat(chunks).toString('utf8'), error: error.message }));
      response.on('end', () => resolve({ status: response.statusCode, text: Buffer.concat(chunks).toString('utf8'), error: undefined }));
    });
    call.on('error', (error) => resolve({ status: undefined, text: '', error: error.message }));
  });
}

describe("the issue's request, with the default limit of 10,000 expanded entries", () => {
  it.each(['application/json', 'application/atom+xml'])('answers 400 QUERY_LIMIT_EXCEEDED (%s), and stays correct for small expansions', async (accept) => {
    await start(100);
    const response = await request(server.url).get(`/odata/${DEEP}`).set('accept', accept);
    expect(response.status).toBe(400);
    expect(response.text).toContain('QUERY_LIMIT_EXCEEDED');
    expect(response.text).toContain('the response would hold more than 10000 expanded entries (limits.maxExpandedEntities)');
    // Two levels fit: 100 products, each with its supplier inline.
    const small = await request(server.url).get('/odata/Suppliers(0)?$expand=Products/Supplier&$format=json');
    expect(small.status).toBe(200);
    expect(small.body.d.Products.results).toHaveLength(100);
    expect(small.body.d.Products.results[99].Supplier.ID).toBe(0);
  });
});

describe('a large expansion within a raised limit', () => {
  it('writes the expanded feeds (28,861 entries, ~12 MB) giving the event loop a turn at least every 1,000 entries: another request is answered meanwhile', async () => {
    // The turns of the event loop, numbered by a probe that runs once in every one of them.
    let turn = 0;
    let probing = true;
    const probe = (): void => {
      turn++;
      if (probing) setImmediate(probe);
    };
    // The entries the writer reads, by the turn it reads them in. The first one starts another request.
    const readInTurn = new Map<number, number>();
    const seen = new WeakSet<object>();
    const events: string[] = [];
    let small: Promise<unknown> | undefined;
    await start(30, { limits: { maxExpandedEntities: 100_000 } }, (inner) =>
      readCounting(inner, (entity) => {
        if (seen.has(entity)) return;
        seen.add(entity);
        readInTurn.set(turn, (readInTurn.get(turn) ?? 0) + 1);
        small ??= request(server.url)
          .get('/odata/Categories(0)?$format=json')
          .then((answer) => {
            events.push(
              `small answered ${answer.status}, ${[...readInTurn.values()].reduce((sum, n) => sum + n, 0) < 28_861 ? 'before' : 'after'} the last entry was read`,
            );
          });
      }),
    );
    setImmediate(probe);
    const result = await fetchSlowly(`${DEEP}&$format=json`);
    events.push('big answered');
    probing = false;
    await small;
    expect([result.status, result.error]).toEqual([200, undefined]);
    const body = JSON.parse(result.text) as {
      d: { Products: { results: { Supplier: { Products: { results: { Supplier: { Products: { results: unknown[] } } }[] } } }[] } };
    };
    const level1 = body.d.Products.results;
    expect(level1).toHaveLength(30);
    expect(level1[0].Supplier.Products.results).toHaveLength(30);
    expect(level1[29].Supplier.Products.results[29].Supplier.Products.results).toHaveLength(30);
    // Every entry was read (1 + 30 × (1 + 30 × (1 + 30))), never more than an item's eager
    // expansions (at most SYNC_EXPANDED) or a chunk's worth in one turn. Before, one synchronous
    // build read all of them in a single turn.
    const counts = [...readInTurn.values()];
    expect(counts.reduce((sum, n) => sum + n, 0)).toBe(28_861);
    expect(Math.max(...counts)).toBeLessThanOrEqual(SYNC_EXPANDED);
    expect(counts.length).toBeGreaterThan(28_861 / SYNC_EXPANDED);
    expect(events).toEqual(['small answered 200, before the last entry was read', 'big answered']);
  }, 60_000);

  it('cuts off (and logs) a response that passes the limit only after its first bytes went out', async () => {
    // 60,000 entries are ~27 M characters: the first 16 M were held, then sent, then the limit struck.
    await start(40, { limits: { maxExpandedEntities: 60_000 } });
    const result = await fetchSlowly(`${DEEP}&$format=json`);
    expect(result.status).toBe(200);
    expect(result.error).toBe('aborted');
    expect(logged).toEqual([
      'warn 200 The response was cut off after its headers were sent: $expand exceeds the limit of 60000: the response would hold more than 60000 expanded entries (limits.maxExpandedEntities); ask for fewer with $top, $filter or a narrower $expand.',
    ]);
  }, 60_000);
});
