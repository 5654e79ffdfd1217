/**
 * Converts property values to their model representation (the table in `edm/primitives`) and
 * copies them. Accepts both the JSON forms of a data file (ISO date strings, base64, numbers for
 * Decimal) and the model forms themselves, so the loader and the store's writes share one check.
 */
import type { EdmComplexType, EdmProperty } from '../../edm/model';
import { canonicalDecimal, canonicalInteger, isInt64, numberToDecimalText } from '../../edm/decimal-text';
import { checkFacets } from '../../edm/facets';
import { canonicalGuid, parseBase64, parsePrimitiveText } from '../../edm/primitive-text';
import { PRIMITIVE_TYPES, isPlainObject } from '../../edm/primitives';
import { canonicalTime, isWritableTime, parseDateTimeText, parseJsonDateText } from '../../edm/temporal-text';
import type { ComplexValue, EdmPrimitiveTypeName, PrimitiveValue, PropertyValue } from '../../edm/primitives';

/** A converted value, or why the input is not one. */
type Coerced<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly detail: string };

// The JSON forms of a data file that are not the XML text forms: `\/Date(ms)\/` and the float spellings.
const JSON_DATE_PREFIX = '/Date(';

function ok<T>(value: T): Coerced<T> {
  return { ok: true, value };
}

function fail<T>(detail: string): Coerced<T> {
  return { ok: false, detail };
}

function orFail<T>(value: T | undefined, detail: string): Coerced<T> {
  return value === undefined ? fail(detail) : ok(value);
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

function coerceInt64(raw: unknown): Coerced<string> {
  let text: string | undefined;
  if (typeof raw === 'string') text = canonicalInteger(raw);
  else if (typeof raw === 'number' && Number.isSafeInteger(raw)) text = String(raw);
  else if (typeof raw === 'bigint') text = raw.toString();
  // Kept as a string in the model: a JS number loses Int64 precision above 2^53.
  if (text === undefined) return fail('expected an integer string or a safe integer number');
  return isInt64(text) ? ok(text) : fail('out of the Int64 range');
}

function coerceDecimal(raw: unknown): Coerced<string> {
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) return fail('a Decimal must be finite');
    return ok(numberToDecimalText(raw) ?? '0');
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

/** An ISO 8601 date-time (UTC when no offset is given) or the verbose-JSON `\/Date(ms)\/` form. */
export function parseDateTime(text: string): Date | undefined {
  return text.startsWith(JSON_DATE_PREFIX) ? parseJsonDateText(text) : parseDateTimeText(text);
}

function coerceDateTime(raw: unknown): Coerced<Date> {
  if (raw instanceof Date) {
    if (Number.isNaN(raw.getTime())) return fail('invalid Date');
    return isWritableTime(raw.getTime()) ? ok(raw) : fail('a Date outside the years 0001 to 9999 (UTC)');
  }
  if (typeof raw !== 'string') return fail('expected an ISO 8601 date-time string or a Date');
  const date = parseDateTime(raw);
  return date === undefined ? fail('expected an ISO 8601 date-time such as "1992-01-01T00:00:00Z"') : ok(date);
}

function coerceBinary(raw: unknown): Coerced<Uint8Array> {
  if (raw instanceof Uint8Array) return ok(raw);
  const bytes = typeof raw === 'string' ? parseBase64(raw) : undefined;
  return bytes === undefined ? fail('expected a base64 string or a Uint8Array') : ok(bytes);
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
      return orFail(typeof raw === 'string' ? canonicalTime(raw) : undefined, 'expected an xs:duration such as "PT13H20M"');
    case 'guid':
      return orFail(typeof raw === 'string' ? canonicalGuid(raw) : undefined, 'expected a GUID such as "01234567-89ab-cdef-0123-456789abcdef"');
    case 'binary':
      return coerceBinary(raw);
    default:
      return fail(`unknown type ${name}`);
  }
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

/**
 * Convert a value of a declared property (undefined counts as null); checks nullability and the
 * facets (MaxLength, FixedLength, Precision, Scale: the same `checkFacets` as the body readers), so
 * the store never holds a value its model forbids, whoever writes it.
 */
export function coerceProperty(property: EdmProperty, raw: unknown): Coerced<PropertyValue> {
  if (raw === null || raw === undefined) {
    return property.nullable ? ok(null) : fail('the property is not nullable (Nullable="false")');
  }
  if (property.type.kind === 'Complex') return coerceComplex(property.type.type, raw);
  const value = coercePrimitive(property.type.name, raw);
  if (!value.ok) return value;
  // Members of complex values are checked one by one above; only primitives need the facet check here.
  const problem = checkFacets(property, value.value);
  return problem === undefined ? value : fail(problem);
}

/** Convert a dynamic property of an open type: a primitive value of whatever type in model form, or JSON string/number/boolean/null. */
export function coerceDynamic(raw: unknown): Coerced<PropertyValue> {
  if (raw === null || typeof raw === 'string' || typeof raw === 'boolean' || typeof raw === 'number') return ok(raw);
  if (raw instanceof Date) {
    if (Number.isNaN(raw.getTime())) return fail('invalid Date');
    return isWritableTime(raw.getTime()) ? ok(raw) : fail('a Date outside the years 0001 to 9999 (UTC)');
  }
  if (raw instanceof Uint8Array) return ok(raw);
  return fail('a dynamic property holds a primitive value (string, number, boolean, Date, bytes or null)');
}

/** A deep copy of a stored value: Dates, byte arrays and complex values are new objects. */
export function cloneValue(value: PropertyValue): PropertyValue {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return new Date(value.getTime());
  // Same class as the original (a Buffer stays a Buffer), so copies compare equal to what was stored.
  if (value instanceof Uint8Array) return Buffer.isBuffer(value) ? Buffer.from(value) : new Uint8Array(value);
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
export function declaredDefaultOf(property: EdmProperty): PropertyValue | undefined {
  if (property.defaultValue === undefined || property.type.kind !== 'Primitive') return undefined;
  return parsePrimitiveText(property.type.name, property.defaultValue);
}
