/**
 * The `$filter` fuzz corpus against SqlProvider on a real PostgreSQL server (`npm run
 * test:postgres`; see fuzz.ts): ten times the corpus of the PGlite spec, another seed, the
 * server's TimeZone far from UTC and an ICU default collation (the harness sets both).
 */
import { postgres } from '../../../lib/sql/postgres/server';
import type { SqlDatabase } from '../../../lib/sql/database';
import { DEMO_LINKS, DEMO_MODEL } from '../../helpers/demo';
import { createTestDatabase } from '../../helpers/postgres-database';
import { largerDemoData } from './demo-data';
import { fuzzProviders, scaled } from './fuzz';
import { loadDatabase, servePair, type ServicePair } from './support';

let database: SqlDatabase;
let drop: () => Promise<void>;
let pair: ServicePair;

beforeAll(async () => {
  const created = await createTestDatabase();
  drop = created.drop;
  database = postgres(created.url);
  const data = largerDemoData(240);
  await loadDatabase(database, DEMO_MODEL, data, DEMO_LINKS);
  pair = await servePair(DEMO_MODEL, data, database, { links: DEMO_LINKS });
});

afterAll(async () => {
  await pair?.close();
  await database?.close();
  await drop?.();
});

it('every fuzzed or generated $filter and $orderby: a result or a 4xx, no SQL in errors, the answers of MemoryProvider', async () => {
  const report = await fuzzProviders(pair, 114, scaled({ soups: 1500, strings: 600, orderSoups: 600, filters: 1200, orders: 400 }));
  expect(report.serverErrors).toEqual([]);
  expect(report.leaks).toEqual([]);
  expect(report.mismatches).toEqual([]);
  // The documented difference (a division by zero whose value cannot matter) stays a rarity.
  expect(report.deadDivisions.length).toBeLessThan(report.requests * 0.01);
  expect(report.outcomes['200']).toBeGreaterThan(report.requests * 0.15);
  expect(report.outcomes.empty).toBeGreaterThan(0);
}, 600_000);
