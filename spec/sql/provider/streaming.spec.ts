/**
 * A large feed from SqlProvider streams (as spec/e2e/streaming.spec.ts checks for any provider):
 * 100,000 products in PGlite, `GET Products` with no page limit. The provider reads keyset chunks
 * of 1,000 rows while the response is written: the client has body bytes when a small part of the
 * chunks has been read, every product arrives exactly once and in key order, and the heap sampled
 * while chunks are read stays far below the body's size. Not a timing test.
 */
import express from 'express';
import http from 'http';
import {
  sql,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import type { PGlite } from '@electric-sql/pglite';
import { setFlagsFromString } from 'v8';
import { runInNewContext } from 'vm';
import { odata } from '../../../lib';
import { SqlProvider, createSchema } from '../../../lib/sql';
import type { SqlDatabase } from '../../../lib/sql/database';
import { pglite } from '../../../lib/sql/postgres/pglite';
import { DEMO_MODEL } from '../../helpers/demo';
import { openTestPGlite } from '../../helpers/pglite';
import { startServer, type RunningServer } from '../../helpers/server';

const PRODUCTS = 100_000;
const MB = 2 ** 20;

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

function heapUsed(): number {
  gc?.();
  return process.memoryUsage().heapUsed;
}

/** Counts the chunks read (statements), sampling the heap every 20th. */
class Chunks implements KyselyPlugin {
  read = 0;
  samples: number[] = [];

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.read++;
    if (this.read % 20 === 10) this.samples.push(heapUsed());
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

let instance: PGlite;
let server: RunningServer;
const chunks = new Chunks();

beforeAll(async () => {
  instance = await openTestPGlite();
  const db = pglite(instance);
  await createSchema(db, DEMO_MODEL);
  await sql`insert into "Products" ("ID", "Name", "Description", "ReleaseDate", "Rating", "Price")
    select i, 'Streamed product ' || i, 'A row of the streaming spec', timestamp '1990-01-01' + (i % 10000) * interval '1 day', i % 6, ((i % 1000) || '.25')::numeric
    from generate_series(0, ${PRODUCTS - 1}) as i`.execute(db.kysely);
  const counted: SqlDatabase = { ...db, kysely: db.kysely.withPlugin(chunks) };
  const app = express();
  app.use('/odata', odata({ model: DEMO_MODEL, provider: new SqlProvider({ model: DEMO_MODEL, db: counted }) }));
  server = await startServer(app);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await instance.close();
});

it('GET Products streams 100,000 rows: first bytes after a few chunks, each row once and in order, flat heap', async () => {
  const before = heapUsed();
  let chunksAtFirstByte: number | undefined;
  let bytes = 0;
  let entries = 0;
  let expected = 0;
  let outOfOrder = 0;
  let carry = '';
  const status = await new Promise<number | undefined>((resolve, reject) => {
    http
      .get(`${server.url}/odata/Products?$format=json`, { agent: false }, (response) => {
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          chunksAtFirstByte ??= chunks.read;
          bytes += Buffer.byteLength(chunk);
          const text = carry + chunk;
          const pattern = /Products\((\d+)\)","type"/g;
          let last = 0;
          for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
            if (Number(match[1]) !== expected) outOfOrder++;
            expected = Number(match[1]) + 1;
            entries++;
            last = pattern.lastIndex;
          }
          carry = text.slice(Math.max(last, text.length - 40));
        });
        response.on('end', () => resolve(response.statusCode));
        response.on('error', reject);
      })
      .on('error', reject);
  });
  expect([status, entries, outOfOrder, expected]).toEqual([200, PRODUCTS, 0, PRODUCTS]);
  // 100 chunks of 1,000 rows (and one empty read that finds the end).
  expect(chunks.read).toBeGreaterThanOrEqual(100);
  expect(chunks.read).toBeLessThanOrEqual(101);
  expect(chunksAtFirstByte).toBeDefined();
  expect(chunksAtFirstByte ?? PRODUCTS).toBeLessThan(10);
  expect(bytes).toBeGreaterThan(30 * MB);
  const growth = Math.max(...chunks.samples) - before;
  expect(chunks.samples.length).toBeGreaterThanOrEqual(4);
  expect(growth).toBeLessThan(gc === undefined ? bytes : 16 * MB);
}, 120_000);
