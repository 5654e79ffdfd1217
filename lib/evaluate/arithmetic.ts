/**
 * `add sub mul div mod` and negation per result type, with .NET's semantics (what WCF Data
 * Services ran): Int32 and Int64 wrap around on overflow (unchecked) and divide toward zero; Single
 * rounds to single precision; Double follows IEEE 754 (x div 0 is ±INF); Decimal is exact
 * (division keeps 28 fractional digits). An integer or decimal division by zero is an error.
 */
import type { EdmPrimitiveTypeName } from '../edm/primitives';
import type { BinaryOperator } from '../uri/expr/ast';
import { addDecimal, divideDecimal, moduloDecimal, multiplyDecimal, negateDecimal, subtractDecimal, type ExactDecimal } from './decimal';

/** A value of a numeric lane. */
export type NumericLaneValue = number | bigint | ExactDecimal;

export type ArithmeticOperator = Extract<BinaryOperator, 'add' | 'sub' | 'mul' | 'div' | 'mod'>;

type Operation = (a: NumericLaneValue, b: NumericLaneValue) => NumericLaneValue;

/** Int32 (and the small integers, widened to it). */
function int32(operator: ArithmeticOperator, divisionByZero: () => never): Operation {
  switch (operator) {
    case 'add':
      return (a, b) => ((a as number) + (b as number)) | 0;
    case 'sub':
      return (a, b) => ((a as number) - (b as number)) | 0;
    case 'mul':
      return (a, b) => Math.imul(a as number, b as number);
    case 'div':
      return (a, b) => (b === 0 ? divisionByZero() : Math.trunc((a as number) / (b as number)) | 0);
    case 'mod':
      return (a, b) => (b === 0 ? divisionByZero() : ((a as number) % (b as number)) | 0);
  }
}

function int64(operator: ArithmeticOperator, divisionByZero: () => never): Operation {
  // Int64 lane values are safe-integer numbers or bigints: compute in bigint, wrap to 64 bits (.NET unchecked).
  const big = (value: NumericLaneValue): bigint => (typeof value === 'bigint' ? value : BigInt(value as number));
  const wrap = (value: bigint): bigint => BigInt.asIntN(64, value);
  switch (operator) {
    case 'add':
      return (a, b) => wrap(big(a) + big(b));
    case 'sub':
      return (a, b) => wrap(big(a) - big(b));
    case 'mul':
      return (a, b) => wrap(big(a) * big(b));
    case 'div':
      return (a, b) => (big(b) === 0n ? divisionByZero() : wrap(big(a) / big(b)));
    case 'mod':
      return (a, b) => (big(b) === 0n ? divisionByZero() : big(a) % big(b));
  }
}

function decimal(operator: ArithmeticOperator, divisionByZero: () => never): Operation {
  switch (operator) {
    case 'add':
      return (a, b) => addDecimal(a as ExactDecimal, b as ExactDecimal);
    case 'sub':
      return (a, b) => subtractDecimal(a as ExactDecimal, b as ExactDecimal);
    case 'mul':
      return (a, b) => multiplyDecimal(a as ExactDecimal, b as ExactDecimal);
    case 'div':
      return (a, b) => divideDecimal(a as ExactDecimal, b as ExactDecimal) ?? divisionByZero();
    case 'mod':
      return (a, b) => moduloDecimal(a as ExactDecimal, b as ExactDecimal) ?? divisionByZero();
  }
}

function floating(operator: ArithmeticOperator, single: boolean): Operation {
  const round = single ? Math.fround : (value: number): number => value;
  switch (operator) {
    case 'add':
      return (a, b) => round((a as number) + (b as number));
    case 'sub':
      return (a, b) => round((a as number) - (b as number));
    case 'mul':
      return (a, b) => round((a as number) * (b as number));
    case 'div':
      return (a, b) => round((a as number) / (b as number));
    case 'mod':
      return (a, b) => round((a as number) % (b as number));
  }
}

/**
 * The operation for operands already in the lane of `type` (the promoted operand type:
 * number for Byte..Int32/Single/Double, bigint for Int64, ExactDecimal for Decimal).
 */
export function arithmeticOperation(operator: ArithmeticOperator, type: EdmPrimitiveTypeName, divisionByZero: () => never): Operation {
  switch (type) {
    case 'Edm.Int64':
      return int64(operator, divisionByZero);
    case 'Edm.Decimal':
      return decimal(operator, divisionByZero);
    case 'Edm.Single':
      return floating(operator, true);
    case 'Edm.Double':
      return floating(operator, false);
    default:
      return int32(operator, divisionByZero);
  }
}

/** Unary minus in the lane of `type`. */
export function negation(type: EdmPrimitiveTypeName): (a: NumericLaneValue) => NumericLaneValue {
  switch (type) {
    case 'Edm.Int64':
      return (a) => BigInt.asIntN(64, -(typeof a === 'bigint' ? a : BigInt(a as number)));
    case 'Edm.Decimal':
      return (a) => negateDecimal(a as ExactDecimal);
    case 'Edm.Single':
    case 'Edm.Double':
      return (a) => -(a as number);
    default:
      return (a) => -(a as number) | 0;
  }
}
