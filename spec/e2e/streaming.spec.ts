/**
 * Large feeds stream (issue 7): a provider that yields 100,000 entities lazily, like a database
 * cursor, is answered with body bytes that reach the client long before the provider has made its
 * last entity, and the server's memory does not grow with the feed (the JSON body is ~46 MB, the
 * Atom body ~104 MB). Not a timing test: it checks the order of events and retained heap. The
 * measurement follows bench/streaming-check.js, in one process. MemoryProvider's big pages stream too.
 */
import express from 'express';
import http from 'http';
import { setFlagsFromString } from 'v8';
import { runInNewContext } from 'vm';
import { odata } from '../../lib';
import type { DataProvider, Entity, QueryResult } from '../../lib/provider/types';
import { startServer, type RunningServer } from '../helpers/server';
import { DEMO_MODEL, demoData, demoProvider } from '../helpers/demo';

const ENTITIES = 100_000;
const MB = 2 ** 20;

/** A full garbage collection, when the runtime lets us ask for one (then retained memory is measurable). */
function findGc(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return exposed as () => void;
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}
const gc = findGc();

/** Heap in use now: after a full collection when possible, so only what is still reachable counts. */
function heapUsed(): number {
  gc?.();
  return process.memoryUsage().heapUsed;
}

/** What the provider did, for the assertions: how many entities it made, and the heap it saw while making them. */
interface Cursor {
  yielded: number;
  /** `yielded` when the client received the first body bytes. */
  yieldedAtFirstByte: number | undefined;
  heapSamples: number[];
}

/** Products made on the fly, 500 per macrotask (as a driver reads rows), with a heap sample every 20,000. */
async function* products(count: number, cursor: Cursor): AsyncIterable<Entity> {
  for (let id = 0; id < count; id++) {
    if (id % 500 === 0) await new Promise(setImmediate);
    if (id % 20_000 === 10_000) cursor.heapSamples.push(heapUsed());
    cursor.yielded++;
    yield {
      ID: id,
      Name: `Streamed product ${id}`,
      Description: 'An entity made by the streaming provider, never stored',
      ReleaseDate: new Date(Date.UTC(1990, 0, 1) + (id % 10_000) * 86_400_000),
      DiscontinuedDate: null,
      Rating: id % 6,
      Price: `${id % 1000}.25`,
    };
  }
}

/** GET the feed, counting entries across chunk boundaries without keeping the body. */
function readFeed(
  url: string,
  needle: string,
  onFirstByte: () => void,
): Promise<{ status: number | undefined; headers: http.IncomingHttpHeaders; entries: number; bytes: number; head: string; tail: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (response) => {
        let entries = 0;
        let bytes = 0;
        let head = '';
        let tail = '';
        let carry = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (bytes === 0) onFirstByte();
          bytes += Buffer.byteLength(chunk);
          if (head.length < 64) head += chunk.slice(0, 64);
          const text = carry + chunk;
          for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) entries++;
          carry = text.slice(-(needle.length - 1));
          tail = (tail + chunk).slice(-64);
        });
        response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, entries, bytes, head, tail }));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

const model = DEMO_MODEL;

describe('a feed from an async-iterable provider streams', () => {
  let cursor: Cursor;
  let server: RunningServer;
  const provider: DataProvider = {
    async query(): Promise<QueryResult> {
      return { entities: products(ENTITIES, cursor) };
    },
  };

  beforeAll(async () => {
    const app = express();
    app.use('/odata', odata({ model, provider }));
    server = await startServer(app);
  });
  afterAll(() => server.close());

  it.each([
    ['JSON', '$format=json', '"type":"ODataDemo.Product"', '{"d":{"results":[', ']}}'],
    ['Atom', '$format=atom', '<category term="ODataDemo.Product"', '<?xml', '</feed>'],
  ])(
    'in %s: first bytes before the last entity is made, and the heap stays flat',
    async (_format, query, needle, head, tail) => {
      cursor = { yielded: 0, yieldedAtFirstByte: undefined, heapSamples: [] };
      const before = heapUsed();
      const read = await readFeed(`${server.url}/odata/Products?${query}`, needle, () => {
        cursor.yieldedAtFirstByte = cursor.yielded;
      });
      expect([read.status, read.entries, cursor.yielded]).toEqual([200, ENTITIES, ENTITIES]);
      expect(read.head.startsWith(head)).toBe(true);
      expect(read.tail.trimEnd().endsWith(tail)).toBe(true);
      // A streamed body has no length to announce.
      expect([read.headers['transfer-encoding'], read.headers['content-length']]).toEqual(['chunked', undefined]);
      // The client had bytes while the provider had made a small part of the feed.
      expect(cursor.yieldedAtFirstByte).toBeDefined();
      expect(cursor.yieldedAtFirstByte ?? ENTITIES).toBeLessThan(ENTITIES / 10);
      // Retained heap while the provider works (after full collections when available) stays far below
      // the body size: a writer that collected the entities or the text would hold tens of MB by the
      // middle of the feed. Without a collector to call, garbage counts too: the bound is the body size.
      const growth = Math.max(...cursor.heapSamples) - before;
      expect(cursor.heapSamples).toHaveLength(5);
      expect(read.bytes).toBeGreaterThan(40 * MB);
      expect(growth).toBeLessThan(gc === undefined ? read.bytes : 16 * MB);
    },
    120_000,
  );
});

describe('server-driven paging over an async-iterable provider', () => {
  it('reads one entity more than a page and closes the cursor, even from a provider that ignores top', async () => {
    const cursor: Cursor = { yielded: 0, yieldedAtFirstByte: undefined, heapSamples: [] };
    let closed = false;
    const provider: DataProvider = {
      async query(): Promise<QueryResult> {
        async function* guarded(): AsyncIterable<Entity> {
          try {
            yield* products(ENTITIES, cursor);
          } finally {
            closed = true;
          }
        }
        return { entities: guarded() };
      },
    };
    const app = express();
    app.use('/odata', odata({ model, provider, maxPageSize: 100 }));
    const server = await startServer(app);
    try {
      const read = await readFeed(`${server.url}/odata/Products?$format=json`, '"type":"ODataDemo.Product"', () => undefined);
      expect([read.status, read.entries, read.tail.endsWith('$skiptoken=99"}}')]).toEqual([200, 100, true]);
      expect([cursor.yielded, closed]).toEqual([101, true]);
    } finally {
      await server.close();
    }
  });
});

describe('MemoryProvider streams a page above streamAbove', () => {
  let server: RunningServer;
  beforeAll(async () => {
    const products = Array.from({ length: 1500 }, (_, id) => ({
      ID: id,
      Name: `Product ${id}`,
      ReleaseDate: '2020-01-01T00:00:00Z',
      Rating: id % 6,
      Price: '1.5',
      CategoryID: 0,
      SupplierID: 0,
    }));
    const demo = demoData();
    const provider = demoProvider({ Categories: demo.Categories, Suppliers: demo.Suppliers, Products: products });
    const app = express();
    app.use('/odata', odata({ model, provider }));
    server = await startServer(app);
  });
  afterAll(() => server.close());

  it('sends the 1,500 entities of GET Products in chunks, and 1,000 with $top=1000 as one body', async () => {
    const all = await readFeed(`${server.url}/odata/Products?$format=json`, '"type":"ODataDemo.Product"', () => undefined);
    expect([all.status, all.entries, all.headers['transfer-encoding']]).toEqual([200, 1500, 'chunked']);
    const page = await readFeed(`${server.url}/odata/Products?$format=json&$top=1000`, '"type":"ODataDemo.Product"', () => undefined);
    expect([page.status, page.entries, page.headers['transfer-encoding'], page.headers['content-length']]).toEqual([200, 1000, undefined, String(page.bytes)]);
  });
});
