/**
 * The `$filter` fuzz corpus against SqlProvider on PGlite (see fuzz.ts): random strings, token
 * soups and generated filters and orders over the demo's Products, answered by MemoryProvider and
 * SqlProvider on the same data. Small enough for `npm test` (a few seconds); `SQL_FUZZ_SCALE=20`
 * runs twenty times as many, and `npm run test:postgres` runs a larger corpus on a real server.
 */
import type { PGlite } from '@electric-sql/pglite';
import { pglite } from '../../../lib/sql/postgres/pglite';
import * as fallback from '../../../lib/sql/read/fallback';
import { DEMO_LINKS, DEMO_MODEL } from '../../helpers/demo';
import { openTestPGlite } from '../../helpers/pglite';
import { largerDemoData } from './demo-data';
import { fuzzProviders, scaled } from './fuzz';
import { both, loadDatabase, servePair, type ServicePair } from './support';

// The evaluator fallback, counted: a module's exports cannot be spied on in place (they are
// read-only bindings), so every importer gets this counting wrapper of the real function.
jest.mock('../../../lib/sql/read/fallback', () => {
  const actual = jest.requireActual<typeof fallback>('../../../lib/sql/read/fallback');
  return { ...actual, evaluateRead: jest.fn(actual.evaluateRead) };
});

let instance: PGlite;
let pair: ServicePair;

beforeAll(async () => {
  instance = await openTestPGlite();
  const db = pglite(instance);
  const data = largerDemoData(120);
  await loadDatabase(db, DEMO_MODEL, data, DEMO_LINKS);
  pair = await servePair(DEMO_MODEL, data, db, { links: DEMO_LINKS });
}, 60_000);

afterAll(async () => {
  await pair?.close();
  await instance?.close();
});

it('every fuzzed or generated $filter and $orderby: a result or a 4xx, no SQL in errors, the answers of MemoryProvider', async () => {
  // Reads the translator could not do alone go through the evaluator: they must stay rare, or the
  // comparison would test the evaluator against itself.
  const evaluated = jest.mocked(fallback.evaluateRead);
  evaluated.mockClear();
  // The spy sees the fallback: mod of doubles has no exact SQL.
  expect((await both(pair, `Products?$format=json&$filter=${encodeURIComponent("cast(Rating, 'Edm.Double') mod 2.0 eq 1.0")}`)).sql.status).toBe(200);
  expect(evaluated).toHaveBeenCalledTimes(1);
  evaluated.mockClear();
  const report = await fuzzProviders(pair, 14, scaled({ soups: 150, strings: 60, orderSoups: 60, filters: 120, orders: 40 }));
  expect(report.serverErrors).toEqual([]);
  expect(report.leaks).toEqual([]);
  expect(report.mismatches).toEqual([]);
  // The documented difference (a division by zero whose value cannot matter) stays a rarity.
  expect(report.deadDivisions.length).toBeLessThan(report.requests * 0.01);
  // The corpus must reach the database, with rows and without: else it proves little.
  expect(report.outcomes['200']).toBeGreaterThan(report.requests * 0.15);
  expect(report.outcomes.empty).toBeGreaterThan(0);
  expect(report.outcomes['400']).toBeGreaterThan(report.requests * 0.3);
  expect(evaluated.mock.calls.length).toBeLessThan(report.outcomes['200'] * 0.05);
}, 120_000);
