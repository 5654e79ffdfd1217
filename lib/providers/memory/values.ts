/**
 * Converts property values to their model representation (the table in `edm/primitives`) and
 * copies them. Accepts both the JSON forms of a data file (ISO date strings, base64, numbers for
 * Decimal) and the model forms themselves, so the loader and the store's writes share one check.
 */
import type { EdmComplexType, EdmProperty, EdmPropertyTypeRef } from '../../edm/model';
import { PRIMITIVE_TYPES } from '../../edm/primitives';
import type { ComplexValue, EdmPrimitiveTypeName, PrimitiveValue, PropertyValue } from '../../edm/primitives';

/** A converted value, or why the input is not one. */
export type Coerced<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly detail: string };

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** Bounds the digits a Decimal exponent may expand to, so `1e999999` cannot allocate a megabyte. */
const DECIMAL_MAX_EXPONENT = 400;

const INTEGER_TEXT = /^[+-]?\d+$/;
const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
const GUID_TEXT = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const BASE64_TEXT = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// xs:duration, the Edm.Time form (MS-ODATA §2.2.2 "Abstract Type System": Edm.Time is a time of day).
const DURATION_TEXT = /^-?P(?=\d|T\d)(?:\d+Y)?(?:\d+M)?(?:\d+D)?(?:T(?=\d)(?:\d+H)?(?:\d+M)?(?:\d+(?:\.\d+)?S)?)?$/;
// ISO 8601 date-time; a missing offset means UTC (the data files' convention, and V2's Edm.DateTime).
const DATETIME_TEXT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?(Z|[+-]\d{2}:\d{2})?$/;
// The verbose-JSON form `\/Date(ms)\/`, optionally with an offset in minutes as `+hhmm`.
const JSON_DATE_TEXT = /^\/Date\((-?\d+)(?:[+-]\d{4})?\)\/$/;

function ok<T>(value: T): Coerced<T> {
  return { ok: true, value };
}

function fail<T>(detail: string): Coerced<T> {
  return { ok: false, detail };
}

/** A short, safe description of an offending input for messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value instanceof Date) return `Date(${Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString()})`;
  if (value instanceof Uint8Array) return `${value.length} bytes`;
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string': {
      const text = value.length > 40 ? `${value.slice(0, 40)}...` : value;
      return JSON.stringify(text);
    }
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

/** Canonical decimal text: no exponent, no leading or trailing zeros, `0` for zero. */
export function canonicalDecimal(text: string): string | undefined {
  const match = DECIMAL_TEXT.exec(text);
  if (match === null) return undefined;
  const [, sign, whole = '', fraction = '', exponentText] = match;
  if (whole.length + fraction.length === 0) return undefined;
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  if (Math.abs(exponent) > DECIMAL_MAX_EXPONENT) return undefined;
  const digits = whole + fraction;
  let point = whole.length + exponent;
  let padded = digits;
  if (point < 0) {
    padded = '0'.repeat(-point) + digits;
    point = 0;
  } else if (point > digits.length) {
    padded = digits + '0'.repeat(point - digits.length);
  }
  const integerPart = padded.slice(0, point).replace(/^0+/, '') || '0';
  const fractionPart = padded.slice(point).replace(/0+$/, '');
  const body = fractionPart === '' ? integerPart : `${integerPart}.${fractionPart}`;
  return sign === '-' && body !== '0' ? `-${body}` : body;
}

function coerceInt64(raw: unknown): Coerced<string> {
  let big: bigint;
  if (typeof raw === 'string' && INTEGER_TEXT.test(raw)) big = BigInt(raw);
  else if (typeof raw === 'number' && Number.isSafeInteger(raw)) big = BigInt(raw);
  else if (typeof raw === 'bigint') big = raw;
  // Kept as a string in the model: a JS number loses Int64 precision above 2^53.
  else return fail('expected an integer string or a safe integer number');
  if (big < INT64_MIN || big > INT64_MAX) return fail('out of the Int64 range');
  return ok(big.toString());
}

function coerceDecimal(raw: unknown): Coerced<string> {
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) return fail('a Decimal must be finite');
    return ok(canonicalDecimal(String(raw)) ?? '0');
  }
  if (typeof raw !== 'string') return fail('expected a decimal string or number');
  const text = canonicalDecimal(raw);
  return text === undefined ? fail('expected a decimal number without exponent overflow') : ok(text);
}

function coerceFloat(raw: unknown): Coerced<number> {
  if (typeof raw === 'number') return ok(raw);
  // JSON has no NaN or Infinity; accept the OData spellings (MS-ODATA §2.2.2, doubleLiteral).
  switch (raw) {
    case 'NaN':
      return ok(Number.NaN);
    case 'INF':
    case 'Infinity':
      return ok(Number.POSITIVE_INFINITY);
    case '-INF':
    case '-Infinity':
      return ok(Number.NEGATIVE_INFINITY);
    default:
      return fail('expected a number');
  }
}

/** Parse an ISO 8601 date-time (UTC when no offset is given) or `\/Date(ms)\/`, checking each field. */
export function parseDateTime(text: string): Date | undefined {
  const json = JSON_DATE_TEXT.exec(text);
  if (json !== null) {
    const date = new Date(Number(json[1]));
    return Number.isNaN(date.getTime()) ? undefined : date;
  }
  const match = DATETIME_TEXT.exec(text);
  if (match === null) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone = 'Z'] = match;
  const year = Number(y);
  const month = Number(mo) - 1;
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  const millis = Number(fraction.slice(0, 3).padEnd(3, '0'));
  const utc = new Date(0);
  utc.setUTCFullYear(year, month, day);
  utc.setUTCHours(hour, minute, second, millis);
  // Reject what Date would roll over silently (month 13, February 30, hour 24).
  if (utc.getUTCFullYear() !== year || utc.getUTCMonth() !== month || utc.getUTCDate() !== day) return undefined;
  if (utc.getUTCHours() !== hour || utc.getUTCMinutes() !== minute || utc.getUTCSeconds() !== second) return undefined;
  if (zone === 'Z') return utc;
  const offsetMinutes = (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  return new Date(utc.getTime() - offsetMinutes * 60000);
}

function coerceDateTime(raw: unknown): Coerced<Date> {
  if (raw instanceof Date) return Number.isNaN(raw.getTime()) ? fail('invalid Date') : ok(raw);
  if (typeof raw !== 'string') return fail('expected an ISO 8601 date-time string or a Date');
  const date = parseDateTime(raw);
  return date === undefined ? fail('expected an ISO 8601 date-time such as "1992-01-01T00:00:00Z"') : ok(date);
}

function coerceBinary(raw: unknown): Coerced<Uint8Array> {
  if (raw instanceof Uint8Array) return ok(raw);
  if (typeof raw === 'string' && BASE64_TEXT.test(raw)) return ok(Buffer.from(raw, 'base64'));
  return fail('expected a base64 string or a Uint8Array');
}

/** Convert one primitive value (never null) to its model representation. */
export function coercePrimitive(name: EdmPrimitiveTypeName, raw: unknown): Coerced<PrimitiveValue> {
  const info = PRIMITIVE_TYPES.get(name);
  switch (info?.category) {
    case 'string':
      return typeof raw === 'string' ? ok(raw) : fail('expected a string');
    case 'boolean':
      return typeof raw === 'boolean' ? ok(raw) : fail('expected true or false');
    case 'integer':
      if (typeof raw !== 'number' || !Number.isInteger(raw)) return fail('expected an integer number');
      if ((info.min !== undefined && raw < info.min) || (info.max !== undefined && raw > info.max)) {
        return fail(`out of the ${name} range ${String(info.min)}..${String(info.max)}`);
      }
      return ok(raw);
    case 'int64':
      return coerceInt64(raw);
    case 'decimal':
      return coerceDecimal(raw);
    case 'float':
      return coerceFloat(raw);
    case 'datetime':
      return coerceDateTime(raw);
    case 'time':
      return typeof raw === 'string' && DURATION_TEXT.test(raw) ? ok(raw) : fail('expected an xs:duration such as "PT13H20M"');
    case 'guid':
      return typeof raw === 'string' && GUID_TEXT.test(raw) ? ok(raw.toLowerCase()) : fail('expected a GUID such as "7c2d...-...-..."');
    case 'binary':
      return coerceBinary(raw);
    default:
      return fail(`unknown type ${name}`);
  }
}

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date) && !(value instanceof Uint8Array);
}

function coerceComplex(type: EdmComplexType, raw: unknown): Coerced<ComplexValue> {
  if (!isPlainObject(raw)) return fail(`expected an object of type ${type.qualifiedName}`);
  for (const name of Object.keys(raw)) {
    if (!type.propertiesByName.has(name)) return fail(`${type.qualifiedName} has no property '${name}'`);
  }
  const out: Record<string, PropertyValue> = {};
  for (const property of type.properties) {
    const value = coerceProperty(property, raw[property.name]);
    if (!value.ok) return fail(`${property.name}: ${value.detail}`);
    out[property.name] = value.value;
  }
  return ok(out);
}

/** Convert a value of a declared property (undefined counts as null); checks nullability and MaxLength. */
export function coerceProperty(property: EdmProperty, raw: unknown): Coerced<PropertyValue> {
  if (raw === null || raw === undefined) {
    return property.nullable ? ok(null) : fail('the property is not nullable (Nullable="false")');
  }
  return coerceType(property.type, raw, property.maxLength);
}

function coerceType(type: EdmPropertyTypeRef, raw: unknown, maxLength: number | 'Max' | undefined): Coerced<PropertyValue> {
  if (type.kind === 'Complex') return coerceComplex(type.type, raw);
  const value = coercePrimitive(type.name, raw);
  if (value.ok && typeof maxLength === 'number' && typeof value.value === 'string' && type.name === 'Edm.String' && value.value.length > maxLength) {
    return fail(`longer than MaxLength ${maxLength}`);
  }
  return value;
}

/** Convert a dynamic property of an open type: any primitive value in model form, or JSON string/number/boolean/null. */
export function coerceDynamic(raw: unknown): Coerced<PropertyValue> {
  if (raw === null || typeof raw === 'string' || typeof raw === 'boolean' || typeof raw === 'number') return ok(raw);
  if (raw instanceof Date) return Number.isNaN(raw.getTime()) ? fail('invalid Date') : ok(raw);
  if (raw instanceof Uint8Array) return ok(raw);
  return fail('a dynamic property holds a primitive value (string, number, boolean, Date, bytes or null)');
}

/** A deep copy of a stored value: Dates, byte arrays and complex values are new objects. */
export function cloneValue(value: PropertyValue): PropertyValue {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return new Date(value.getTime());
  if (value instanceof Uint8Array) return Buffer.from(value);
  const out: Record<string, PropertyValue> = {};
  for (const name of Object.keys(value)) out[name] = cloneValue(value[name]);
  return out;
}

/** Equality of two model values of one primitive type (keys and If-Match use it). */
export function sameValue(a: PropertyValue, b: PropertyValue): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b) === 0;
  return a === b || (Number.isNaN(a) && Number.isNaN(b));
}

/**
 * The value of a property's `DefaultValue` facet (CSDL text form) in model form; undefined when it
 * has none or it cannot be read (the property then starts as null).
 */
export function defaultValueOf(property: EdmProperty): PropertyValue | undefined {
  const text = property.defaultValue;
  if (text === undefined || property.type.kind !== 'Primitive') return undefined;
  const category = PRIMITIVE_TYPES.get(property.type.name)?.category;
  let raw: unknown = text;
  if (category === 'boolean') raw = text === 'true' ? true : text === 'false' ? false : undefined;
  else if (category === 'integer' || category === 'float') raw = text.trim() === '' ? undefined : Number(text);
  else if (category === 'binary') return undefined;
  const value = coercePrimitive(property.type.name, raw);
  return value.ok ? value.value : undefined;
}
