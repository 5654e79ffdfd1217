/**
 * The EDM primitive types of OData 2.0 and how their values live in JavaScript. This table is the
 * single place that says which JS representation each type has; literals, payload readers and
 * writers and the evaluator all follow it.
 *
 * | EDM type                         | JS value                                              |
 * |----------------------------------|-------------------------------------------------------|
 * | Edm.String                       | string                                                |
 * | Edm.Boolean                      | boolean                                               |
 * | Edm.Byte, SByte, Int16, Int32    | number (integer)                                      |
 * | Edm.Int64                        | string, canonical decimal integer (`"-42"`): exact    |
 * | Edm.Decimal                      | string, canonical decimal (`"2.5"`, no exponent)      |
 * | Edm.Single, Edm.Double           | number (NaN, Infinity and -Infinity allowed)          |
 * | Edm.DateTime                     | Date (UTC; millisecond precision)                      |
 * | Edm.DateTimeOffset               | Date (the instant; offsets are normalised to UTC)      |
 * | Edm.Time                         | string, xs:duration (`"PT13H20M"`)                     |
 * | Edm.Guid                         | string, lower-case `8-4-4-4-12` hex                    |
 * | Edm.Binary                       | Uint8Array (a Buffer is one)                           |
 *
 * Int64 and Decimal never pass through a JS number: a double loses digits above 2^53.
 */

export type EdmPrimitiveTypeName =
  | 'Edm.Binary'
  | 'Edm.Boolean'
  | 'Edm.Byte'
  | 'Edm.DateTime'
  | 'Edm.DateTimeOffset'
  | 'Edm.Decimal'
  | 'Edm.Double'
  | 'Edm.Guid'
  | 'Edm.Int16'
  | 'Edm.Int32'
  | 'Edm.Int64'
  | 'Edm.SByte'
  | 'Edm.Single'
  | 'Edm.String'
  | 'Edm.Time';

/** A primitive value in its JS representation (see the table above). */
export type PrimitiveValue = string | number | boolean | Date | Uint8Array;

/** A complex value: property name to value. */
export interface ComplexValue {
  readonly [property: string]: PropertyValue;
}

/** Any structural property value. */
export type PropertyValue = PrimitiveValue | ComplexValue | null;

/** Whether a value is a primitive value in its JS representation (string, number, boolean, Date, Uint8Array). */
export function isPrimitiveValue(value: unknown): value is PrimitiveValue {
  const type = typeof value;
  return type === 'string' || type === 'number' || type === 'boolean' || value instanceof Date || value instanceof Uint8Array;
}

/**
 * Whether a value is an object of named members (an entity or a complex value): not null, an array,
 * a Date or bytes. The members are not checked.
 */
export function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date) && !(value instanceof Uint8Array);
}

type PrimitiveCategory = 'string' | 'boolean' | 'integer' | 'int64' | 'decimal' | 'float' | 'datetime' | 'time' | 'guid' | 'binary';

interface PrimitiveTypeInfo {
  readonly name: EdmPrimitiveTypeName;
  readonly category: PrimitiveCategory;
  /** Numeric promotion rank (MS-ODATA §2.2.3.6.1.1.1 "Binary Numeric Promotions"); undefined for non-numbers. */
  readonly numericRank?: number;
  /** Inclusive range of integer types that fit a JS number. */
  readonly min?: number;
  readonly max?: number;
  /** Introduced in OData 2.0? (affects the response's DataServiceVersion: none are, all are 1.0 types). */
}

const TABLE: readonly PrimitiveTypeInfo[] = [
  { name: 'Edm.Binary', category: 'binary' },
  { name: 'Edm.Boolean', category: 'boolean' },
  { name: 'Edm.Byte', category: 'integer', numericRank: 1, min: 0, max: 255 },
  { name: 'Edm.SByte', category: 'integer', numericRank: 1, min: -128, max: 127 },
  { name: 'Edm.Int16', category: 'integer', numericRank: 2, min: -32768, max: 32767 },
  { name: 'Edm.Int32', category: 'integer', numericRank: 3, min: -2147483648, max: 2147483647 },
  { name: 'Edm.Int64', category: 'int64', numericRank: 4 },
  { name: 'Edm.Decimal', category: 'decimal', numericRank: 5 },
  { name: 'Edm.Single', category: 'float', numericRank: 6 },
  { name: 'Edm.Double', category: 'float', numericRank: 7 },
  { name: 'Edm.DateTime', category: 'datetime' },
  { name: 'Edm.DateTimeOffset', category: 'datetime' },
  { name: 'Edm.Time', category: 'time' },
  { name: 'Edm.Guid', category: 'guid' },
  { name: 'Edm.String', category: 'string' },
];

/** Every primitive type by name. */
export const PRIMITIVE_TYPES: ReadonlyMap<EdmPrimitiveTypeName, PrimitiveTypeInfo> = new Map(TABLE.map((t) => [t.name, t]));

/** Narrow a type name from a document or a request. */
export function isPrimitiveTypeName(name: string): name is EdmPrimitiveTypeName {
  return PRIMITIVE_TYPES.has(name as EdmPrimitiveTypeName);
}

/** An inclusive integer range. */
interface IntegerRange {
  readonly min: number;
  readonly max: number;
}

const INTEGER_RANGES: ReadonlyMap<EdmPrimitiveTypeName, IntegerRange> = new Map(
  TABLE.flatMap((t) => (t.min !== undefined && t.max !== undefined ? [[t.name, Object.freeze({ min: t.min, max: t.max })] as const] : [])),
);
const NO_RANGE: IntegerRange = Object.freeze({ min: 0, max: -1 });

/** The inclusive range of an integer type of number size (Byte, SByte, Int16, Int32); empty for others. Writers check every value against it. */
export function integerRange(name: EdmPrimitiveTypeName): IntegerRange {
  return INTEGER_RANGES.get(name) ?? NO_RANGE;
}
