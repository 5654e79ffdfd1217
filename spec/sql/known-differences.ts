/**
 * The documented differences between the SQL translation and the evaluator (docs/sql-provider.md,
 * "Where SQL and the evaluator differ"), pinned: each case shows the evaluator's answer and
 * PostgreSQL's, so a change on either side (or a fix) shows up here. Runs on the differential
 * fixture (80 Items) in both the PGlite and the real-server spec.
 */
import { sqlStateOf } from '../../lib/sql/errors';
import type { Differential } from './differential';
import { itemFilter } from './support';

const ALL = Array.from({ length: 80 }, (_, i) => i + 1);

/** The pinned differences, over the caller's differential (loaded with the 80-row fixture). */
export function describeKnownDifferences(loaded: () => Differential): void {
  describe('documented differences, pinned', () => {
    const run = async (filter: string): Promise<{ evaluator: unknown; sql: unknown }> => {
      const node = itemFilter(filter);
      let sqlOutcome: unknown;
      try {
        sqlOutcome = await loaded().query(node);
      } catch (error) {
        sqlOutcome = `SQLSTATE ${sqlStateOf(error) ?? String(error)}`;
      }
      return { evaluator: loaded().evaluate(node).outcome, sql: sqlOutcome };
    };

    it('strings order by UTF-16 code unit in the evaluator and by code point in PostgreSQL: U+E000..U+FFFF against supplementary characters', async () => {
      expect(await run("'\uFFFD' lt '😀'")).toEqual({ evaluator: [], sql: ALL });
      // Below U+E000 both orders agree.
      expect(await run("'\uD7FF' lt '😀'")).toEqual({ evaluator: ALL, sql: ALL });
    });

    it('a substring that cuts a surrogate pair: the evaluator keeps half a pair, PostgreSQL holds U+FFFD', async () => {
      // Equal as U+FFFD, different as halves; length, positions and searches for literals agree.
      expect(await run("substring('😀', 0, 1) eq substring('😀', 1, 1)")).toEqual({ evaluator: [], sql: ALL });
      expect(await run("concat(substring('😀', 0, 1), substring('😀', 1)) eq '😀'")).toEqual({ evaluator: ALL, sql: [] });
      expect(await run("length(substring('a😀', 0, 2)) eq 2 and indexof(substring('😀b', 1), 'b') eq 1")).toEqual({ evaluator: ALL, sql: ALL });
    });

    it('a division by zero in an operand whose value cannot matter: one side evaluates it, the other does not', async () => {
      // `X gt null` is false whatever X is: PostgreSQL never computes X, the evaluator does (400).
      expect(await run('Int32 div 0 gt null')).toEqual({ evaluator: 'division by zero', sql: [] });
      // The evaluator stops at the null left operand; PostgreSQL computes the right one too.
      expect(await run("cast(NaN, 'Edm.Int32') add (1 div Int32) eq 1")).toEqual({ evaluator: [], sql: 'division by zero' });
    });

    it('double overflow and underflow: the evaluator gives ±INF and 0 (IEEE 754), PostgreSQL raises 22003', async () => {
      const overflow = await run('Double mul 1E300 eq INF');
      expect(overflow.sql).toBe('SQLSTATE 22003');
      expect(overflow.evaluator).toEqual(expect.arrayContaining([expect.any(Number)]));
      const decimal = '1' + '0'.repeat(320) + 'M';
      expect(await run(`cast(${decimal}, 'Edm.Double') eq INF`)).toEqual({ evaluator: ALL, sql: 'SQLSTATE 22003' });
      expect(await run('Double mul 1E-300 mul 1E-300 eq 0.0')).toEqual({ evaluator: expect.arrayContaining([expect.any(Number)]), sql: 'SQLSTATE 22003' });
    });

    it.each(['DateTime', 'DateTimeOffset desc'])(
      '$orderby=%s: PostgreSQL sorts by the stored microseconds, the evaluator (which holds milliseconds) by millisecond, then key',
      async (orderBy) => {
        const stored = await loaded().order(orderBy, true);
        expect(stored.actual).not.toEqual(stored.expected);
        expect([...(stored.actual as number[])].sort((a, b) => a - b)).toEqual([...(stored.expected as number[])].sort((a, b) => a - b));
        // Seen at milliseconds, as the evaluator's values are, PostgreSQL's order is the evaluator's.
        expect((await loaded().order(orderBy)).actual).toEqual(stored.expected);
      },
    );
  });
}
