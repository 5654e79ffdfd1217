/**
 * Runtime values of the evaluator. Entities hold values in the EDM JS representation
 * (edm/primitives); to compare or compute, a value is moved into the lane of the promoted type
 * (`laneOf`): numbers for the small integers and floats, exact int64 (bigint), exact decimals,
 * strings, instants... Dynamic properties of
 * open types have no declared type, so `inferType` reads one from the JS value.
 */
import { isPreciseInstant, type PreciseInstant } from '../edm/precise-instant';
import { laneOf, numberRange, type EdmPrimitiveTypeName, type PrimitiveLane, type PrimitiveValue } from '../edm/primitives';
import { timeToMilliseconds } from '../edm/temporal-text';
import { isNumeric, promoteNumeric } from '../uri/expr/promotion';
import { decimalFromInteger, decimalFromNumber, formatDecimal, parseDecimal, type ExactDecimal } from './decimal';

/**
 * A value inside its lane. An instant is its milliseconds, or a PreciseInstant: a position's value
 * finer than that (only a `$skiptoken` bound or a literal of `seekCondition` is one).
 */
export type LaneValue = number | bigint | ExactDecimal | string | boolean | Uint8Array | PreciseInstant;

/** True for the lanes whose values are JS numbers here: the small integers and the floats. */
export function isNumberLane(lane: PrimitiveLane): boolean {
  return lane === 'integer' || lane === 'float';
}

/** The type two operands meet in (numeric promotion; DateTime with DateTimeOffset; else identical). */
export function commonType(a: EdmPrimitiveTypeName, b: EdmPrimitiveTypeName): EdmPrimitiveTypeName | undefined {
  const numeric = promoteNumeric(a, b);
  if (numeric !== undefined) return numeric;
  if (a === b) return a;
  if (laneOf(a) === 'instant' && laneOf(b) === 'instant') return 'Edm.DateTimeOffset';
  return undefined;
}

function isIntegerText(text: string): boolean {
  const start = text.charCodeAt(0) === 45 ? 1 : 0;
  if (text.length === start || text.length - start > 25) return false;
  for (let i = start; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/** A value in the given lane; undefined when the value does not belong there. */
export function toLane(lane: PrimitiveLane, value: unknown): LaneValue | undefined {
  switch (lane) {
    case 'integer':
    case 'float':
      if (typeof value === 'number') return value;
      if (typeof value === 'string') {
        const exact = parseDecimal(value);
        return exact === undefined ? undefined : Number(value);
      }
      return typeof value === 'bigint' ? Number(value) : undefined;
    case 'int64':
      // Safe integers stay numbers (fast to read and compare; `<` works across number and bigint);
      // arithmetic converts both operands to bigint.
      if (typeof value === 'string') {
        if (!isIntegerText(value)) return undefined;
        return value.length <= 15 ? Number(value) : BigInt(value);
      }
      if (typeof value === 'number') return Number.isSafeInteger(value) ? value : Number.isInteger(value) ? BigInt(value) : undefined;
      return typeof value === 'bigint' ? value : undefined;
    case 'decimal':
      if (typeof value === 'string') return parseDecimal(value);
      if (typeof value === 'number') return Number.isInteger(value) ? decimalFromInteger(value) : decimalFromNumber(value);
      return typeof value === 'bigint' ? decimalFromInteger(value) : undefined;
    case 'string':
      return typeof value === 'string' ? value : undefined;
    case 'guid':
      return typeof value === 'string' ? value.toLowerCase() : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'instant':
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime();
      return isPreciseInstant(value) ? value : undefined;
    case 'time':
      return typeof value === 'string' ? timeToMilliseconds(value) : undefined;
    case 'binary':
      return value instanceof Uint8Array ? value : undefined;
    default:
      return undefined;
  }
}

const INT32 = numberRange('Edm.Int32');

/**
 * The EDM type of a value whose type is not declared (a dynamic property). Strings are the JS form
 * of several types: met by a numeric `hint`, a string of digits is an Int64 or a Decimal; met by a
 * Guid or a Time, a string of that form is one. Otherwise a string is an Edm.String.
 */
export function inferType(value: unknown, hint?: EdmPrimitiveTypeName): EdmPrimitiveTypeName | undefined {
  switch (typeof value) {
    case 'boolean':
      return 'Edm.Boolean';
    case 'number':
      if (Number.isInteger(value) && value >= INT32.min && value <= INT32.max) return 'Edm.Int32';
      return Number.isSafeInteger(value) ? 'Edm.Int64' : 'Edm.Double';
    case 'bigint':
      return 'Edm.Int64';
    case 'string':
      return hint === undefined || hint === 'Edm.String' ? 'Edm.String' : stringType(value, hint);
    default:
      if (value instanceof Date || isPreciseInstant(value)) return hint === 'Edm.DateTimeOffset' ? hint : 'Edm.DateTime';
      if (value instanceof Uint8Array) return 'Edm.Binary';
      return undefined;
  }
}

function stringType(value: string, hint: EdmPrimitiveTypeName): EdmPrimitiveTypeName {
  if (isNumeric(hint)) {
    if (hint === 'Edm.Int64' && isIntegerText(value)) return 'Edm.Int64';
    return parseDecimal(value) === undefined ? 'Edm.String' : 'Edm.Decimal';
  }
  if (hint === 'Edm.Time') return timeToMilliseconds(value) === undefined ? 'Edm.String' : hint;
  if (hint === 'Edm.Guid') return value.length === 36 && value.charCodeAt(8) === 45 && value.charCodeAt(13) === 45 ? hint : 'Edm.String';
  return 'Edm.String';
}

/** Types of two dynamic (or one dynamic, one declared) values, each read with the other as hint. */
export function inferPair(
  left: unknown,
  right: unknown,
  leftDeclared: EdmPrimitiveTypeName | undefined,
  rightDeclared: EdmPrimitiveTypeName | undefined,
): [EdmPrimitiveTypeName | undefined, EdmPrimitiveTypeName | undefined] {
  let leftType = leftDeclared ?? inferType(left, rightDeclared);
  const rightType = rightDeclared ?? inferType(right, leftType);
  if (leftDeclared === undefined && leftType === 'Edm.String' && rightType !== 'Edm.String') leftType = inferType(left, rightType);
  return [leftType, rightType];
}

/** A numeric lane value back in the JS representation of `type` (Int64 and Decimal as exact strings). */
export function fromNumericLane(type: EdmPrimitiveTypeName, value: number | bigint | ExactDecimal): PrimitiveValue {
  const number = isNumberLane(laneOf(type));
  if (typeof value === 'number') return number ? value : String(value);
  if (typeof value === 'bigint') return number ? Number(value) : value.toString();
  return number ? Number(formatDecimal(value)) : formatDecimal(value);
}
