/**
 * EDM values between the library's JS forms and SQLite's storage classes, as better-sqlite3 binds
 * and returns them with safe integers on (every INTEGER as a BigInt). The storage, chosen so that
 * SQLite's own comparison of two stored values is the EDM comparison wherever it can be:
 *
 * | EDM type | stored as | why |
 * | --- | --- | --- |
 * | Byte, SByte, Int16, Int32, Int64 | INTEGER | 64-bit integers, bound as BigInt: Int64 never passes a double |
 * | Boolean | INTEGER 0 or 1 | SQLite has no boolean |
 * | Single, Double | REAL | a Single as the double of its single-precision value; NaN has no form (SQLite reads it as NULL) |
 * | Decimal | TEXT, canonical | exact; equal values have equal text (order is not text order: see the dialect) |
 * | DateTime, DateTimeOffset | TEXT `YYYY-MM-DD HH:MM:SS.fff` in UTC | fixed width: text order is time order; finer digits follow, without trailing zeros |
 * | Time | TEXT `HH:MM:SS.fff` | a time of day, fixed width (0:00 to 23:59:59.999) |
 * | Guid | TEXT, lower case | |
 * | Binary | BLOB | |
 * | String | TEXT | UTF-8; no unpaired surrogate |
 *
 * A JS value that does not fit is a RangeError (the provider answers 400), one of the wrong JS
 * type a TypeError, as the PostgreSQL codec does.
 */
import { sql } from 'kysely';
import { canonicalDecimal, canonicalInteger, isInt64 } from '../../edm/decimal-text';
import { isPreciseInstant, preciseInstant, type PreciseInstant } from '../../edm/precise-instant';
import { canonicalGuid } from '../../edm/primitive-text';
import { integerRange, laneOf, type EdmPrimitiveTypeName, type PrimitiveValue } from '../../edm/primitives';
import { formatDuration, timeToMilliseconds } from '../../edm/temporal-text';
import type { PositionValue } from '../../uri/types';
import type { SqlValueCodec } from '../engine';

/** A bind-parameter value as better-sqlite3 takes it. */
export type SqliteParameter = string | number | bigint | Buffer | null;

const MS_PER_DAY = 86_400_000;

function wrongType(type: EdmPrimitiveTypeName, what: string, value: unknown): TypeError {
  const shown = value instanceof Date ? 'a Date' : value instanceof Uint8Array ? 'bytes' : `${typeof value} ${String(value).slice(0, 40)}`;
  return new TypeError(`A ${type} value must be ${what}; got ${shown}.`);
}

function outOfRange(type: EdmPrimitiveTypeName, value: unknown, why = ''): RangeError {
  return new RangeError(`The value ${String(value).slice(0, 40)} is out of the range of ${type}${why}.`);
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/** `YYYY-MM-DD HH:MM:SS.fff` of a Date's UTC fields (years 0001 to 9999: four digits, so text order is time order). */
function formatSqliteTimestamp(date: Date, subMilliseconds = ''): string {
  const year = date.getUTCFullYear();
  if (Number.isNaN(date.getTime()) || year < 1 || year > 9999) throw new RangeError('SQLite stores dates of the years 0001 to 9999 only.');
  return (
    `${pad(year, 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)} ` +
    `${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}.${pad(date.getUTCMilliseconds(), 3)}` +
    subMilliseconds.replace(/0+$/, '')
  );
}

/** The form formatSqliteTimestamp writes for a value of whole milliseconds. */
const STORED_MILLISECONDS = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/;

/**
 * A stored timestamp: `YYYY-MM-DD[ T]HH:MM[:SS[.f…]]` with an optional `Z` or `±HH:MM` (what
 * other programs and SQLite's own `datetime()` write), or a date alone; UTC when it has no zone.
 * The whole fraction is returned beside the Date, for a position.
 */
function parseStoredTimestamp(text: string): { readonly date: Date; readonly fraction: string } | undefined {
  // What this codec writes (every row of a feed): one test and Date.UTC, without captures. Years
  // from 1000 only: Date.UTC reads the years 0 to 99 as 1900 to 1999.
  if (text.length === 23 && text.charCodeAt(0) !== 48 && STORED_MILLISECONDS.test(text)) {
    const milliseconds = Date.UTC(
      Number(text.slice(0, 4)),
      Number(text.slice(5, 7)) - 1,
      Number(text.slice(8, 10)),
      Number(text.slice(11, 13)),
      Number(text.slice(14, 16)),
      Number(text.slice(17, 19)),
      Number(text.slice(20, 23)),
    );
    return Number.isNaN(milliseconds) ? undefined : { date: new Date(milliseconds), fraction: text.slice(20) };
  }
  const match = /^(\d{4})-(\d\d)-(\d\d)(?:[ T](\d\d):(\d\d)(?::(\d\d)(?:\.(\d+))?)?)?(Z|[+-]\d\d:?\d\d)?$/.exec(text);
  if (match === null) return undefined;
  const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '', zone] = match;
  let offset = 0;
  if (zone !== undefined && zone !== 'Z') {
    const digits = zone.replace(':', '');
    offset = (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5))) * (zone.startsWith('-') ? -1 : 1);
  }
  const date = new Date(0);
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  date.setUTCHours(Number(hour), Number(minute) - offset, Number(second), Number((fraction + '000').slice(0, 3)));
  return Number.isNaN(date.getTime()) ? undefined : { date, fraction };
}

/** `HH:MM:SS.fff` of a duration within one day. */
function formatTimeOfDay(milliseconds: number): string {
  const hours = Math.floor(milliseconds / 3_600_000);
  const rest = milliseconds - hours * 3_600_000;
  return `${pad(hours, 2)}:${pad(Math.floor(rest / 60_000), 2)}:${pad(Math.floor((rest % 60_000) / 1000), 2)}.${pad(rest % 1000, 3)}`;
}

function parseTimeOfDay(text: string): number | undefined {
  const match = /^(\d\d):(\d\d)(?::(\d\d)(?:\.(\d+))?)?$/.exec(text);
  if (match === null) return undefined;
  const [, hours, minutes, seconds = '0', fraction = ''] = match;
  return ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000 + Number((fraction + '000').slice(0, 3));
}

/** Text SQLite can hold as UTF-8: no unpaired surrogate. */
function storableText(type: EdmPrimitiveTypeName, value: string): string {
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value)) {
    throw new RangeError(`A ${type} value cannot contain an unpaired surrogate (it has no UTF-8 form).`);
  }
  return value;
}

/** The bind-parameter value of an EDM value (see the module comment for the storage of each type). */
export function toSqliteParameter(type: EdmPrimitiveTypeName, value: PrimitiveValue | PreciseInstant): SqliteParameter {
  const lane = laneOf(type);
  switch (lane) {
    case 'binary':
      if (!(value instanceof Uint8Array)) throw wrongType(type, 'a Uint8Array', value);
      return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    case 'boolean':
      if (typeof value !== 'boolean') throw wrongType(type, 'a boolean', value);
      return value ? 1n : 0n;
    case 'integer':
    case 'int64': {
      const text = typeof value === 'number' && Number.isInteger(value) ? String(value) : typeof value === 'string' && lane === 'int64' ? value : undefined;
      const canonical = text === undefined ? undefined : canonicalInteger(text);
      if (canonical === undefined) throw wrongType(type, lane === 'int64' ? 'an integer string' : 'an integer number', value);
      const range = integerRange(type);
      const integer = BigInt(canonical);
      if (range === undefined || integer < range.min || integer > range.max || (lane === 'int64' && !isInt64(canonical))) throw outOfRange(type, value);
      return integer;
    }
    case 'float':
      if (typeof value !== 'number') throw wrongType(type, 'a number', value);
      if (Number.isNaN(value)) throw outOfRange(type, value, ': SQLite stores no NaN');
      return type === 'Edm.Single' ? Math.fround(value) : value;
    case 'decimal': {
      const canonical = typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) ? canonicalDecimal(String(value)) : undefined;
      if (canonical === undefined) throw wrongType(type, 'a decimal string', value);
      return canonical;
    }
    case 'instant':
      if (isPreciseInstant(value)) return formatSqliteTimestamp(value.date, value.subMilliseconds);
      if (!(value instanceof Date)) throw wrongType(type, 'a Date', value);
      return formatSqliteTimestamp(value);
    case 'time': {
      const milliseconds = typeof value === 'string' ? timeToMilliseconds(value) : undefined;
      if (milliseconds === undefined) throw wrongType(type, 'an xs:duration string', value);
      if (milliseconds < 0 || milliseconds >= MS_PER_DAY) throw outOfRange(type, value, ' (a time of day)');
      return formatTimeOfDay(milliseconds);
    }
    case 'guid': {
      const canonical = typeof value === 'string' ? canonicalGuid(value) : undefined;
      if (canonical === undefined) throw wrongType(type, 'a GUID string', value);
      return canonical;
    }
    case 'string':
      if (typeof value !== 'string') throw wrongType(type, 'a string', value);
      return storableText(type, value);
  }
}

/** An integer read back: better-sqlite3 gives a BigInt with safe integers, a number without. */
function integerOf(raw: unknown): bigint | undefined {
  if (typeof raw === 'bigint') return raw;
  if (typeof raw === 'number' && Number.isSafeInteger(raw)) return BigInt(raw);
  if (typeof raw === 'string') {
    const canonical = canonicalInteger(raw);
    return canonical === undefined ? undefined : BigInt(canonical);
  }
  return undefined;
}

/** An EDM value from a result column (null stays null); see the module comment for each type. */
function fromSqliteValue(type: EdmPrimitiveTypeName, raw: unknown): PrimitiveValue | null {
  if (raw === null || raw === undefined) return null;
  switch (laneOf(type)) {
    case 'binary':
      if (raw instanceof Uint8Array) return raw;
      if (typeof raw === 'string') return Buffer.from(raw, 'utf8');
      throw wrongType(type, 'a blob', raw);
    case 'boolean': {
      const integer = integerOf(raw);
      if (integer === 0n || integer === 1n) return integer === 1n;
      throw wrongType(type, 'an integer 0 or 1', raw);
    }
    case 'integer': {
      const integer = integerOf(raw);
      if (integer === undefined) throw wrongType(type, 'an integer', raw);
      return Number(integer);
    }
    case 'int64': {
      const integer = integerOf(raw);
      if (integer === undefined) throw wrongType(type, 'an integer', raw);
      return integer.toString();
    }
    case 'float':
      if (typeof raw === 'number') return raw;
      if (typeof raw === 'bigint') return Number(raw);
      throw wrongType(type, 'a real', raw);
    case 'decimal': {
      // A column of numeric affinity (a schema SQLite typed NUMERIC) returns numbers: their shortest text.
      const canonical = typeof raw === 'string' || typeof raw === 'bigint' || typeof raw === 'number' ? canonicalDecimal(String(raw)) : undefined;
      if (canonical === undefined) throw wrongType(type, 'a decimal text', raw);
      return canonical;
    }
    case 'instant': {
      const parsed = typeof raw === 'string' ? parseStoredTimestamp(raw) : undefined;
      if (parsed === undefined) throw wrongType(type, 'timestamp text (YYYY-MM-DD HH:MM:SS.fff)', raw);
      return parsed.date;
    }
    case 'time': {
      const milliseconds = typeof raw === 'string' ? parseTimeOfDay(raw) : undefined;
      if (milliseconds === undefined) throw wrongType(type, 'time text (HH:MM:SS.fff)', raw);
      return formatDuration(milliseconds);
    }
    case 'guid': {
      const canonical = typeof raw === 'string' ? canonicalGuid(raw) : undefined;
      if (canonical === undefined) throw wrongType(type, 'a GUID text', raw);
      return canonical;
    }
    case 'string':
      if (typeof raw === 'string') return raw;
      // A column of numeric affinity may hold a number where a string was declared.
      if (typeof raw === 'number' || typeof raw === 'bigint') return String(raw);
      throw wrongType(type, 'text', raw);
  }
}

/** An order value read beside a row for its position: a timestamp with every stored digit (a PreciseInstant). */
function fromSqlitePosition(type: EdmPrimitiveTypeName, raw: unknown): PositionValue | null {
  if (raw === null || raw === undefined || laneOf(type) !== 'instant') return fromSqliteValue(type, raw);
  const parsed = typeof raw === 'string' ? parseStoredTimestamp(raw) : undefined;
  if (parsed === undefined) throw wrongType(type, 'timestamp text (YYYY-MM-DD HH:MM:SS.fff)', raw);
  return preciseInstant(parsed.date, parsed.fraction.padEnd(3, '0').slice(3, 9).padEnd(3, '0'));
}

/** The SQLite value codec. */
export const SQLITE_VALUES: SqlValueCodec = Object.freeze<SqlValueCodec>({
  toParameter: toSqliteParameter,
  fromValue: fromSqliteValue,
  fromPosition: fromSqlitePosition,
  parameter: (type, value) => sql`${sql.val(toSqliteParameter(type, value))}`,
  jsonParameter: (text) => sql`${sql.val(text)}`,
});
