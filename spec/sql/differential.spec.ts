/**
 * The SQL translator against the shared evaluator on PGlite: generated filters and orderings over
 * the tricky fixture (see fixture.ts), each answered by the evaluator (as MemoryProvider answers
 * it) and by PostgreSQL, with the session in a time zone far from UTC. Equal, or a documented
 * difference that the comparison checks precisely (see differential.ts). The same run against a
 * real server is differential.pg.spec.ts (`npm run test:postgres`).
 */
import { sql } from 'kysely';
import type { PGlite } from '@electric-sql/pglite';
import { pglite } from '../../lib/sql/postgres/pglite';
import { openTestPGlite } from '../helpers/pglite';
import { Differential, compareFilters, compareOrderings } from './differential';
import { describeKnownDifferences } from './known-differences';

let instance: PGlite;
let differential: Differential;
const database = (): ReturnType<typeof pglite> => pglite(instance);

beforeAll(async () => {
  instance = await openTestPGlite();
  // The translation must not depend on the session's time zone (+12:45/+13:45, as far as it gets).
  await sql`set time zone 'Pacific/Chatham'`.execute(database().kysely);
  differential = new Differential(database());
  await differential.load(80);
}, 60_000);

afterAll(() => instance.close());

describe('generated filters: PostgreSQL keeps exactly the entities the evaluator keeps', () => {
  it('800 filters over every operator, function and type', async () => {
    const result = await compareFilters(differential, 1, 800);
    expect(result.mismatches).toEqual([]);
    // The generator must reach what it is for: kept rows, divisions by zero on both sides.
    expect(result.nonEmpty).toBeGreaterThan(400);
    expect(result.divisions).toBeGreaterThan(10);
    expect([...result.untranslatable]).toEqual([]);
  }, 60_000);
});

describe('generated orderings: the same order as the evaluator’s sort', () => {
  it('200 $orderby lists (with the key tie-breaker)', async () => {
    expect(await compareOrderings(differential, 2, 200)).toEqual([]);
  }, 60_000);
});

describeKnownDifferences(() => differential);
