/**
 * The expression dialect: the role of an engine (engine.ts) that writes the SQL text of every
 * expression the filter compiler (compile/) emits, as small functions over `sql` fragments. The
 * compiler decides semantics (types, nulls, promotion) and never writes engine-specific text
 * itself. Each operation must give the shared evaluator's result for non-null operands; the
 * compiler handles null operands.
 */
import type { RawBuilder } from 'kysely';
import type { PreciseInstant } from '../edm/precise-instant';
import type { EdmPrimitiveTypeName, PrimitiveLane, PrimitiveValue } from '../edm/primitives';

/** A SQL fragment (Kysely's `sql` template result). */
export type Sql = RawBuilder<unknown>;

/** The comparison operators. */
export type ComparisonOperator = 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge';

/** The arithmetic operators. */
export type ArithmeticOperator = 'add' | 'sub' | 'mul' | 'div' | 'mod';

/** The date-part functions. */
export type DatePart = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second';

/**
 * Evaluate `values` once and let `body` use them any number of times (the compiler passes plain
 * column references and parameters through, and puts anything else in a derived table).
 */
export type Share = (values: readonly Sql[], body: (refs: readonly Sql[]) => Sql) => Sql;

/** Which sides of a float comparison may be NaN. */
export interface NanSides {
  /** The left operand may be NaN. */
  readonly left: boolean;
  /** The right operand may be NaN. */
  readonly right: boolean;
}

/** The SQL text of the compiler's expressions, one function per operation (an engine's `expressions`). */
export interface SqlExpressions {
  /**
   * A bound parameter in the compiler's form of the type (an Edm.Single literal is a double); a
   * PreciseInstant (a keyset bound of `seekCondition`) with all its digits.
   */
  literal(type: EdmPrimitiveTypeName, value: PrimitiveValue | PreciseInstant): Sql;
  /** A typed NULL in the compiler's form of the type. */
  typedNull(type: EdmPrimitiveTypeName): Sql;
  /**
   * `body` (which reads `table.columns[i]`) over `values` evaluated once per row: a scalar subquery
   * over a one-row derived table that the planner must not fold back into `body`.
   */
  evaluateOnce(values: readonly Sql[], table: string, columns: readonly string[], body: Sql): Sql;

  // --- conversions (cheap: the compiler may repeat them) -----------------------------------------
  /** A value of `from` in the form of `to` for comparison or arithmetic (numeric promotion, DateTime -> DateTimeOffset). */
  convert(value: Sql, from: EdmPrimitiveTypeName, to: EdmPrimitiveTypeName): Sql;
  /** An Edm.Single column (stored single precision) as the double the evaluator holds for it. */
  realAsDouble(value: Sql): Sql;
  /** A timestamp or interval truncated to milliseconds (the precision of the evaluator's values). */
  truncateToMilliseconds(value: Sql): Sql;

  // --- operators ---------------------------------------------------------------------------------
  /** `a op b` for two non-null values of the lane (NaN-aware for floats, ordinal for strings). */
  compare(operator: ComparisonOperator, lane: PrimitiveLane, left: Sql, right: Sql, nan: NanSides, share: Share): Sql;
  /** `a op b` in `type` (the promoted operand type); undefined when the engine cannot match the evaluator. */
  arithmetic(operator: ArithmeticOperator, type: EdmPrimitiveTypeName, left: Sql, right: Sql, share: Share): Sql | undefined;
  /** `-a` in `type` (the promoted operand type). */
  negate(type: EdmPrimitiveTypeName, value: Sql): Sql;
  /** `cast(value, 'to')` for primitives: numeric conversions (null when out of range), DateTime <-> DateTimeOffset. */
  cast(value: Sql, from: EdmPrimitiveTypeName, to: EdmPrimitiveTypeName, share: Share): Sql;

  // --- built-in functions (MS-ODATA §2.2.3.6.1.1.1), with the evaluator's semantics ----------------
  /** `substringof(needle, haystack)`; a literal needle comes as its text (a LIKE pattern can use a trigram index). */
  contains(haystack: Sql, needle: Sql | string): Sql;
  /** `startswith(value, prefix)`; a literal prefix comes as its text. */
  startsWith(value: Sql, prefix: Sql | string): Sql;
  /** `endswith(value, suffix)`; a literal suffix comes as its text. */
  endsWith(value: Sql, suffix: Sql | string, share: Share): Sql;
  /** `length(value)` in UTF-16 code units. */
  length(value: Sql): Sql;
  /** `indexof(value, search)`: 0-based UTF-16 offset, -1 when absent. */
  indexOf(value: Sql, search: Sql, share: Share): Sql;
  /** `replace(value, search, replacement)`: every occurrence; an empty search changes nothing. */
  replace(value: Sql, search: Sql, replacement: Sql): Sql;
  /** `substring(value, start[, length])` over UTF-16 offsets, total (clamped) as the evaluator. */
  substring(value: Sql, start: Sql, length: Sql | undefined, share: Share): Sql;
  /**
   * `tolower` / `toupper` (full Unicode case mapping); undefined when the engine cannot. With
   * `approximate` (SAP's `search` only) never undefined: where the full mapping is missing, the
   * database's own under its default collation (which may map fewer letters than JavaScript).
   */
  changeCase(value: Sql, to: 'lower' | 'upper', approximate?: boolean): Sql | undefined;
  /** `trim(value)`: JavaScript's whitespace set. */
  trim(value: Sql): Sql;
  /** `concat(a, b)`. */
  concat(left: Sql, right: Sql): Sql;
  /** `year(value)` ... `second(value)` in UTC (Edm.Time: of the duration). */
  datePart(part: DatePart, type: EdmPrimitiveTypeName, value: Sql): Sql;
  /** `round`/`floor`/`ceiling` in the Decimal or Double overload (doubles: midpoints away from zero). */
  rounding(name: 'round' | 'floor' | 'ceiling', type: 'Edm.Decimal' | 'Edm.Double', value: Sql, share: Share): Sql;

  // --- ordering ----------------------------------------------------------------------------------
  /**
   * The ORDER BY terms of one `$orderby` item: nulls first ascending, last descending; NaN first
   * among doubles. `nullable` false (a required column): no null placement is needed, and the
   * terms must be ones a plain index on the column can serve in either direction.
   */
  orderBy(value: Sql, lane: PrimitiveLane, direction: 'asc' | 'desc', mayBeNaN: boolean, nullable: boolean): readonly Sql[];
}
