/**
 * The differential spec against a real PostgreSQL server (`npm run test:postgres`): the same
 * generated filters and orderings as on PGlite, more of them, in a database of its own, with the
 * server's TimeZone far from UTC (the harness sets Pacific/Chatham) and an ICU default collation.
 */
import { createTestDatabase } from '../helpers/postgres-database';
import { postgres } from '../../lib/sql/postgres/server';
import type { SqlDatabase } from '../../lib/sql/database';
import { Differential, compareFilters, compareOrderings } from './differential';
import { describeKnownDifferences } from './known-differences';

let database: SqlDatabase;
let drop: () => Promise<void>;
let differential: Differential;

beforeAll(async () => {
  const created = await createTestDatabase();
  drop = created.drop;
  database = postgres(created.url);
  differential = new Differential(database);
  await differential.load(80);
});

afterAll(async () => {
  await database.close();
  await drop();
});

it('3,000 generated filters: PostgreSQL keeps exactly the entities the evaluator keeps', async () => {
  const result = await compareFilters(differential, 101, 3000);
  expect(result.mismatches).toEqual([]);
  expect(result.nonEmpty).toBeGreaterThan(1500);
  expect(result.divisions).toBeGreaterThan(30);
}, 300_000);

it('600 generated orderings: the same order as the evaluator', async () => {
  expect(await compareOrderings(differential, 102, 600)).toEqual([]);
}, 300_000);

describeKnownDifferences(() => differential);
