/**
 * Value coercion for any provider: a value as a store or a data file holds it (ISO date strings,
 * base64, numbers for Decimal, the model forms themselves) converted to the model's JS form (the
 * table in `edm/primitives`) and checked against the property's nullability and facets. A
 * provider whose driver hands back text or numbers converts each column with `coerceProperty`;
 * MemoryProvider's loader and store writes use the same functions, so every store refuses the
 * same values with the same words. Pure: no errors thrown, the problem comes back as text.
 */
import type { EdmComplexType, EdmProperty } from '../edm/model';
import { canonicalDecimal, canonicalInteger, isInt64, numberToDecimalText } from '../edm/decimal-text';
import { checkFacets } from '../edm/facets';
import { canonicalGuid, parseBase64 } from '../edm/primitive-text';
import { isPlainObject, laneOf, numberRange } from '../edm/primitives';
import { canonicalTime, isWritableTime, parseDateTimeText, parseJsonDateText } from '../edm/temporal-text';
import type { ComplexValue, EdmPrimitiveTypeName, PrimitiveValue, PropertyValue } from '../edm/primitives';

/** A converted value (`ok: true`), or why the input is not one (`detail`, English, for a message). */
export type CoerceResult<T> =
  | {
      /** The value has the model's form. */
      readonly ok: true;
      /** The value in the model's JavaScript form. */
      readonly value: T;
    }
  | {
      /** The value cannot be read as the property's type. */
      readonly ok: false;
      /** Why, in English for a message (`'out of the Int64 range'`). */
      readonly detail: string;
    };

// The JSON forms of a data file that are not the XML text forms: `\/Date(ms)\/` and the float spellings.
const JSON_DATE_PREFIX = '/Date(';

function ok<T>(value: T): CoerceResult<T> {
  return { ok: true, value };
}

function fail<T>(detail: string): CoerceResult<T> {
  return { ok: false, detail };
}

function orFail<T>(value: T | undefined, detail: string): CoerceResult<T> {
  return value === undefined ? fail(detail) : ok(value);
}

/** A short, safe description of any value for a message: strings cut at 40 characters and quoted, `3 bytes`, `an object`. */
export function describeValue(value: unknown): string {
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

function coerceInt64(raw: unknown): CoerceResult<string> {
  let text: string | undefined;
  if (typeof raw === 'string') text = canonicalInteger(raw);
  else if (typeof raw === 'number' && Number.isSafeInteger(raw)) text = String(raw);
  else if (typeof raw === 'bigint') text = raw.toString();
  // Kept as a string in the model: a JS number loses Int64 precision above 2^53.
  if (text === undefined) return fail('expected an integer string or a safe integer number');
  return isInt64(text) ? ok(text) : fail('out of the Int64 range');
}

function coerceDecimal(raw: unknown): CoerceResult<string> {
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) return fail('a Decimal must be finite');
    return ok(numberToDecimalText(raw) ?? '0');
  }
  if (typeof raw !== 'string') return fail('expected a decimal string or number');
  const text = canonicalDecimal(raw);
  return text === undefined ? fail('expected a decimal number without exponent overflow') : ok(text);
}

function coerceFloat(raw: unknown): CoerceResult<number> {
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
function parseDateTime(text: string): Date | undefined {
  return text.startsWith(JSON_DATE_PREFIX) ? parseJsonDateText(text) : parseDateTimeText(text);
}

function coerceDateTime(raw: unknown): CoerceResult<Date> {
  if (raw instanceof Date) {
    if (Number.isNaN(raw.getTime())) return fail('invalid Date');
    return isWritableTime(raw.getTime()) ? ok(raw) : fail('a Date outside the years 0001 to 9999 (UTC)');
  }
  if (typeof raw !== 'string') return fail('expected an ISO 8601 date-time string or a Date');
  const date = parseDateTime(raw);
  return date === undefined ? fail('expected an ISO 8601 date-time such as "1992-01-01T00:00:00Z"') : ok(date);
}

function coerceBinary(raw: unknown): CoerceResult<Uint8Array> {
  if (raw instanceof Uint8Array) return ok(raw);
  const bytes = typeof raw === 'string' ? parseBase64(raw) : undefined;
  return bytes === undefined ? fail('expected a base64 string or a Uint8Array') : ok(bytes);
}

/** Convert one primitive value (never null) of an EDM type to its model form, without facets. */
export function coercePrimitive(name: EdmPrimitiveTypeName, raw: unknown): CoerceResult<PrimitiveValue> {
  switch (laneOf(name)) {
    case 'string':
      return typeof raw === 'string' ? ok(raw) : fail('expected a string');
    case 'boolean':
      return typeof raw === 'boolean' ? ok(raw) : fail('expected true or false');
    case 'integer': {
      if (typeof raw !== 'number' || !Number.isInteger(raw)) return fail('expected an integer number');
      const { min, max } = numberRange(name);
      return raw >= min && raw <= max ? ok(raw) : fail(`out of the ${name} range ${min}..${max}`);
    }
    case 'int64':
      return coerceInt64(raw);
    case 'decimal':
      return coerceDecimal(raw);
    case 'float':
      return coerceFloat(raw);
    case 'instant':
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

function coerceComplex(type: EdmComplexType, raw: unknown): CoerceResult<ComplexValue> {
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
 * Convert a value of a declared property (undefined counts as null) to its model form; checks
 * nullability and the facets (MaxLength, FixedLength, Precision, Scale: the same `checkFacets` as
 * the body readers), so a store never holds a value its model forbids, whoever writes it. A
 * complex value is an object with no undeclared member, each member converted the same way.
 */
export function coerceProperty(property: EdmProperty, raw: unknown): CoerceResult<PropertyValue> {
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
export function coerceDynamic(raw: unknown): CoerceResult<PropertyValue> {
  if (raw === null || typeof raw === 'string' || typeof raw === 'boolean' || typeof raw === 'number') return ok(raw);
  if (raw instanceof Date) {
    if (Number.isNaN(raw.getTime())) return fail('invalid Date');
    return isWritableTime(raw.getTime()) ? ok(raw) : fail('a Date outside the years 0001 to 9999 (UTC)');
  }
  if (raw instanceof Uint8Array) return ok(raw);
  return fail('a dynamic property holds a primitive value (string, number, boolean, Date, bytes or null)');
}
