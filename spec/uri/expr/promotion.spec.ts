/** Binary numeric promotion (MS-ODATA §2.2.3.6.1.1.1) for every pair of numeric types, and the cast and comparison tables. */
import type { EdmPrimitiveTypeName } from '../../../lib/edm/primitives';
import { areComparable, arithmeticType, canCast, canPromote, NUMERIC_TYPES, promoteNumeric } from '../../../lib/uri/expr';

const SHORT: Readonly<Record<string, EdmPrimitiveTypeName>> = {
  B: 'Edm.Byte',
  SB: 'Edm.SByte',
  I16: 'Edm.Int16',
  I32: 'Edm.Int32',
  I64: 'Edm.Int64',
  M: 'Edm.Decimal',
  F: 'Edm.Single',
  D: 'Edm.Double',
};

// Rows and columns in NUMERIC_TYPES order: Byte SByte Int16 Int32 Int64 Decimal Single Double.
const TABLE: Readonly<Record<string, readonly string[]>> = {
  B: ['B', 'I16', 'I16', 'I32', 'I64', 'M', 'F', 'D'],
  SB: ['I16', 'SB', 'I16', 'I32', 'I64', 'M', 'F', 'D'],
  I16: ['I16', 'I16', 'I16', 'I32', 'I64', 'M', 'F', 'D'],
  I32: ['I32', 'I32', 'I32', 'I32', 'I64', 'M', 'F', 'D'],
  I64: ['I64', 'I64', 'I64', 'I64', 'I64', 'M', 'F', 'D'],
  M: ['M', 'M', 'M', 'M', 'M', 'M', 'F', 'D'],
  F: ['F', 'F', 'F', 'F', 'F', 'F', 'F', 'D'],
  D: ['D', 'D', 'D', 'D', 'D', 'D', 'D', 'D'],
};

const PAIRS = Object.entries(TABLE).flatMap(([row, results]) => results.map((result, column) => [SHORT[row], NUMERIC_TYPES[column], SHORT[result]] as const));

describe('promoteNumeric', () => {
  it('has the eight numeric types, narrowest first', () => {
    expect(NUMERIC_TYPES).toEqual(Object.values(SHORT));
  });

  it.each(PAIRS)('%s with %s -> %s', (a, b, expected) => {
    expect(promoteNumeric(a, b)).toBe(expected);
    expect(promoteNumeric(b, a)).toBe(expected);
  });

  it.each(['Edm.String', 'Edm.Boolean', 'Edm.DateTime', 'Edm.Guid'] as const)('is undefined for %s', (other) => {
    expect(promoteNumeric(other, 'Edm.Int32')).toBeUndefined();
  });

  it('widens the small integers to Int32 for arithmetic', () => {
    expect(arithmeticType('Edm.Byte', 'Edm.Byte')).toBe('Edm.Int32');
    expect(arithmeticType('Edm.Int16', 'Edm.SByte')).toBe('Edm.Int32');
    expect(arithmeticType('Edm.Int64', 'Edm.Byte')).toBe('Edm.Int64');
    expect(arithmeticType('Edm.String', 'Edm.Byte')).toBeUndefined();
  });
});

describe('canPromote (function arguments)', () => {
  it.each([
    ['Edm.Int32', 'Edm.Decimal', true],
    ['Edm.Int64', 'Edm.Double', true],
    ['Edm.Single', 'Edm.Double', true],
    ['Edm.Single', 'Edm.Decimal', false],
    ['Edm.Double', 'Edm.Decimal', false],
    ['Edm.Int64', 'Edm.Int32', false],
    ['Edm.String', 'Edm.String', true],
    ['Edm.Int32', 'Edm.String', false],
  ] as const)('%s -> %s: %s', (from, to, expected) => {
    expect(canPromote(from, to)).toBe(expected);
  });
});

describe('canCast and areComparable', () => {
  it.each([
    ['Edm.Double', 'Edm.Int16', true],
    ['Edm.Decimal', 'Edm.Byte', true],
    ['Edm.DateTime', 'Edm.DateTimeOffset', true],
    ['Edm.String', 'Edm.Int32', false],
    ['Edm.Int32', 'Edm.String', false],
    ['Edm.Guid', 'Edm.Guid', true],
    ['Edm.Boolean', 'Edm.Int32', false],
  ] as const)('cast %s to %s: %s', (from, to, expected) => {
    expect(canCast(from, to)).toBe(expected);
  });

  it.each([
    ['Edm.String', 'Edm.String', true, true],
    ['Edm.String', 'Edm.Int32', false, false],
    ['Edm.Binary', 'Edm.Binary', true, false],
    ['Edm.Boolean', 'Edm.Boolean', true, true],
    ['Edm.DateTime', 'Edm.DateTimeOffset', true, true],
    ['Edm.Time', 'Edm.DateTime', false, false],
    ['Edm.Decimal', 'Edm.Double', true, true],
  ] as const)('%s vs %s: eq %s, lt %s', (a, b, equality, ordering) => {
    expect(areComparable(a, b, false)).toBe(equality);
    expect(areComparable(a, b, true)).toBe(ordering);
  });
});
