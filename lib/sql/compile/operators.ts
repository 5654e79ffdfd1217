/**
 * `add sub mul div mod` and negation, in the promoted operand type as the evaluator computes them
 * (.NET semantics: Int32/Int64 wrap around, integer division truncates, Decimal is exact with 28
 * fractional digits in division, Single rounds to single precision). Null in, null out.
 */
import type { EdmPrimitiveTypeName } from '../../edm/primitives';
import type { BinaryNode, UnaryNode } from '../../uri/expr/ast';
import { isNumeric, promoteNumeric, widenSmallInteger } from '../../uri/expr/promotion';
import type { ArithmeticOperator, Sql } from '../dialect';
import { computed, isNullTyped, primitiveOf, untranslatable, type NodeCompiler, type SqlValue } from './context';

/** A numeric operand in the form of `type`: promoted, and a stored single as the evaluator's double. */
export function numericOperand(c: NodeCompiler, value: SqlValue, type: EdmPrimitiveTypeName): Sql {
  const { dialect } = c.state;
  if (value.type === null || !isNumeric(value.type)) return untranslatable(`a numeric operation on ${value.type ?? 'null'}`);
  const converted = value.realColumn ? dialect.realAsDouble(value.sql) : dialect.convert(value.sql, value.type, type);
  return c.state.isCheap(value.sql) ? c.state.markCheap(converted) : converted;
}

/** A typed NULL of the node's type (an operation with the `null` literal). */
function nullOf(c: NodeCompiler, type: EdmPrimitiveTypeName | undefined): SqlValue {
  return computed(c.state.constant(type ?? 'Edm.Int32'), type ?? null, true);
}

/** `left op right` for an arithmetic operator. */
export function compileArithmetic(c: NodeCompiler, node: BinaryNode, operator: ArithmeticOperator): SqlValue {
  if (isNullTyped(node.left) || isNullTyped(node.right)) return nullOf(c, primitiveOf(node));
  const left = c.value(node.left);
  const right = c.value(node.right);
  const common = left.type !== null && right.type !== null ? promoteNumeric(left.type, right.type) : undefined;
  if (common === undefined) return untranslatable(`'${operator}' on ${left.type ?? 'null'} and ${right.type ?? 'null'}`);
  const a = numericOperand(c, left, common);
  const b = numericOperand(c, right, common);
  const result = c.state.dialect.arithmetic(operator, common, a, b, c.state.share) ?? untranslatable(`'${operator}' on ${common}`);
  return computed(result, widenSmallInteger(common), left.nullable || right.nullable);
}

/** `-operand`. */
export function compileNegation(c: NodeCompiler, node: UnaryNode): SqlValue {
  if (isNullTyped(node.operand)) return nullOf(c, primitiveOf(node));
  const operand = c.value(node.operand);
  if (operand.type === null) return untranslatable('negation of a value of unknown type');
  const type = widenSmallInteger(operand.type);
  return computed(c.state.dialect.negate(type, numericOperand(c, operand, type)), type, operand.nullable);
}
