/**
 * EDM values between the library's JS forms (lib/edm/primitives.ts) and the PostgreSQL drivers:
 * bind-parameter values (exact text, booleans, Buffers: never a JS number for Int64/Decimal, never
 * a local-time Date) and result values as the type parsers of type-parsers.ts deliver them.
 * A JS value that does not fit its column type is a RangeError (Byte/SByte/Int16/Int32/Int64 ranges,
 * U+0000 and unpaired surrogates in text); a value of the wrong JS type is a TypeError.
 */
import { canonicalDecimal, canonicalInteger, isInt64 } from '../../edm/decimal-text';
import { isPreciseInstant, preciseInstant, type PreciseInstant } from '../../edm/precise-instant';
import { canonicalGuid } from '../../edm/primitive-text';
import { numberRange, type EdmPrimitiveTypeName, type PrimitiveValue } from '../../edm/primitives';
import { formatDuration, timeToMilliseconds } from '../../edm/temporal-text';
import type { PositionValue } from '../../uri/types';
import { formatIntervalParameter, formatTimestampParameter, parseIntervalText, parsePreciseTimestampText, parseTimestampText } from '../temporal';
import { sql } from 'kysely';
import type { SqlValueCodec } from '../engine';
import { COLUMN_TYPES } from './ddl';
import { parseByteaText } from './type-parsers';

/** A bind-parameter value as both drivers take it. */
export type SqlParameterValue = string | boolean | Buffer;

function wrongType(type: EdmPrimitiveTypeName, what: string, value: unknown): TypeError {
  const shown = value instanceof Date ? 'a Date' : value instanceof Uint8Array ? 'bytes' : `${typeof value} ${String(value).slice(0, 40)}`;
  return new TypeError(`A ${type} value must be ${what}; got ${shown}.`);
}

function outOfRange(type: EdmPrimitiveTypeName, value: unknown): RangeError {
  return new RangeError(`The value ${String(value).slice(0, 40)} is out of the range of ${type}.`);
}

/** Text PostgreSQL can store: no U+0000, no unpaired surrogate (UTF-8 has no form for either). */
function storableText(type: EdmPrimitiveTypeName, value: string): string {
  // The common case has neither NUL nor any surrogate: one regex test, no per-pair walk.
  if (!/[\0\uD800-\uDFFF]/.test(value)) return value;
  if (value.includes('\0')) throw new RangeError(`A ${type} value cannot contain U+0000 in PostgreSQL.`);
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value)) {
    throw new RangeError(`A ${type} value cannot contain an unpaired surrogate (it has no UTF-8 form).`);
  }
  return value;
}

function floatText(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  // String(-0) is '0'; the sign of zero is kept (1/-0 is -INF in both the evaluator and SQL).
  return Object.is(value, -0) ? '-0' : String(value);
}

type ParameterWriter = (value: PrimitiveValue | PreciseInstant, type: EdmPrimitiveTypeName) => SqlParameterValue;

const smallInteger: ParameterWriter = (value, type) => {
  const { min, max } = numberRange(type);
  if (typeof value !== 'number' || !Number.isInteger(value)) throw wrongType(type, 'an integer number', value);
  if (value < min || value > max) throw outOfRange(type, value);
  return String(value === 0 ? 0 : value);
};

/**
 * Where a double stops rounding to the largest single and rounds to infinity (the midpoint
 * 2^128 - 2^103): `3.4028235E+38`, the shortest text of the largest single, is below it.
 */
const SINGLE_OVERFLOW = 3.4028235677973366e38;

const floating: ParameterWriter = (value, type) => {
  if (typeof value !== 'number') throw wrongType(type, 'a number', value);
  if (type === 'Edm.Single' && Number.isFinite(value) && Math.abs(value) >= SINGLE_OVERFLOW) throw outOfRange(type, value);
  return floatText(value);
};

const timestamp: ParameterWriter = (value, type) => {
  if (isPreciseInstant(value)) return formatTimestampParameter(value.date, type === 'Edm.DateTimeOffset', value.subMilliseconds);
  if (!(value instanceof Date)) throw wrongType(type, 'a Date', value);
  return formatTimestampParameter(value, type === 'Edm.DateTimeOffset');
};

const PARAMETER_WRITERS: Readonly<Record<EdmPrimitiveTypeName, ParameterWriter>> = {
  'Edm.Binary': (value, type) => {
    if (!(value instanceof Uint8Array)) throw wrongType(type, 'a Uint8Array', value);
    return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  },
  'Edm.Boolean': (value, type) => {
    if (typeof value !== 'boolean') throw wrongType(type, 'a boolean', value);
    return value;
  },
  'Edm.Byte': smallInteger,
  'Edm.SByte': smallInteger,
  'Edm.Int16': smallInteger,
  'Edm.Int32': smallInteger,
  'Edm.Int64': (value, type) => {
    const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
    if (typeof text !== 'string') throw wrongType(type, 'an integer string', value);
    const canonical = canonicalInteger(text);
    if (canonical === undefined) throw wrongType(type, 'an integer string', value);
    if (!isInt64(canonical)) throw outOfRange(type, value);
    return canonical;
  },
  'Edm.Decimal': (value, type) => {
    const canonical = typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) ? canonicalDecimal(String(value)) : undefined;
    if (canonical === undefined) throw wrongType(type, 'a decimal string', value);
    return canonical;
  },
  'Edm.Single': floating,
  'Edm.Double': floating,
  'Edm.DateTime': timestamp,
  'Edm.DateTimeOffset': timestamp,
  'Edm.Time': (value, type) => {
    const milliseconds = typeof value === 'string' ? timeToMilliseconds(value) : undefined;
    if (milliseconds === undefined) throw wrongType(type, 'an xs:duration string', value);
    return formatIntervalParameter(milliseconds);
  },
  'Edm.Guid': (value, type) => {
    const canonical = typeof value === 'string' ? canonicalGuid(value) : undefined;
    if (canonical === undefined) throw wrongType(type, 'a GUID string', value);
    return canonical;
  },
  'Edm.String': (value, type) => {
    if (typeof value !== 'string') throw wrongType(type, 'a string', value);
    return storableText(type, value);
  },
};

/**
 * The bind-parameter value of an EDM value, for a parameter the SQL casts to the type's column type
 * (`$1::numeric`): Int64/Decimal as exact text, dates as UTC text (`2000-01-02 03:04:05.006`, with
 * `+00` for DateTimeOffset; a PreciseInstant with all its digits), Time as `H:MM:SS.fff`, doubles
 * with `NaN`/`Infinity`, bytes as a Buffer.
 */
export function toSqlParameter(type: EdmPrimitiveTypeName, value: PrimitiveValue | PreciseInstant): SqlParameterValue {
  return PARAMETER_WRITERS[type](value, type);
}

type ValueReader = (raw: unknown, type: EdmPrimitiveTypeName) => PrimitiveValue;

const integerReader: ValueReader = (raw, type) => {
  const value = typeof raw === 'string' ? Number(canonicalInteger(raw)) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw wrongType(type, 'an integer', raw);
  return value;
};

const floatReader: ValueReader = (raw, type) => {
  if (typeof raw === 'number') return raw;
  if (typeof raw === 'string') {
    const value = raw === 'NaN' ? NaN : raw === 'Infinity' ? Infinity : raw === '-Infinity' ? -Infinity : Number(raw);
    if (!Number.isNaN(value) || raw === 'NaN') return value;
  }
  throw wrongType(type, 'a number', raw);
};

const VALUE_READERS: Readonly<Record<EdmPrimitiveTypeName, ValueReader>> = {
  'Edm.Binary': (raw, type) => {
    if (raw instanceof Uint8Array) return raw;
    if (typeof raw === 'string') return parseByteaText(raw);
    throw wrongType(type, 'bytes', raw);
  },
  'Edm.Boolean': (raw, type) => {
    if (typeof raw === 'boolean') return raw;
    if (raw === 't' || raw === 'f') return raw === 't';
    throw wrongType(type, 'a boolean', raw);
  },
  'Edm.Byte': integerReader,
  'Edm.SByte': integerReader,
  'Edm.Int16': integerReader,
  'Edm.Int32': integerReader,
  'Edm.Int64': (raw, type) => {
    const text = typeof raw === 'bigint' || (typeof raw === 'number' && Number.isSafeInteger(raw)) ? String(raw) : raw;
    const canonical = typeof text === 'string' ? canonicalInteger(text) : undefined;
    if (canonical === undefined || !isInt64(canonical)) throw wrongType(type, 'an int8 text', raw);
    return canonical;
  },
  'Edm.Decimal': (raw, type) => {
    // NaN and ±Infinity are numeric values in PostgreSQL, but not Edm.Decimal values.
    const canonical = typeof raw === 'string' ? canonicalDecimal(raw) : undefined;
    if (canonical === undefined) throw wrongType(type, 'a numeric text', raw);
    return canonical;
  },
  'Edm.Single': floatReader,
  'Edm.Double': floatReader,
  'Edm.DateTime': (raw, type) => {
    // A Date made by a driver from a timestamp without time zone was read in the process's local time.
    if (typeof raw !== 'string') throw wrongType(type, 'timestamp text (pglite()/postgres() deliver it)', raw);
    return parseTimestampText(raw, false);
  },
  'Edm.DateTimeOffset': (raw, type) => {
    if (raw instanceof Date) return raw;
    if (typeof raw !== 'string') throw wrongType(type, 'timestamptz text', raw);
    return parseTimestampText(raw, true);
  },
  'Edm.Time': (raw, type) => {
    if (typeof raw !== 'string') throw wrongType(type, 'interval text', raw);
    return formatDuration(parseIntervalText(raw));
  },
  'Edm.Guid': (raw, type) => {
    const canonical = typeof raw === 'string' ? canonicalGuid(raw) : undefined;
    if (canonical === undefined) throw wrongType(type, 'a uuid text', raw);
    return canonical;
  },
  'Edm.String': (raw, type) => {
    if (typeof raw !== 'string') throw wrongType(type, 'text', raw);
    return raw;
  },
};

/**
 * An EDM value from a result column as pglite()/postgres() deliver it (null stays null): Int64 and
 * Decimal as canonical text, DateTime read as UTC, DateTimeOffset as the instant, Time as the
 * canonical xs:duration, Guid in lower case. Sub-millisecond digits are dropped (see temporal.ts).
 */
export function fromSqlValue(type: EdmPrimitiveTypeName, raw: unknown): PrimitiveValue | null {
  if (raw === null || raw === undefined) return null;
  return VALUE_READERS[type](raw, type);
}

/**
 * An order value read beside a row for its position (`QueryResult.positionOf`): as fromSqlValue,
 * but a timestamp keeps every stored digit, as a PreciseInstant (`…00.123456`; `…00.123000` for
 * a value on the millisecond, so it stays exact).
 */
export function fromSqlPosition(type: EdmPrimitiveTypeName, raw: unknown): PositionValue | null {
  if (raw === null || raw === undefined || (type !== 'Edm.DateTime' && type !== 'Edm.DateTimeOffset')) return fromSqlValue(type, raw);
  // A driver that made a Date has dropped the digits already: the position is its millisecond, exactly.
  if (raw instanceof Date && type === 'Edm.DateTimeOffset') return preciseInstant(raw, '000');
  if (typeof raw !== 'string') throw wrongType(type, 'timestamp text (pglite()/postgres() deliver it)', raw);
  return parsePreciseTimestampText(raw, type === 'Edm.DateTimeOffset');
}

/** The PostgreSQL value codec (pglite() and postgres() deliver results alike). */
export const POSTGRES_VALUES: SqlValueCodec = Object.freeze<SqlValueCodec>({
  toParameter: toSqlParameter,
  fromValue: fromSqlValue,
  fromPosition: fromSqlPosition,
  parameter: (type, value) => sql`${sql.val(toSqlParameter(type, value))}::${sql.raw(COLUMN_TYPES[type])}`,
  jsonParameter: (text) => sql`${sql.val(text)}::jsonb`,
});
