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

/**
 * The lane of a primitive type: how its values are held, compared and computed, by every
 * interpreter (facet checks, the evaluator, the SQL compiler and its dialects). The small integers
 * (exact, no NaN) stand apart from the doubles (NaN compares with nothing and sorts first);
 * DateTime and DateTimeOffset meet as instants.
 */
export type PrimitiveLane = 'integer' | 'float' | 'int64' | 'decimal' | 'string' | 'guid' | 'boolean' | 'instant' | 'time' | 'binary';

/** An inclusive integer range, exact for every integer type (Int64 included). */
interface IntegerRange {
  readonly min: bigint;
  readonly max: bigint;
}

interface PrimitiveTypeInfo {
  readonly name: EdmPrimitiveTypeName;
  readonly lane: PrimitiveLane;
  /** The values an integer type holds; undefined for the others. */
  readonly range?: IntegerRange;
}

const TABLE: readonly PrimitiveTypeInfo[] = [
  { name: 'Edm.Binary', lane: 'binary' },
  { name: 'Edm.Boolean', lane: 'boolean' },
  { name: 'Edm.Byte', lane: 'integer', range: { min: 0n, max: 255n } },
  { name: 'Edm.SByte', lane: 'integer', range: { min: -128n, max: 127n } },
  { name: 'Edm.Int16', lane: 'integer', range: { min: -32768n, max: 32767n } },
  { name: 'Edm.Int32', lane: 'integer', range: { min: -2147483648n, max: 2147483647n } },
  { name: 'Edm.Int64', lane: 'int64', range: { min: -9223372036854775808n, max: 9223372036854775807n } },
  { name: 'Edm.Decimal', lane: 'decimal' },
  { name: 'Edm.Single', lane: 'float' },
  { name: 'Edm.Double', lane: 'float' },
  { name: 'Edm.DateTime', lane: 'instant' },
  { name: 'Edm.DateTimeOffset', lane: 'instant' },
  { name: 'Edm.Time', lane: 'time' },
  { name: 'Edm.Guid', lane: 'guid' },
  { name: 'Edm.String', lane: 'string' },
];

/** Every primitive type by name. */
export const PRIMITIVE_TYPES: ReadonlyMap<EdmPrimitiveTypeName, PrimitiveTypeInfo> = new Map(TABLE.map((t) => [t.name, t]));

/** Narrow a type name from a document or a request. */
export function isPrimitiveTypeName(name: string): name is EdmPrimitiveTypeName {
  return PRIMITIVE_TYPES.has(name as EdmPrimitiveTypeName);
}

const LANES = Object.fromEntries(TABLE.map((t) => [t.name, t.lane])) as Readonly<Record<EdmPrimitiveTypeName, PrimitiveLane>>;

/** The lane of a primitive type. */
export function laneOf(type: EdmPrimitiveTypeName): PrimitiveLane {
  return LANES[type];
}

/** The inclusive range of an integer type (Byte, SByte, Int16, Int32, Int64); undefined for the others. */
export function integerRange(name: EdmPrimitiveTypeName): IntegerRange | undefined {
  return PRIMITIVE_TYPES.get(name)?.range;
}

const NUMBER_RANGES: ReadonlyMap<EdmPrimitiveTypeName, { readonly min: number; readonly max: number }> = new Map(
  TABLE.flatMap((t) =>
    t.lane === 'integer' && t.range !== undefined ? [[t.name, Object.freeze({ min: Number(t.range.min), max: Number(t.range.max) })] as const] : [],
  ),
);
const NO_RANGE = Object.freeze({ min: 0, max: -1 });

/** A JS number's range of an integer type of number size (Byte, SByte, Int16, Int32), for checks per value; empty for the others. */
export function numberRange(name: EdmPrimitiveTypeName): { readonly min: number; readonly max: number } {
  return NUMBER_RANGES.get(name) ?? NO_RANGE;
}
