/**
 * The differential check of the SQL translator: generated filters and orderings, each run by the
 * shared evaluator over the fixture's entities (as MemoryProvider runs it) and by PostgreSQL over
 * the same rows; the kept entities (and their order) must be equal. Used by the PGlite spec in
 * `npm test` and by the real-server spec in `npm run test:postgres`.
 */
import { sql } from 'kysely';
import { isODataError } from '../../lib/errors';
import { compileExpression, compileFilter, compileOrderBy } from '../../lib/evaluate/evaluate';
import type { EvaluationOptions } from '../../lib/evaluate/runtime';
import type { Entity } from '../../lib/provider/types';
import { compileFilterSql, compileOrderBySql } from '../../lib/sql/compile/compile';
import type { SqlDatabase } from '../../lib/sql/database';
import { SQLSTATE, UntranslatableExpressionError, sqlStateOf } from '../../lib/sql/errors';
import { withKeyTieBreaker } from '../../lib/uri/orderby';
import type { ExprNode } from '../../lib/uri/expr/ast';
import { isNumeric, promoteNumeric, walkExpression } from '../../lib/uri/expr';
import { ExpressionGenerator } from './expression-generator';
import { createFixture, fixtureRows, readEntities } from './fixture';
import { ITEMS_FROM, Item, itemFilter, itemOrderBy, itemsContext } from './support';

/** What one side answered: the kept IDs in order, or division by zero. */
type Outcome = readonly number[] | 'division by zero';

/** The evaluator's answer per entity: kept, dropped, or a division by zero on the way. */
interface Evaluation {
  readonly outcome: Outcome;
  /** IDs of the entities whose evaluation divided by zero. */
  readonly poisoned: ReadonlySet<number>;
}

/** The fixture loaded into `db`, and both ways of answering a filter or an ordering over it. */
export class Differential {
  private entities: Entity[] = [];
  private access: EvaluationOptions = {};

  constructor(private readonly db: SqlDatabase) {}

  async load(rows: number): Promise<void> {
    await createFixture(this.db, fixtureRows(rows));
    const { entities, typeOf } = await readEntities(this.db);
    this.entities = entities;
    this.access = { typeOf };
  }

  /** The evaluator's answer, entity by entity (as MemoryProvider filters, the first division by zero fails the request). */
  evaluate(filter: ExprNode): Evaluation {
    const keep = compileFilter(filter, this.access);
    const kept: number[] = [];
    const poisoned = new Set<number>();
    for (const entity of this.entities) {
      try {
        if (keep(entity)) kept.push(Number(entity.ID));
      } catch (error) {
        if (!isODataError(error) || error.code !== 'FILTER_DIVISION_BY_ZERO') throw error;
        poisoned.add(Number(entity.ID));
      }
    }
    return { outcome: poisoned.size > 0 ? 'division by zero' : kept, poisoned };
  }

  /** The IDs the evaluator keeps among the entities it can evaluate. */
  keptOutside(filter: ExprNode, poisoned: ReadonlySet<number>): number[] {
    const keep = compileFilter(filter, this.access);
    return this.entities.filter((entity) => !poisoned.has(Number(entity.ID)) && keep(entity)).map((entity) => Number(entity.ID));
  }

  /**
   * Whether some integer or decimal `div`/`mod` in the filter has a zero divisor for some entity:
   * then PostgreSQL may fail with division by zero where the evaluator never reached it (it skips
   * the other operand of an operation whose first operand is null, and decided and/or branches).
   */
  divisesByZeroSomewhere(filter: ExprNode): boolean {
    let found = false;
    walkExpression(filter, {
      Binary: (node) => {
        if (found || (node.operator !== 'div' && node.operator !== 'mod')) return;
        const [left, right] = [node.left.type, node.right.type];
        const common = left?.kind === 'Primitive' && right?.kind === 'Primitive' ? promoteNumeric(left.name, right.name) : undefined;
        if (common === undefined || !isNumeric(common) || common === 'Edm.Double' || common === 'Edm.Single') return;
        const divisor = compileExpression(node.right, this.access);
        found = this.entities.some((entity) => {
          try {
            const value = divisor(entity);
            return value === 0 || value === '0';
          } catch {
            return false;
          }
        });
      },
    });
    return found;
  }

  /** PostgreSQL's answer (rows in ID order, as the evaluator keeps the fixture). */
  async query(filter: ExprNode): Promise<Outcome> {
    const where = compileFilterSql(filter, itemsContext({ dialect: this.db.sqlEngine.expressions }));
    try {
      const result = await sql<{ ID: number }>`select t."ID" from ${ITEMS_FROM} where ${where} order by t."ID"`.execute(this.db.kysely);
      return result.rows.map((row) => Number(row.ID));
    } catch (error) {
      if (sqlStateOf(error) === SQLSTATE.divisionByZero) return 'division by zero';
      throw error;
    }
  }

  /**
   * The IDs in `$orderby` order (with the key tie-breaker) by the evaluator and by PostgreSQL.
   * `stored`: timestamps as stored (microseconds, the provider's order); without it PostgreSQL
   * sees them cut to milliseconds, as the evaluator's values are, so both orders must agree.
   */
  async order(text: string, stored = false): Promise<{ expected: Outcome; actual: Outcome }> {
    const orderBy = withKeyTieBreaker(itemOrderBy(text), Item);
    let expected: Outcome;
    try {
      expected = this.entities
        .slice()
        .sort(compileOrderBy(orderBy, this.access))
        .map((entity) => Number(entity.ID));
    } catch (error) {
      if (!isODataError(error) || error.code !== 'FILTER_DIVISION_BY_ZERO') throw error;
      expected = 'division by zero';
    }
    const terms = compileOrderBySql(orderBy, itemsContext({ milliseconds: !stored, dialect: this.db.sqlEngine.expressions }));
    try {
      const result = await sql<{ ID: number }>`select t."ID" from ${ITEMS_FROM} order by ${sql.join(terms)}`.execute(this.db.kysely);
      return { expected, actual: result.rows.map((row) => Number(row.ID)) };
    } catch (error) {
      if (sqlStateOf(error) !== SQLSTATE.divisionByZero) throw error;
      return { expected, actual: 'division by zero' };
    }
  }
}

/** Run `count` generated filters; returns the mismatches (text, evaluator, SQL) and counters. */
export async function compareFilters(
  differential: Differential,
  seed: number,
  count: number,
): Promise<{ mismatches: string[]; compared: number; untranslatable: Map<string, number>; divisions: number; deadDivisions: number; nonEmpty: number }> {
  const generator = new ExpressionGenerator(seed);
  const mismatches: string[] = [];
  const untranslatable = new Map<string, number>();
  let compared = 0;
  let divisions = 0;
  let deadDivisions = 0;
  let nonEmpty = 0;
  while (compared < count) {
    const text = generator.filter();
    let filter: ExprNode;
    try {
      filter = itemFilter(text);
    } catch (error) {
      if (isODataError(error) && error.status === 400) continue; // ill-typed: the checker's business
      throw error;
    }
    compared++;
    const { outcome: expected, poisoned } = differential.evaluate(filter);
    let actual: Outcome;
    try {
      actual = await differential.query(filter);
    } catch (error) {
      if (error instanceof UntranslatableExpressionError) {
        untranslatable.set(error.reason, (untranslatable.get(error.reason) ?? 0) + 1);
        continue;
      }
      mismatches.push(`${text}\n    evaluator: ${JSON.stringify(expected)}\n    PostgreSQL: ${String(error)}`);
      continue;
    }
    if (expected === 'division by zero') divisions++;
    else if (expected.length > 0) nonEmpty++;
    if (expected === 'division by zero' && actual !== 'division by zero') {
      // Documented: PostgreSQL need not evaluate an operand whose value cannot matter (the other
      // operand of a comparison is null, the other side of and/or decides). Then it must agree
      // with the evaluator on every entity the evaluator could evaluate.
      deadDivisions++;
      const agreed = differential.keptOutside(filter, poisoned);
      const answered = actual.filter((id) => !poisoned.has(id));
      if (JSON.stringify(agreed) !== JSON.stringify(answered)) {
        mismatches.push(`${text}\n    evaluator (outside ${[...poisoned].join(',')}): ${JSON.stringify(agreed)}\n    PostgreSQL: ${JSON.stringify(answered)}`);
      }
      continue;
    }
    if (actual === 'division by zero' && expected !== 'division by zero' && differential.divisesByZeroSomewhere(filter)) {
      deadDivisions++; // documented, the other way round: PostgreSQL divided where the evaluator skipped
      continue;
    }
    if (JSON.stringify(expected) !== JSON.stringify(actual)) {
      mismatches.push(`${text}\n    evaluator:  ${JSON.stringify(expected)}\n    PostgreSQL: ${JSON.stringify(actual)}`);
    }
  }
  return { mismatches, compared, untranslatable, divisions, deadDivisions, nonEmpty };
}

/**
 * Run `count` generated orderings; returns the mismatches. An ordering the engine leaves to the
 * evaluator counts in `untranslatable` when given (else it fails the run).
 */
export async function compareOrderings(differential: Differential, seed: number, count: number, untranslatable?: Map<string, number>): Promise<string[]> {
  const generator = new ExpressionGenerator(seed);
  const mismatches: string[] = [];
  for (let i = 0; i < count; i++) {
    const text = generator.orderBy();
    try {
      itemOrderBy(text);
    } catch (error) {
      if (isODataError(error) && error.status === 400) continue;
      throw error;
    }
    let order: Awaited<ReturnType<Differential['order']>>;
    try {
      order = await differential.order(text);
    } catch (error) {
      if (untranslatable === undefined || !(error instanceof UntranslatableExpressionError)) throw error;
      untranslatable.set(error.reason, (untranslatable.get(error.reason) ?? 0) + 1);
      continue;
    }
    const { expected, actual } = order;
    // A constant item is left out of ORDER BY, where the evaluator still computes it (a dead division).
    if (expected === 'division by zero' && actual !== 'division by zero') continue;
    if (JSON.stringify(expected) !== JSON.stringify(actual))
      mismatches.push(`${text}\n    evaluator:  ${JSON.stringify(expected)}\n    PostgreSQL: ${JSON.stringify(actual)}`);
  }
  return mismatches;
}
