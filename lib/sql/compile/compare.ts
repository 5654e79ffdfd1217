/**
 * Comparisons with the evaluator's null semantics (MS-ODATA §2.2.3.6.1.1.1 as WCF ran them):
 * `eq`/`ne` treat null as a value (`X eq null` is true when X is null), `lt`/`le`/`gt`/`ge` with a
 * null operand are false, and every comparison is two-valued (so `not (X gt 5)` keeps a null X,
 * where SQL's `NOT (x > 5)` would be unknown). Operands meet in their promoted type's lane.
 */
import { sql } from 'kysely';
import { isPreciseInstant } from '../../edm/precise-instant';
import { laneOf, type EdmPrimitiveTypeName } from '../../edm/primitives';
import type { BinaryNode, ExprNode } from '../../uri/expr/ast';
import { promoteNumeric } from '../../uri/expr/promotion';
import type { ComparisonOperator, Sql } from '../dialect';
import { EVALUATOR_PRECISION, isNullTyped, untranslatable, type NodeCompiler, type SqlValue, type Truth } from './context';
import { presenceOf } from './members';

/** The type two compared operands meet in: numeric promotion, DateTime with DateTimeOffset as an instant, else the same type. */
function comparisonType(a: EdmPrimitiveTypeName, b: EdmPrimitiveTypeName): EdmPrimitiveTypeName | undefined {
  const numeric = promoteNumeric(a, b);
  if (numeric !== undefined) return numeric;
  if (a === b) return a;
  return laneOf(a) === 'instant' && laneOf(b) === 'instant' ? 'Edm.DateTimeOffset' : undefined;
}

/** `X op null`: only `eq`/`ne` can be true, by whether X is null. */
function nullComparison(c: NodeCompiler, node: BinaryNode, operator: ComparisonOperator): Sql {
  const leftNull = isNullTyped(node.left);
  const rightNull = isNullTyped(node.right);
  if (operator !== 'eq' && operator !== 'ne') return c.state.constant(false);
  if (leftNull && rightNull) return c.state.constant(operator === 'eq');
  const other = leftNull ? node.right : node.left;
  const value = operandOrPresence(c, other);
  return operator === 'eq' ? sql`(${value} is null)` : sql`(${value} is not null)`;
}

/** A primitive operand's SQL, or for an entity or complex value an expression that is null when it is. */
function operandOrPresence(c: NodeCompiler, node: ExprNode): Sql {
  const kind = node.type?.kind;
  return kind === 'Entity' || kind === 'Complex' ? presenceOf(c, node) : c.value(node).sql;
}

/**
 * The operand in the form of `common`: promoted, a stored single as its double, truncated to
 * milliseconds (unless `exact`: compared with a PreciseInstant, by the full stored value).
 */
function inLane(c: NodeCompiler, value: SqlValue, from: EdmPrimitiveTypeName, common: EdmPrimitiveTypeName, keepReal: boolean, exact: boolean): Sql {
  const { dialect } = c.state;
  let converted = value.realColumn && !keepReal ? dialect.realAsDouble(value.sql) : dialect.convert(value.sql, from, common);
  const lane = laneOf(common);
  if ((lane === 'instant' || lane === 'time') && value.precision > EVALUATOR_PRECISION && !exact) converted = dialect.truncateToMilliseconds(converted);
  return c.state.isCheap(value.sql) ? c.state.markCheap(converted) : converted;
}

const FLIPPED: Readonly<Record<ComparisonOperator, ComparisonOperator>> = { eq: 'eq', ne: 'ne', lt: 'gt', le: 'ge', gt: 'lt', ge: 'le' };

/**
 * A timestamp column that stores microseconds against a literal: the evaluator compares the
 * column's millisecond value, so `col eq t` is `t <= col < t + 1 ms`, `col le t` is `col < t + 1 ms`
 * and so on, which keeps the bare column (and its index) where `date_trunc` would not.
 */
function columnAgainstInstant(c: NodeCompiler, column: SqlValue, literal: SqlValue, operator: ComparisonOperator): Sql | undefined {
  const type = column.type;
  if (!column.column || column.precision <= EVALUATOR_PRECISION || !(literal.literal instanceof Date) || type === null || laneOf(type) !== 'instant')
    return undefined;
  const { dialect } = c.state;
  const start = dialect.literal(type, literal.literal);
  const next = dialect.literal(type, new Date(literal.literal.getTime() + 1));
  const col = column.sql;
  switch (operator) {
    case 'eq':
      return sql`(${col} >= ${start} and ${col} < ${next})`;
    case 'ne':
      return sql`(${col} < ${start} or ${col} >= ${next})`;
    case 'lt':
      return sql`(${col} < ${start})`;
    case 'le':
      return sql`(${col} < ${next})`;
    case 'gt':
      return sql`(${col} >= ${next})`;
    case 'ge':
      return sql`(${col} >= ${start})`;
  }
}

function mayBeNaN(value: SqlValue): boolean {
  if (value.type !== 'Edm.Double' && value.type !== 'Edm.Single') return false;
  return value.literal === undefined || Number.isNaN(value.literal);
}

/** Compile `left op right` (op a comparison operator). */
export function compileComparison(c: NodeCompiler, node: BinaryNode, operator: ComparisonOperator, truth: Truth): Sql {
  if (isNullTyped(node.left) || isNullTyped(node.right)) return nullComparison(c, node, operator);
  const left = c.value(node.left);
  const right = c.value(node.right);
  if (left.type === null || right.type === null) return untranslatable('a comparison of values of unknown type');
  const common = comparisonType(left.type, right.type) ?? untranslatable(`${left.type} compared with ${right.type}`);
  const lane = laneOf(common);
  const { dialect } = c.state;

  // A keyset bound finer than milliseconds compares with the full stored value (its column stays bare).
  const exact = isPreciseInstant(left.literal) || isPreciseInstant(right.literal);
  const direct = exact ? undefined : (columnAgainstInstant(c, left, right, operator) ?? columnAgainstInstant(c, right, left, FLIPPED[operator]));
  const bothReal = left.realColumn && right.realColumn; // single precision orders as its doubles: no conversion needed
  const a = direct === undefined ? inLane(c, left, left.type, common, bothReal, exact) : left.sql;
  const b = direct === undefined ? inLane(c, right, right.type, common, bothReal, exact) : right.sql;
  const nan = { left: mayBeNaN(left), right: mayBeNaN(right) };

  const eitherNull = left.nullable || right.nullable;
  const nullTests = (operator === 'eq' && left.nullable && right.nullable) || (operator === 'ne' && eitherNull);
  const build = ([x, y]: readonly Sql[]): Sql => {
    const core = direct ?? dialect.compare(operator, lane, x, y, nan, c.state.share);
    if (!nullTests) return core;
    // Where SQL's answer is unknown, the evaluator's is: null eq null; null ne (anything but null).
    if (operator === 'eq') return sql`(${core} or (${x} is null and ${y} is null))`;
    if (left.nullable && right.nullable) return sql`(${core} or ((${x} is null) <> (${y} is null)))`;
    return sql`(${core} or ${left.nullable ? x : y} is null)`;
  };
  // The null tests repeat the operands: evaluate them once (the dialect shares what it repeats itself).
  const compared = nullTests && direct === undefined ? c.state.share([a, b], build) : build([a, b]);
  // Two-valued where the caller needs it; under WHERE (and and/or below it) unknown already means false.
  return truth === 'exact' && eitherNull ? sql`coalesce(${compared}, false)` : compared;
}
