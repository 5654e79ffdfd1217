/**
 * The SQL translator for SQLite against the shared evaluator: the generated filters and orderings
 * of the PGlite differential (spec/sql/differential.ts) over the same fixture, stored as the
 * SQLite codec stores it (NaN and Times outside one day, which SQLite cannot hold, become null).
 * Equal answers, and what SQLite leaves to the evaluator is exactly the documented set
 * (docs/sql-provider.md, "SQLite"): pushdown-parity.spec.ts counts it.
 */
import { sqlite } from '../../../lib/sql';
import type { SqlDatabase } from '../../../lib/sql';
import { Differential, compareFilters, compareOrderings } from '../differential';
import { SQLITE_LEFT_TO_EVALUATOR } from './left-to-evaluator';

let db: SqlDatabase;
let differential: Differential;

beforeAll(async () => {
  db = sqlite(':memory:');
  differential = new Differential(db);
  await differential.load(80);
}, 60_000);

afterAll(() => db.close());

describe('generated filters: SQLite keeps exactly the entities the evaluator keeps', () => {
  it('800 filters over every operator, function and type', async () => {
    const result = await compareFilters(differential, 1, 800);
    expect(result.mismatches).toEqual([]);
    expect(result.nonEmpty).toBeGreaterThan(400);
    expect(result.divisions).toBeGreaterThan(10);
    // Only what the documented list names is left to the evaluator.
    expect([...result.untranslatable.keys()].filter((reason) => !SQLITE_LEFT_TO_EVALUATOR.some((pattern) => pattern.test(reason)))).toEqual([]);
  }, 60_000);
});

describe('generated orderings: the same order as the evaluator’s sort', () => {
  it('200 $orderby lists (with the key tie-breaker)', async () => {
    const untranslatable = new Map<string, number>();
    expect(await compareOrderings(differential, 2, 200, untranslatable)).toEqual([]);
    expect([...untranslatable.keys()].filter((reason) => !SQLITE_LEFT_TO_EVALUATOR.some((pattern) => pattern.test(reason)))).toEqual([]);
  }, 60_000);
});
