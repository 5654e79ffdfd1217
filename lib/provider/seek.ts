/**
 * The `$skiptoken` position as a keyset condition in the filter AST (the node types the parser and
 * type checker produce), so a provider that translates `$filter` translates paging with the same
 * code: `seekCondition(orderBy, position, entityType)` keeps exactly the entities that
 * `compileSkipTokenFilter` keeps (a property spec checks it against the evaluator). MS-ODATA
 * §2.2.3.6.1.9: the token is the last entry's `$orderby` values and key; the next page starts
 * strictly after it in `$orderby` order, with the service's null placement (first ascending, last
 * descending), NaN before every number, and key properties the order does not cover compared last,
 * ascending.
 *
 * Timestamps (the kit's precision rule, docs/conformance.md "Timestamps"): Edm.DateTime and
 * Edm.DateTimeOffset sort by the stored value, then the key. A position's date/time value is
 * either a PreciseInstant (the store's full value, from `QueryResult.positionOf`, printed with all
 * its digits in the token) or a `Date`, which stands for its whole millisecond (a store that keeps
 * milliseconds, or a token an earlier release wrote). The condition carries the bound as it came:
 * a translator compares a PreciseInstant literal exactly (`col > '…00.123456'`), and a `Date`
 * literal as `$filter` does, at milliseconds (`col >= t + 1 ms`, the same millisecond a tie). So
 * a token of an earlier release, which paged in millisecond order, continues with exactly the rows
 * its pages had not shown (see docs/conformance.md for the one case a later page repeats some).
 */
import type { EdmEntityType } from '../edm/model';
import type { EdmPrimitiveTypeName } from '../edm/primitives';
import type { ExprNode } from '../uri/expr/ast';
import { and, binary, FALSE, literal, or, propertyMember, TRUE } from './nodes';
import { alignPosition } from '../uri/skiptoken';
import type { OrderByItem, PositionValue, SkipTokenPosition } from '../uri/types';

/** One sort key of the condition: what is compared, which way, and the position's value. */
interface SeekKey {
  readonly expression: ExprNode;
  readonly type: EdmPrimitiveTypeName | undefined;
  readonly descending: boolean;
  readonly bound: PositionValue | null;
}

function isFloat(type: EdmPrimitiveTypeName | undefined): boolean {
  return type === 'Edm.Double' || type === 'Edm.Single';
}

/** True exactly for a NaN value (`x ne x`: NaN compares with nothing, and `null ne null` is false). */
function isNaNOf(expression: ExprNode): ExprNode {
  return binary('ne', expression, expression);
}

/** The entity ties with the position on this key (the sort's equality: null with null, NaN with NaN). */
function tie(key: SeekKey): ExprNode {
  const { expression, bound } = key;
  if (bound === null) return binary('eq', expression, literal(null, undefined));
  if (typeof bound === 'number' && Number.isNaN(bound)) return isNaNOf(expression);
  return binary('eq', expression, literal(bound, key.type));
}

/** The entity sorts strictly after the position on this key alone. */
function after(key: SeekKey): ExprNode {
  const { expression, bound, descending } = key;
  const isNull = binary('eq', expression, literal(null, undefined));
  const notNull = binary('ne', expression, literal(null, undefined));
  const nan = typeof bound === 'number' && Number.isNaN(bound);
  if (!descending) {
    // Ascending: null, then NaN, then the numbers (or values) in order.
    if (bound === null) return notNull;
    if (nan) return and(notNull, binary('eq', expression, expression));
    return binary('gt', expression, literal(bound, key.type));
  }
  // Descending: the values in reverse order, then NaN, then null.
  if (bound === null) return FALSE;
  if (nan) return isNull;
  const below = binary('lt', expression, literal(bound, key.type));
  const withNaN = isFloat(key.type) ? or(below, isNaNOf(expression)) : below;
  return requiredProperty(expression) ? withNaN : or(withNaN, isNull);
}

/** A redundant range on the first key that an index on it can serve (the exact condition follows it). */
function range(key: SeekKey): ExprNode {
  const { expression, bound } = key;
  if (bound === null || (typeof bound === 'number' && Number.isNaN(bound))) return TRUE;
  if (!key.descending) return binary('ge', expression, literal(bound, key.type));
  // Descending, nulls (and NaN) last: a range only when the expression can be neither (a required, non-float property).
  return requiredProperty(expression) && !isFloat(key.type) ? binary('le', expression, literal(bound, key.type)) : TRUE;
}

function requiredProperty(expression: ExprNode): boolean {
  if (expression.kind !== 'Member' || expression.base !== undefined || expression.steps === undefined) return false;
  return expression.steps.every((step) => step.kind === 'Property' && !step.property.nullable);
}

function staticType(expression: ExprNode): EdmPrimitiveTypeName | undefined {
  return expression.type?.kind === 'Primitive' ? expression.type.name : undefined;
}

/**
 * The keyset condition of a `$skiptoken`: true exactly for the entities after `position` in
 * `orderBy` order (the client's `$orderby`, then the key tie-breaker), as compileSkipTokenFilter
 * decides. Built from the order's own (type-checked) expressions and typed literals, a
 * PreciseInstant bound as a literal of its own (see the module comment); the first key also gets
 * a redundant range (`Price ge 5 and (...)`) that an index on it can serve.
 * 400 SKIPTOKEN_INVALID when the position does not fit the order.
 */
export function seekCondition(orderBy: readonly OrderByItem[], position: SkipTokenPosition, entityType: EdmEntityType): ExprNode {
  const { bounds, uncoveredKeys } = alignPosition(orderBy, position);
  const keys: SeekKey[] = orderBy.map((item, index) => ({
    expression: item.expression,
    type: staticType(item.expression),
    descending: item.direction === 'desc',
    bound: bounds[index],
  }));
  for (const name of uncoveredKeys) {
    const expression = propertyMember(entityType, name);
    keys.push({ expression, type: staticType(expression), descending: false, bound: position.key[name] });
  }
  // after_0 or (tie_0 and (after_1 or (tie_1 and ...))), built from the last key outwards.
  let condition: ExprNode = FALSE;
  for (let i = keys.length - 1; i >= 0; i--) condition = or(after(keys[i]), and(tie(keys[i]), condition));
  return keys.length === 0 ? FALSE : and(range(keys[0]), condition);
}
