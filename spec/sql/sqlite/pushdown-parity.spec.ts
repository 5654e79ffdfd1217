/**
 * Pushdown parity: SQLite translates the same `$filter` and `$orderby` expressions as PostgreSQL,
 * minus a listed, documented set it leaves to the evaluator (left-to-evaluator.ts, and
 * docs/sql-provider.md, "SQLite"). Compiled only, over the generated expressions of the
 * differential: an engine that left everything to the evaluator would fail the share asserted here.
 */
import { compileFilterSql, compileOrderBySql } from '../../../lib/sql/compile/compile';
import type { SqlExpressions } from '../../../lib/sql/dialect';
import { UntranslatableExpressionError } from '../../../lib/sql/errors';
import { createPostgresEngine } from '../../../lib/sql/postgres/engine';
import { createSqliteEngine } from '../../../lib/sql/sqlite/engine';
import { withKeyTieBreaker } from '../../../lib/uri/orderby';
import { isODataError } from '../../../lib/errors';
import { ExpressionGenerator } from '../expression-generator';
import { Item, itemFilter, itemOrderBy, itemsContext } from '../support';
import { SQLITE_LEFT_TO_EVALUATOR } from './left-to-evaluator';

/** The reason the dialect gives up on `compile`, or undefined when it translates it. */
function reasonOf(compile: () => unknown): string | undefined {
  try {
    compile();
    return undefined;
  } catch (error) {
    if (error instanceof UntranslatableExpressionError) return error.reason;
    throw error;
  }
}

/** `count` well-typed generated expressions of one kind, with what each engine does with them. */
function survey(count: number, next: (generator: ExpressionGenerator) => string, compile: (text: string, dialect: SqlExpressions) => unknown) {
  const generator = new ExpressionGenerator(3);
  const postgres = createPostgresEngine().expressions;
  const sqlite = createSqliteEngine().expressions;
  const rows: { text: string; postgres: string | undefined; sqlite: string | undefined }[] = [];
  while (rows.length < count) {
    const text = next(generator);
    try {
      compile(text, postgres);
    } catch (error) {
      if (isODataError(error) && error.status === 400) continue; // ill-typed: the checker's business
      if (!(error instanceof UntranslatableExpressionError)) throw error;
    }
    rows.push({ text, postgres: reasonOf(() => compile(text, postgres)), sqlite: reasonOf(() => compile(text, sqlite)) });
  }
  return rows;
}

const documented = (reason: string): boolean => SQLITE_LEFT_TO_EVALUATOR.some((pattern) => pattern.test(reason));

describe.each([
  [
    '$filter',
    1000,
    (generator: ExpressionGenerator) => generator.filter(),
    (text: string, dialect: SqlExpressions) => compileFilterSql(itemFilter(text), itemsContext({ dialect })),
  ],
  [
    '$orderby',
    400,
    (generator: ExpressionGenerator) => generator.orderBy(),
    (text: string, dialect: SqlExpressions) => compileOrderBySql(withKeyTieBreaker(itemOrderBy(text), Item), itemsContext({ dialect })),
  ],
])('%s', (_name, count, next, compile) => {
  const rows = survey(count, next, compile);

  it('SQLite leaves to the evaluator only what PostgreSQL does, or a documented case', () => {
    const undocumented = rows.filter((row) => row.sqlite !== undefined && row.postgres === undefined && !documented(row.sqlite));
    expect(undocumented.map((row) => `${row.text}: ${row.sqlite}`)).toEqual([]);
  });

  it('SQLite translates whatever PostgreSQL translates, but for the documented cases, and most of the expressions', () => {
    const translated = (engine: 'postgres' | 'sqlite'): number => rows.filter((row) => row[engine] === undefined).length;
    expect(translated('postgres')).toBeGreaterThan(count * 0.95);
    // The documented cases (Decimal order and casts, double div and mod, literals SQLite cannot hold) stay rare.
    expect(translated('sqlite')).toBeGreaterThan(translated('postgres') * 0.85);
  });
});
