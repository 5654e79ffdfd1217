/**
 * PostgreSQL's text forms of timestamp, timestamptz and interval, read into and written from the
 * library's JS forms (Edm.DateTime/DateTimeOffset: a Date; Edm.Time: milliseconds). Output is read
 * in the default `DateStyle` (ISO) and in both `IntervalStyle`s a server may have (`postgres`,
 * `iso_8601`); a timestamptz carries its offset, so the session's TimeZone never matters.
 * A Date keeps milliseconds: digits 4-6 of a stored microsecond are dropped (truncated toward the
 * past for timestamps, toward zero for intervals, as PostgreSQL's date_trunc does), except in a
 * position (parsePreciseTimestampText), which keeps them. These are also the text forms of
 * default expressions in the catalog every engine's reader delivers (introspect/defaults.ts).
 */
import { preciseInstant, type PreciseInstant } from '../edm/precise-instant';

const US_PER_MS = 1000n;
const US_PER_SECOND = 1_000_000n;
const US_PER_DAY = 86_400n * US_PER_SECOND;

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

function fail(what: string, text: string): never {
  throw new TypeError(`Cannot read the PostgreSQL ${what} '${text.slice(0, 60)}' (DateStyle must be ISO).`);
}

/**
 * `YYYY-MM-DD HH:MM:SS[.ffffff][+HH[:MM[:SS]]][ BC]` (a `T` is accepted for the space) as a Date.
 * `withZone`: the text must carry an offset (timestamptz); without, it must not and is read as UTC.
 * Without a zone the time may be missing: a `date` column's `YYYY-MM-DD` is that day's midnight.
 */
export function parseTimestampText(text: string, withZone: boolean): Date {
  if (!withZone) {
    const common = parseCommonTimestamp(text);
    if (common !== undefined) return common;
  }
  const match = /^(\d{4,})-(\d\d)-(\d\d)(?:[ T](\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?(?:([+-])(\d\d)(?::?(\d\d))?(?::(\d\d))?)?)?( BC)?$/.exec(text);
  const what = withZone ? 'timestamptz' : 'timestamp';
  if (match === null || (match[8] !== undefined) !== withZone || (withZone && match[4] === undefined)) fail(what, text);
  const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '', sign, offsetHours = '0', offsetMinutes = '0', offsetSeconds = '0', bc] =
    match;
  const fields = [Number(month), Number(day), Number(hour), Number(minute), Number(second)];
  if (fields[0] < 1 || fields[0] > 12 || fields[1] < 1 || fields[1] > 31 || fields[2] > 23 || fields[3] > 59 || fields[4] > 59) fail(what, text);
  const offset = (Number(offsetHours) * 3600 + Number(offsetMinutes) * 60 + Number(offsetSeconds)) * (sign === '-' ? -1 : 1);
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, keeps years 0..99; 1 BC is year 0 (astronomical numbering).
  date.setUTCFullYear(bc === undefined ? Number(year) : 1 - Number(year), Number(month) - 1, Number(day));
  date.setUTCHours(Number(hour), Number(minute), Number(second) - offset, Number((fraction + '00').slice(0, 3)));
  if (Number.isNaN(date.getTime())) fail(what, text);
  return date;
}

/**
 * A timestamp or timestamptz text (as parseTimestampText reads it) as a PreciseInstant: its
 * millisecond, and digits 4 to 6 of its fraction (`'000'` when it has none).
 */
export function parsePreciseTimestampText(text: string, withZone: boolean): PreciseInstant {
  const date = parseTimestampText(text, withZone);
  // The fraction follows the seconds' dot; nothing before it (date, time) holds a dot.
  const dot = text.indexOf('.');
  let end = dot + 1;
  while (dot >= 0 && end < text.length && text.charCodeAt(end) >= 48 && text.charCodeAt(end) <= 57) end++;
  const fraction = dot < 0 ? '' : text.slice(dot + 1, end);
  return preciseInstant(date, fraction.padEnd(6, '0').slice(3));
}

/** The digits of `text` from `start` to `end` as a number; NaN when one is not a digit. */
function digitsAt(text: string, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return NaN;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * The form almost every timestamp column delivers, read without a regular expression:
 * `YYYY-MM-DD HH:MM:SS[.f{1,6}]`, year 1000 or later (Date.UTC would move years 0..99), no zone,
 * no BC. Undefined for anything else (the general reader then decides).
 */
function parseCommonTimestamp(text: string): Date | undefined {
  const length = text.length;
  if (length < 19 || length === 20 || length > 26 || text[4] !== '-' || text[7] !== '-' || text[10] !== ' ' || text[13] !== ':' || text[16] !== ':')
    return undefined;
  if (length > 19 && text[19] !== '.') return undefined;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 7);
  const day = digitsAt(text, 8, 10);
  const hour = digitsAt(text, 11, 13);
  const minute = digitsAt(text, 14, 16);
  const second = digitsAt(text, 17, 19);
  // Milliseconds: the first three fraction digits, the rest dropped (truncated toward the past).
  const fraction = length > 19 ? digitsAt(text, 20, length) : 0;
  const digits = length > 19 ? length - 20 : 0;
  if (Number.isNaN(year + month + day + hour + minute + second + fraction) || year < 1000) return undefined;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return undefined;
  const milliseconds = digits <= 3 ? fraction * 10 ** (3 - digits) : Math.floor(fraction / 10 ** (digits - 3));
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, milliseconds));
}

/**
 * A Date as timestamp input text (`2000-01-02 03:04:05.006`, UTC fields), or with `+00` for
 * timestamptz; `subMilliseconds`, a PreciseInstant's digits, follow the milliseconds (`.006123`).
 */
export function formatTimestampParameter(date: Date, withZone: boolean, subMilliseconds = ''): string {
  const time = date.getTime();
  if (Number.isNaN(time)) throw new TypeError('Cannot write an invalid Date.');
  const year = date.getUTCFullYear();
  const text =
    pad(year > 0 ? year : 1 - year, 4) +
    '-' +
    pad(date.getUTCMonth() + 1, 2) +
    '-' +
    pad(date.getUTCDate(), 2) +
    ' ' +
    pad(date.getUTCHours(), 2) +
    ':' +
    pad(date.getUTCMinutes(), 2) +
    ':' +
    pad(date.getUTCSeconds(), 2) +
    '.' +
    pad(date.getUTCMilliseconds(), 3) +
    subMilliseconds;
  return text + (withZone ? '+00' : '') + (year > 0 ? '' : ' BC');
}

/** Microseconds of `[-]H:MM:SS[.ffffff]` (hours may exceed 24). */
function clockMicroseconds(text: string): bigint | undefined {
  const match = /^([+-])?(\d+):(\d\d):(\d\d)(?:\.(\d{1,6}))?$/.exec(text);
  if (match === null) return undefined;
  const [, sign, hours, minutes, seconds, fraction = ''] = match;
  const total = (BigInt(hours) * 3600n + BigInt(minutes) * 60n + BigInt(seconds)) * US_PER_SECOND + BigInt(fraction.padEnd(6, '0'));
  return sign === '-' ? -total : total;
}

const POSTGRES_UNITS: Readonly<Record<string, bigint>> = {
  year: 360n * US_PER_DAY,
  years: 360n * US_PER_DAY,
  mon: 30n * US_PER_DAY,
  mons: 30n * US_PER_DAY,
  day: US_PER_DAY,
  days: US_PER_DAY,
};

/** `1 year 2 mons -3 days +04:05:06.789` (IntervalStyle `postgres`). */
function postgresIntervalMicroseconds(text: string): bigint | undefined {
  const parts = text.split(' ');
  let total = 0n;
  let i = 0;
  while (i + 1 < parts.length && /^[+-]?\d+$/.test(parts[i]) && POSTGRES_UNITS[parts[i + 1]] !== undefined) {
    total += BigInt(parts[i]) * POSTGRES_UNITS[parts[i + 1]];
    i += 2;
  }
  if (i === parts.length) return i === 0 ? undefined : total;
  if (i !== parts.length - 1) return undefined;
  const clock = clockMicroseconds(parts[i]);
  return clock === undefined ? undefined : total + clock;
}

const ISO_UNITS: Readonly<Record<string, bigint>> = { Y: 360n * US_PER_DAY, M: 30n * US_PER_DAY, W: 7n * US_PER_DAY, D: US_PER_DAY };
const ISO_TIME_UNITS: Readonly<Record<string, bigint>> = { H: 3600n * US_PER_SECOND, M: 60n * US_PER_SECOND };

/** `P1Y2M-3DT4H5M6.789S` (IntervalStyle `iso_8601`: each field may carry its own sign). */
function isoIntervalMicroseconds(text: string): bigint | undefined {
  const match = /^P((?:-?\d+[YMWD])*)(?:T((?:-?\d+[HM])*)(?:(-?\d+)(?:\.(\d{1,6}))?S)?)?$/.exec(text);
  if (match === null || text === 'P' || text.endsWith('T')) return undefined;
  const [, datePart, timePart = '', seconds, fraction = ''] = match;
  let total = 0n;
  for (const [, amount, unit] of datePart.matchAll(/(-?\d+)([YMWD])/g)) total += BigInt(amount) * ISO_UNITS[unit];
  for (const [, amount, unit] of timePart.matchAll(/(-?\d+)([HM])/g)) total += BigInt(amount) * ISO_TIME_UNITS[unit];
  if (seconds !== undefined) {
    const micro = BigInt(fraction.padEnd(6, '0'));
    total += BigInt(seconds) * US_PER_SECOND + (seconds.startsWith('-') ? -micro : micro);
  }
  return total;
}

/**
 * The milliseconds of an interval's text, truncated toward zero. A month counts 30 days and a year
 * 360, as PostgreSQL compares intervals (Edm.Time is a duration: the provider writes day-time
 * intervals only). TypeError for an unreadable text or one beyond ±2^53 ms.
 */
export function parseIntervalText(text: string): number {
  const micro = postgresIntervalMicroseconds(text) ?? isoIntervalMicroseconds(text);
  if (micro === undefined) throw new TypeError(`Cannot read the PostgreSQL interval '${text.slice(0, 60)}' (IntervalStyle must be postgres or iso_8601).`);
  const milliseconds = Number(micro / US_PER_MS);
  if (!Number.isSafeInteger(milliseconds)) throw new TypeError(`The interval '${text.slice(0, 60)}' is too long for an Edm.Time.`);
  return milliseconds === 0 ? 0 : milliseconds;
}

/** Milliseconds as interval input text: `[-]H:MM:SS.fff` (hours unbounded, no month or day fields). */
export function formatIntervalParameter(milliseconds: number): string {
  if (!Number.isSafeInteger(milliseconds)) throw new TypeError(`Cannot write the duration ${milliseconds} ms as an interval.`);
  const magnitude = Math.abs(milliseconds);
  const hours = Math.floor(magnitude / 3_600_000);
  const rest = magnitude - hours * 3_600_000;
  const text = `${hours}:${pad(Math.floor(rest / 60_000), 2)}:${pad(Math.floor((rest % 60_000) / 1000), 2)}.${pad(rest % 1000, 3)}`;
  return milliseconds < 0 ? '-' + text : text;
}
