/**
 * Primitive values in request and response bodies: Atom/XML text (`<d:Prop>`), verbose JSON
 * (MS-ODATA §2.2.6.3.1 "Primitive Types" in JSON), and raw `$value` bodies. Writers trust the JS
 * representation of primitives.ts; readers accept what real clients send and refuse the rest with
 * 400 VALUE_INVALID naming the property and its type.
 */
import { ODataError } from '../errors';
import { textProblem } from '../util';
import { canonicalDecimal, canonicalInteger, isInt64, numberToDecimalText, significantDigits } from './decimal-text';
import { numberRange } from './primitives';
import type { EdmPrimitiveTypeName, PrimitiveValue } from './primitives';
import {
  SINGLE_MAX,
  asBoolean,
  asBytes,
  asDate,
  asDecimalText,
  asGuidText,
  asInteger,
  asIntegerText,
  asNumber,
  asSingle,
  asTimeText,
  asString,
  canonicalGuid,
  describeTextError,
  expectedForm,
  formatBase64,
  formatPrimitiveText,
  parseBase64,
  parseFloatText,
  parsePrimitiveText,
} from './primitive-text';
import { canonicalTime, formatJsonDateText, parseDateTimeText, parseJsonDateText } from './temporal-text';

export { checkFacets, defaultValueOf } from './facets';

/** A property named in an error: its name, or the property itself. */
type PropertyLabel = string | { readonly name: string };

function labelOf(property: PropertyLabel): string {
  return typeof property === 'string' ? property : property.name;
}

function valueError(type: EdmPrimitiveTypeName, property: PropertyLabel, detail: string): ODataError {
  const name = labelOf(property);
  return ODataError.fromCode('VALUE_INVALID', { property: name, type, detail }, { target: name });
}

// --- Atom / XML -------------------------------------------------------------------------------

/**
 * The XML text of a value: the content of `<d:Prop>`. Edm.DateTime is written without offset
 * (`1992-01-01T00:00:00`, as the reference service did), Edm.DateTimeOffset with `Z`, doubles as
 * `INF` / `-INF` / `NaN`, Binary as base64, Boolean as `true` / `false`.
 */
export function formatAtomValue(type: EdmPrimitiveTypeName, value: PrimitiveValue): string {
  return formatPrimitiveText(type, value);
}

/** Read the XML text of a value (surrounding whitespace is ignored except for Edm.String); 400 VALUE_INVALID. */
export function parseAtomValue(type: EdmPrimitiveTypeName, text: string, property: PropertyLabel): PrimitiveValue {
  const value = parsePrimitiveText(type, text);
  if (value === undefined) throw valueError(type, property, describeTextError(type, text));
  return value;
}

// --- verbose JSON -----------------------------------------------------------------------------

/** JSON strings for the non-finite doubles (JSON has no literal for them). */
function jsonFloat(value: number): string | number {
  if (Number.isFinite(value)) return value;
  return Number.isNaN(value) ? 'NaN' : value > 0 ? 'INF' : '-INF';
}

const JSON_WRITERS: Readonly<Record<EdmPrimitiveTypeName, (value: PrimitiveValue) => string | number | boolean>> = {
  'Edm.Binary': (value) => formatBase64(asBytes(value)),
  'Edm.Boolean': asBoolean,
  'Edm.Byte': (value) => asInteger('Edm.Byte', value),
  'Edm.SByte': (value) => asInteger('Edm.SByte', value),
  'Edm.Int16': (value) => asInteger('Edm.Int16', value),
  'Edm.Int32': (value) => asInteger('Edm.Int32', value),
  // Strings: a JSON number passes through doubles in most clients and loses digits above 2^53.
  'Edm.Int64': (value) => asIntegerText('Edm.Int64', value),
  'Edm.Decimal': asDecimalText,
  'Edm.Single': (value) => jsonFloat(asSingle(value)),
  'Edm.Double': (value) => jsonFloat(asNumber('Edm.Double', value)),
  'Edm.DateTime': (value) => formatJsonDateText(asDate('Edm.DateTime', value), false),
  // SAP Gateway writes DateTimeOffset as /Date(ms+0000)/; datajs (SAPUI5) reads the offset form.
  'Edm.DateTimeOffset': (value) => formatJsonDateText(asDate('Edm.DateTimeOffset', value), true),
  'Edm.Time': asTimeText,
  'Edm.Guid': asGuidText,
  'Edm.String': (value) => asString('Edm.String', value),
};

/**
 * The verbose-JSON value (before JSON encoding): numbers for Byte..Int32 and finite floats,
 * strings for Int64, Decimal, Guid, Time, Binary (base64), `"INF"` / `"-INF"` / `"NaN"`, and
 * `/Date(ms)/` (DateTimeOffset: `/Date(ms+0000)/`) for dates.
 */
export function toJsonValue(type: EdmPrimitiveTypeName, value: PrimitiveValue): string | number | boolean {
  return JSON_WRITERS[type](value);
}

/** Types whose JSON string is plain ASCII without quotes or backslashes: no escaping needed. */
const SAFE_JSON_STRINGS: ReadonlySet<EdmPrimitiveTypeName> = new Set<EdmPrimitiveTypeName>(['Edm.Binary', 'Edm.Int64', 'Edm.Decimal', 'Edm.Guid']);

/**
 * The JSON text of a value, ready to splice into a body. Dates come out as `"\/Date(694224000000)\/"`
 * with the `\/` escapes real V2 servers send (clients such as datajs key on them; JSON.stringify
 * would not write them).
 */
export function jsonValueText(type: EdmPrimitiveTypeName, value: PrimitiveValue): string {
  if (type === 'Edm.DateTime' || type === 'Edm.DateTimeOffset') {
    const text = formatJsonDateText(asDate(type, value), type === 'Edm.DateTimeOffset');
    return '"\\/' + text.slice(1, -1) + '\\/"';
  }
  const json = JSON_WRITERS[type](value);
  if (typeof json === 'number') return String(json);
  if (typeof json === 'boolean') return json ? 'true' : 'false';
  return SAFE_JSON_STRINGS.has(type) ? '"' + json + '"' : JSON.stringify(json);
}

function jsonInteger(type: EdmPrimitiveTypeName, json: unknown): PrimitiveValue | undefined {
  if (typeof json === 'string') return parsePrimitiveText(type, json);
  const { min, max } = numberRange(type);
  if (typeof json !== 'number' || !Number.isInteger(json)) return undefined;
  return json >= min && json <= max ? (Object.is(json, -0) ? 0 : json) : undefined;
}

function jsonFloatValue(type: EdmPrimitiveTypeName, json: unknown): PrimitiveValue | undefined {
  const single = type === 'Edm.Single';
  if (typeof json === 'number') return single && Math.abs(json) > SINGLE_MAX ? undefined : json;
  if (typeof json !== 'string') return undefined;
  if (json === 'Infinity') return Infinity;
  if (json === '-Infinity') return -Infinity;
  return parseFloatText(json.trim(), single);
}

function jsonDate(json: unknown): Date | undefined {
  if (typeof json !== 'string') return undefined;
  return json.charCodeAt(0) === 47 /* / */ ? parseJsonDateText(json) : parseDateTimeText(json.trim());
}

const JSON_READERS: Readonly<Record<EdmPrimitiveTypeName, (json: unknown, type: EdmPrimitiveTypeName) => PrimitiveValue | undefined>> = {
  'Edm.Binary': (json) => (typeof json === 'string' ? parseBase64(json) : undefined),
  'Edm.Boolean': (json) => (typeof json === 'boolean' ? json : json === 'true' ? true : json === 'false' ? false : undefined),
  'Edm.Byte': (json, type) => jsonInteger(type, json),
  'Edm.SByte': (json, type) => jsonInteger(type, json),
  'Edm.Int16': (json, type) => jsonInteger(type, json),
  'Edm.Int32': (json, type) => jsonInteger(type, json),
  'Edm.Int64': (json) => {
    if (typeof json === 'number') return Number.isSafeInteger(json) ? String(json) : undefined;
    if (typeof json !== 'string') return undefined;
    const canonical = canonicalInteger(json.trim());
    return canonical !== undefined && isInt64(canonical) ? canonical : undefined;
  },
  'Edm.Decimal': (json) => {
    // A JSON number is exact only while its shortest form has at most 15 significant digits.
    if (typeof json === 'number') return significantDigits(json) <= 15 ? numberToDecimalText(json) : undefined;
    return typeof json === 'string' ? canonicalDecimal(json.trim()) : undefined;
  },
  'Edm.Single': (json, type) => jsonFloatValue(type, json),
  'Edm.Double': (json, type) => jsonFloatValue(type, json),
  'Edm.DateTime': jsonDate,
  'Edm.DateTimeOffset': jsonDate,
  'Edm.Time': (json) => (typeof json === 'string' ? canonicalTime(json.trim()) : undefined),
  'Edm.Guid': (json) => (typeof json === 'string' ? canonicalGuid(json.trim()) : undefined),
  'Edm.String': (json) => (typeof json === 'string' ? json : undefined),
};

/** JSON forms besides the written one that readers accept, for the error message. */
const JSON_EXTRA_FORMS: Partial<Record<EdmPrimitiveTypeName, string>> = {
  'Edm.Int64': ' (as a string, or a number up to 2^53)',
  'Edm.Decimal': ' (as a string, or a number of up to 15 digits)',
  'Edm.DateTime': ' (as "\\/Date(ms)\\/" or ISO 8601)',
  'Edm.DateTimeOffset': ' (as "\\/Date(ms+0000)\\/" or ISO 8601)',
};

function describeJson(json: unknown): string {
  if (json === null) return 'null';
  if (typeof json === 'string') return `'${json.length > 40 ? json.slice(0, 40) + '...' : json}'`;
  if (typeof json === 'number' || typeof json === 'boolean') return String(json);
  return Array.isArray(json) ? 'an array' : `a JSON ${typeof json}`;
}

/**
 * Read a verbose-JSON value (already JSON-parsed): `/Date(ms)/` and `/Date(ms+0060)/` or ISO 8601
 * for dates; Int64 and Decimal as strings or, when exact, numbers; numbers as strings for the
 * numeric types; `"INF"` / `"-INF"` / `"NaN"`; xs:duration for Time. 400 VALUE_INVALID otherwise.
 */
export function fromJsonValue(type: EdmPrimitiveTypeName, json: unknown, property: PropertyLabel): PrimitiveValue {
  const value = JSON_READERS[type](json, type);
  if (value === undefined) {
    throw valueError(type, property, `${describeJson(json)} is not a valid ${type}: ${expectedForm(type)}${JSON_EXTRA_FORMS[type] ?? ''}.`);
  }
  return value;
}

// --- raw $value -------------------------------------------------------------------------------

/** The `$value` body: raw bytes for Edm.Binary, else the XML text form (sent as text/plain). */
export function formatRawValue(type: EdmPrimitiveTypeName, value: PrimitiveValue): string | Uint8Array {
  return type === 'Edm.Binary' ? asBytes(value) : formatPrimitiveText(type, value);
}

// Fatal: bytes that are not UTF-8 are refused, not replaced with U+FFFD (a silent change of the value).
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Read a `$value` body (PUT on `.../Prop/$value`): bytes for Edm.Binary, else UTF-8 text in the XML
 * form (a leading BOM dropped); bytes that are not UTF-8, or text with a character XML 1.0
 * excludes, are 400 VALUE_INVALID.
 */
export function parseRawValue(type: EdmPrimitiveTypeName, body: Buffer, property: PropertyLabel): PrimitiveValue {
  if (type === 'Edm.Binary') return new Uint8Array(body);
  let text: string;
  try {
    text = UTF8.decode(body);
  } catch {
    throw valueError(type, property, 'the body is not valid UTF-8 text.');
  }
  // The other text readers get this check from their syntax (XML's Char production, the JSON scan).
  const problem = textProblem(text);
  if (problem !== undefined) throw valueError(type, property, `the body is not text every format can carry: ${problem}`);
  return parseAtomValue(type, text, property);
}

// --- open types -------------------------------------------------------------------------------

const INT32 = numberRange('Edm.Int32');

/**
 * The EDM type a dynamic property's value is written as: string -> Edm.String (an Int64 or
 * Decimal held as a string is indistinguishable and stays a string), boolean -> Edm.Boolean,
 * integer in Int32 range -> Edm.Int32, other numbers -> Edm.Double, Date -> Edm.DateTime,
 * bytes -> Edm.Binary.
 */
export function inferPrimitiveType(value: PrimitiveValue): EdmPrimitiveTypeName {
  switch (typeof value) {
    case 'string':
      return 'Edm.String';
    case 'boolean':
      return 'Edm.Boolean';
    case 'number':
      return Number.isInteger(value) && value >= INT32.min && value <= INT32.max ? 'Edm.Int32' : 'Edm.Double';
    default:
      return value instanceof Date ? 'Edm.DateTime' : 'Edm.Binary';
  }
}
