/**
 * The XML text form of every primitive type (the content of `<d:Prop>`, a `$value` body, a CSDL
 * DefaultValue): one parser and one formatter per type, kept in tables. Parsers return undefined
 * for bad text and `describeTextError` says why; callers pick the error code.
 */
import { canonicalDecimal, canonicalInteger, isDecimalText, isInt64 } from './decimal-text';
import { numberRange } from './primitives';
import type { EdmPrimitiveTypeName, PrimitiveValue } from './primitives';
import { canonicalTime, formatDateTimeText, parseDateTimeText, timeToMilliseconds } from './temporal-text';

/** Largest finite Edm.Single (IEEE 754 binary32). */
export const SINGLE_MAX = 3.4028234663852886e38;

const GUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** xs:double without the special values (`.5`, `5.` and exponents allowed, as XML Schema does). */
const DOUBLE_PATTERN = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
/** Base64 (RFC 4648 §4) with optional padding; XML may wrap it over lines. */
const BASE64_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;
const WHITESPACE = /\s+/g;

/** Canonical lower-case Guid text, or undefined. */
export function canonicalGuid(text: string): string | undefined {
  return GUID_PATTERN.test(text) ? text.toLowerCase() : undefined;
}

/** Bytes of base64 text (whitespace ignored), or undefined when it is not base64. */
export function parseBase64(text: string): Uint8Array | undefined {
  const compact = text.replace(WHITESPACE, '');
  if (!BASE64_PATTERN.test(compact)) return undefined;
  return new Uint8Array(Buffer.from(compact, 'base64'));
}

/** Base64 text of bytes. */
export function formatBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** An integer of one of the number-sized types, in its range; undefined otherwise. */
function parseSmallInteger(type: EdmPrimitiveTypeName, text: string): number | undefined {
  const canonical = canonicalInteger(text);
  if (canonical === undefined || canonical.length > 11) return undefined;
  const value = Number(canonical);
  const { min, max } = numberRange(type);
  return value >= min && value <= max ? value : undefined;
}

/** xs:double / xs:float, including INF, -INF and NaN; undefined when invalid or out of range. */
export function parseFloatText(text: string, single: boolean): number | undefined {
  if (text === 'INF' || text === '+INF') return Infinity;
  if (text === '-INF') return -Infinity;
  if (text === 'NaN') return NaN;
  if (!DOUBLE_PATTERN.test(text)) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value)) return undefined;
  return single && Math.abs(value) > SINGLE_MAX ? undefined : value;
}

/** The xs:double text of a number: shortest round-trip digits, `E` exponent, INF / -INF / NaN. */
export function formatFloatText(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'INF';
  if (value === -Infinity) return '-INF';
  if (Object.is(value, -0)) return '-0';
  const text = String(value);
  return text.includes('e') ? text.replace('e', 'E') : text;
}

/** How each type's text is read. Input is already trimmed for every type but Edm.String. */
const TEXT_PARSERS: Readonly<Record<EdmPrimitiveTypeName, (text: string) => PrimitiveValue | undefined>> = {
  'Edm.Binary': parseBase64,
  'Edm.Boolean': (text) => (text === 'true' || text === '1' ? true : text === 'false' || text === '0' ? false : undefined),
  'Edm.Byte': (text) => parseSmallInteger('Edm.Byte', text),
  'Edm.SByte': (text) => parseSmallInteger('Edm.SByte', text),
  'Edm.Int16': (text) => parseSmallInteger('Edm.Int16', text),
  'Edm.Int32': (text) => parseSmallInteger('Edm.Int32', text),
  'Edm.Int64': (text) => {
    const canonical = canonicalInteger(text);
    return canonical !== undefined && isInt64(canonical) ? canonical : undefined;
  },
  'Edm.Decimal': (text) => canonicalDecimal(text, false),
  'Edm.Single': (text) => parseFloatText(text, true),
  'Edm.Double': (text) => parseFloatText(text, false),
  'Edm.DateTime': (text) => parseDateTimeText(text),
  'Edm.DateTimeOffset': (text) => parseDateTimeText(text),
  'Edm.Time': canonicalTime,
  'Edm.Guid': canonicalGuid,
  'Edm.String': (text) => text,
};

/** Parse the XML text form of a value; undefined when the text is not a value of the type. */
export function parsePrimitiveText(type: EdmPrimitiveTypeName, text: string): PrimitiveValue | undefined {
  return TEXT_PARSERS[type](type === 'Edm.String' ? text : text.trim());
}

/** What a valid text looks like, per type: the tail of every "bad value" message. */
const EXPECTED_FORMS: Readonly<Record<EdmPrimitiveTypeName, string>> = {
  'Edm.Binary': 'expected base64 text',
  'Edm.Boolean': 'expected true or false',
  'Edm.Byte': 'expected an integer from 0 to 255',
  'Edm.SByte': 'expected an integer from -128 to 127',
  'Edm.Int16': 'expected an integer from -32768 to 32767',
  'Edm.Int32': 'expected an integer from -2147483648 to 2147483647',
  'Edm.Int64': 'expected an integer from -9223372036854775808 to 9223372036854775807',
  'Edm.Decimal': 'expected a decimal number such as -12.50',
  'Edm.Single': 'expected a number within ±3.4028235E+38, INF, -INF or NaN',
  'Edm.Double': 'expected a number such as 1.5E+10, INF, -INF or NaN',
  'Edm.DateTime': 'expected a valid date and time in the years 0001 to 9999 (UTC) such as 2000-12-31T23:59:59',
  'Edm.DateTimeOffset': 'expected a valid date and time with offset in the years 0001 to 9999 (UTC) such as 2000-12-31T23:59:59Z',
  'Edm.Time': 'expected an xs:duration of at most 10675199 days such as PT13H20M',
  'Edm.Guid': 'expected a GUID such as 01234567-89ab-cdef-0123-456789abcdef',
  'Edm.String': 'expected text',
};

/** Why a text is not a value of the type (for error messages). */
export function describeTextError(type: EdmPrimitiveTypeName, text: string): string {
  const shown = text.length > 40 ? text.slice(0, 40) + '...' : text;
  return `'${shown}' is not a valid ${type}: ${EXPECTED_FORMS[type]}.`;
}

/** The tail of a "bad value" message: what a valid value of the type looks like. */
export function expectedForm(type: EdmPrimitiveTypeName): string {
  return EXPECTED_FORMS[type];
}

/**
 * Coerce a provider value to the representation of primitives.ts, tolerating the one slip that is
 * common and lossless: a JS number for Edm.Int64 / Edm.Decimal. Anything else a writer could not
 * write faithfully (the wrong JS type, NaN or a fraction for an integer type, a Decimal string with
 * a quote in it, a year past 9999) is a provider bug and throws a TypeError (masked as 500, logged),
 * never a malformed payload.
 */
function checked<T>(ok: boolean, value: unknown, type: EdmPrimitiveTypeName, what: string): T {
  if (!ok) throw new TypeError(`A ${type} value must be ${what}; got ${describeJsValue(value)}.`);
  return value as T;
}

function describeJsValue(value: unknown): string {
  if (value instanceof Date) return 'a Date';
  if (value instanceof Uint8Array) return 'a Uint8Array';
  return typeof value === 'string' ? `the string '${value.slice(0, 40)}'` : `${typeof value} ${String(value)}`;
}

/** The integer text of an Edm.Int64 value, within its range (a safe JS integer is tolerated). */
export function asIntegerText(type: EdmPrimitiveTypeName, value: PrimitiveValue): string {
  if (typeof value === 'string') {
    const canonical = canonicalInteger(value, false);
    return checked<string>(canonical !== undefined && isInt64(canonical), value, type, 'an integer string within the Edm.Int64 range');
  }
  // Beyond 2^53 a number is no longer the integer its provider meant (and prints with an exponent).
  return String(checked<number>(typeof value === 'number' && Number.isSafeInteger(value), value, type, 'an integer string'));
}

/** The text of an Edm.Decimal value, `["-"] digits ["." digits]` (a finite JS number is tolerated). */
export function asDecimalText(value: PrimitiveValue): string {
  if (typeof value === 'string') return checked<string>(isDecimalText(value), value, 'Edm.Decimal', 'a decimal string such as -12.50');
  const number = checked<number>(typeof value === 'number' && Number.isFinite(value), value, 'Edm.Decimal', 'a decimal string');
  return canonicalDecimal(String(number)) ?? String(number);
}

/** A value of an integer type of number size (Byte, SByte, Int16, Int32): an integer within the type's range. */
export function asInteger(type: EdmPrimitiveTypeName, value: PrimitiveValue): number {
  const { min, max } = numberRange(type);
  // `(value | 0) === value`: an integer within Int32 (no NaN, infinity or fraction); then the type's range.
  if (typeof value === 'number' && (value | 0) === value && value >= min && value <= max) return value;
  return checked<number>(false, value, type, `an integer from ${min} to ${max}`);
}

/** An Edm.Single value: NaN and the infinities, or a number within binary32's range. */
export function asSingle(value: PrimitiveValue): number {
  if (typeof value === 'number' && !(Math.abs(value) > SINGLE_MAX && Number.isFinite(value))) return value;
  return checked<number>(false, value, 'Edm.Single', 'a number within ±3.4028235E+38');
}

/** An Edm.Guid value: `8-4-4-4-12` hex digits. */
export function asGuidText(value: PrimitiveValue): string {
  return checked<string>(typeof value === 'string' && GUID_PATTERN.test(value), value, 'Edm.Guid', 'a GUID string');
}

/** An Edm.Time value: an xs:duration (or clock time) within .NET's TimeSpan range. */
export function asTimeText(value: PrimitiveValue): string {
  return checked<string>(typeof value === 'string' && timeToMilliseconds(value) !== undefined, value, 'Edm.Time', 'an xs:duration string such as PT13H20M');
}

/** An Edm.DateTime / Edm.DateTimeOffset value, checked. */
export function asDate(type: EdmPrimitiveTypeName, value: PrimitiveValue): Date {
  return checked<Date>(value instanceof Date, value, type, 'a Date');
}

/** A number-valued type's value, checked. */
export function asNumber(type: EdmPrimitiveTypeName, value: PrimitiveValue): number {
  return checked<number>(typeof value === 'number', value, type, 'a number');
}

/** A string-valued type's value, checked. */
export function asString(type: EdmPrimitiveTypeName, value: PrimitiveValue): string {
  return checked<string>(typeof value === 'string', value, type, 'a string');
}

/** An Edm.Boolean value, checked. */
export function asBoolean(value: PrimitiveValue): boolean {
  return checked<boolean>(typeof value === 'boolean', value, 'Edm.Boolean', 'a boolean');
}

/** Bytes of an Edm.Binary value. */
export function asBytes(value: PrimitiveValue): Uint8Array {
  return checked<Uint8Array>(value instanceof Uint8Array, value, 'Edm.Binary', 'a Uint8Array');
}

/** How each type's value is written as XML text. */
const TEXT_FORMATTERS: Readonly<Record<EdmPrimitiveTypeName, (value: PrimitiveValue) => string>> = {
  'Edm.Binary': (value) => formatBase64(asBytes(value)),
  'Edm.Boolean': (value) => (asBoolean(value) ? 'true' : 'false'),
  'Edm.Byte': (value) => String(asInteger('Edm.Byte', value)),
  'Edm.SByte': (value) => String(asInteger('Edm.SByte', value)),
  'Edm.Int16': (value) => String(asInteger('Edm.Int16', value)),
  'Edm.Int32': (value) => String(asInteger('Edm.Int32', value)),
  'Edm.Int64': (value) => asIntegerText('Edm.Int64', value),
  'Edm.Decimal': asDecimalText,
  'Edm.Single': (value) => formatFloatText(asSingle(value)),
  'Edm.Double': (value) => formatFloatText(asNumber('Edm.Double', value)),
  // The reference service wrote Edm.DateTime without offset (1992-01-01T00:00:00); the value is UTC.
  'Edm.DateTime': (value) => formatDateTimeText(asDate('Edm.DateTime', value)),
  'Edm.DateTimeOffset': (value) => formatDateTimeText(asDate('Edm.DateTimeOffset', value), 'Z'),
  'Edm.Time': asTimeText,
  'Edm.Guid': asGuidText,
  'Edm.String': (value) => asString('Edm.String', value),
};

/** The XML text form of a value (Atom `<d:Prop>` content, text/plain `$value`). */
export function formatPrimitiveText(type: EdmPrimitiveTypeName, value: PrimitiveValue): string {
  return TEXT_FORMATTERS[type](value);
}
