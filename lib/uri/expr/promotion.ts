/**
 * Numeric promotion (MS-ODATA §2.2.3.6.1.1.1 "Binary Numeric Promotions" and "Unary Numeric
 * Promotions"): which type two numeric operands are compared or combined in. Shared by the type
 * checker and the evaluator, so both agree on every pair; tests enumerate the table.
 */
import { laneOf, type EdmPrimitiveTypeName } from '../../edm/primitives';

/** The numeric types, narrowest first. */
export const NUMERIC_TYPES: readonly EdmPrimitiveTypeName[] = [
  'Edm.Byte',
  'Edm.SByte',
  'Edm.Int16',
  'Edm.Int32',
  'Edm.Int64',
  'Edm.Decimal',
  'Edm.Single',
  'Edm.Double',
];

const NUMERIC = new Set(NUMERIC_TYPES);

/** True for the eight numeric types. */
export function isNumeric(type: EdmPrimitiveTypeName): boolean {
  return NUMERIC.has(type);
}

/**
 * The common type of two numeric operands, or undefined when either is not numeric. The rules, in
 * order: Decimal wins unless the other is Single or Double; then Double; then Single; then Int64;
 * then Int32; then Int16; two bytes of the same signedness stay; Byte with SByte meet in Int16.
 * Decimal with Single/Double falls through to the floating-point rules, as MS-ODATA words it.
 */
export function promoteNumeric(a: EdmPrimitiveTypeName, b: EdmPrimitiveTypeName): EdmPrimitiveTypeName | undefined {
  if (!NUMERIC.has(a) || !NUMERIC.has(b)) return undefined;
  const either = (type: EdmPrimitiveTypeName): boolean => a === type || b === type;
  const floating = either('Edm.Single') || either('Edm.Double');
  if (either('Edm.Decimal') && !floating) return 'Edm.Decimal';
  if (either('Edm.Double')) return 'Edm.Double';
  if (either('Edm.Single')) return 'Edm.Single';
  if (either('Edm.Int64')) return 'Edm.Int64';
  if (either('Edm.Int32')) return 'Edm.Int32';
  if (either('Edm.Int16')) return 'Edm.Int16';
  return a === b ? a : 'Edm.Int16';
}

/** The type of `a add b` etc.: the promoted type, widened to Int32 for the small integers (as .NET does). */
export function arithmeticType(a: EdmPrimitiveTypeName, b: EdmPrimitiveTypeName): EdmPrimitiveTypeName | undefined {
  const promoted = promoteNumeric(a, b);
  return promoted === undefined ? undefined : widenSmallInteger(promoted);
}

/** Byte, SByte and Int16 compute as Int32; other types are unchanged. */
export function widenSmallInteger(type: EdmPrimitiveTypeName): EdmPrimitiveTypeName {
  return type === 'Edm.Byte' || type === 'Edm.SByte' || type === 'Edm.Int16' ? 'Edm.Int32' : type;
}

/** True when a value of `from` may be passed where `to` is expected (identity or numeric widening). */
export function canPromote(from: EdmPrimitiveTypeName, to: EdmPrimitiveTypeName): boolean {
  return from === to || promoteNumeric(from, to) === to;
}

/** True when `cast(value of from, 'to')` is a defined conversion. */
export function canCast(from: EdmPrimitiveTypeName, to: EdmPrimitiveTypeName): boolean {
  if (from === to) return true;
  if (NUMERIC.has(from) && NUMERIC.has(to)) return true;
  return laneOf(from) === 'instant' && laneOf(to) === 'instant';
}

/** True when two primitive types can be compared with `eq`/`ne` (and, if `ordered`, with `lt`...). */
export function areComparable(a: EdmPrimitiveTypeName, b: EdmPrimitiveTypeName, ordered: boolean): boolean {
  if (promoteNumeric(a, b) !== undefined) return true;
  if (laneOf(a) === 'instant' && laneOf(b) === 'instant') return true;
  if (a !== b) return false;
  return !ordered || a !== 'Edm.Binary';
}
