/**
 * Text forms of Edm.DateTime, Edm.DateTimeOffset and Edm.Time: xs:dateTime, xs:duration and the
 * verbose-JSON `/Date(ms)/` form. Pure functions over strings; validation is exact (month 13,
 * February 30 and hour 24 are refused), and values keep millisecond precision (what a Date holds);
 * only a PreciseInstant (a position in a feed's order) is written with the digits after it.
 */
import type { PreciseInstant } from './precise-instant';

const MS_PER_SECOND = 1000;
const MS_PER_MINUTE = 60 * MS_PER_SECOND;
const MS_PER_HOUR = 60 * MS_PER_MINUTE;
const MS_PER_DAY = 24 * MS_PER_HOUR;

/**
 * The instants every writer can write: 0001-01-01T00:00:00Z up to (not including)
 * 10000-01-01T00:00:00Z. xs:dateTime in Atom and URI literals has four-digit years here, and .NET's
 * DateTime (what WCF clients read `\/Date(ms)\/` into) spans years 1 to 9999. Readers refuse
 * instants outside, so a stored value can always be written again.
 */
export const MIN_WRITABLE_TIME = -62135596800000;
/** Just past the last writable instant (10000-01-01T00:00:00Z). */
export const END_WRITABLE_TIME = 253402300800000;

/** True for a time value (ms since 1970) that the writers can write: years 0001 to 9999, in UTC. */
export function isWritableTime(time: number): boolean {
  return time >= MIN_WRITABLE_TIME && time < END_WRITABLE_TIME;
}

/**
 * The longest Edm.Time any writer's reader can hold: .NET's TimeSpan (the CLR type of Edm.Time in
 * WCF Data Services) spans ±10675199.02:48:05.4775807, i.e. ±922337203685477 whole milliseconds.
 */
export const MAX_TIME_MILLISECONDS = 922337203685477;

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** Read exactly `count` digits at `at`; -1 when they are not all digits. */
function readDigits(text: string, at: number, count: number): number {
  if (at + count > text.length) return -1;
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const code = text.charCodeAt(i);
    if (!isDigit(code)) return -1;
    value = value * 10 + (code - 48);
  }
  return value;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Parse an xs:dateTime (also the body of `datetime'...'` and `datetimeoffset'...'`):
 *
 *   dateTime = year "-" month "-" day ("T" / SP) hour ":" minute [":" second ["." 1*DIGIT]] [offset]
 *   offset   = "Z" / ("+" / "-") hour ":" minute
 *
 * (MS-ODATA §2.2.2 dateTimeLiteral / dateTimeOffsetLiteral; seconds optional as in WCF).
 * Without an offset the value is read as UTC; with one it is converted to the UTC instant, which
 * must lie in years 0001 to 9999 (`isWritableTime`).
 * A space instead of `T` is accepted only when `allowSpace` is set (the WCF URI lexer accepted it).
 * Digits beyond milliseconds are truncated: a Date holds milliseconds. Undefined when invalid.
 */
export function parseDateTimeText(text: string, allowSpace = false): Date | undefined {
  const year = readDigits(text, 0, 4);
  if (year < 1 || text.charCodeAt(4) !== 45) return undefined;
  const month = readDigits(text, 5, 2);
  if (month < 1 || month > 12 || text.charCodeAt(7) !== 45) return undefined;
  const day = readDigits(text, 8, 2);
  if (day < 1 || day > daysInMonth(year, month)) return undefined;
  const separator = text.charCodeAt(10);
  if (separator !== 84 /* T */ && !(allowSpace && separator === 32)) return undefined;
  const hour = readDigits(text, 11, 2);
  if (hour < 0 || hour > 23 || text.charCodeAt(13) !== 58) return undefined;
  const minute = readDigits(text, 14, 2);
  if (minute < 0 || minute > 59) return undefined;
  let i = 16;
  let second = 0;
  let millisecond = 0;
  if (text.charCodeAt(i) === 58 /* : */) {
    second = readDigits(text, i + 1, 2);
    if (second < 0 || second > 59) return undefined;
    i += 3;
    if (text.charCodeAt(i) === 46 /* . */) {
      const start = ++i;
      while (i < text.length && isDigit(text.charCodeAt(i))) i++;
      if (i === start) return undefined;
      millisecond = Number((text.slice(start, Math.min(i, start + 3)) + '00').slice(0, 3));
    }
  }
  let offsetMinutes = 0;
  if (i < text.length) {
    const sign = text.charCodeAt(i);
    if (sign === 90 /* Z */ && i + 1 === text.length) {
      // UTC: the offset stays 0.
    } else if ((sign === 43 || sign === 45) && i + 6 === text.length && text.charCodeAt(i + 3) === 58) {
      const offsetHours = readDigits(text, i + 1, 2);
      const offsetMins = readDigits(text, i + 4, 2);
      if (offsetHours < 0 || offsetHours > 14 || offsetMins < 0 || offsetMins > 59) return undefined;
      offsetMinutes = (offsetHours * 60 + offsetMins) * (sign === 45 ? -1 : 1);
    } else {
      return undefined;
    }
  }
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0..99 to 1900..1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute - offsetMinutes, second, millisecond);
  // An offset can move a valid local text out of the writable range (0001-01-01T00:00+01:00).
  return isWritableTime(date.getTime()) ? date : undefined;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/**
 * The fractional-second digits of an xs:dateTime text that `parseDateTimeText` accepts (`'123456'`
 * of `2024-05-01T10:00:00.123456Z`; `''` without a fraction): the digits a `Date` drops past the third.
 */
export function dateTimeFraction(text: string): string {
  // yyyy-mm-ddThh:mm:ss.f...: the fraction's dot is at 19, after the optional seconds.
  if (text.charCodeAt(16) !== 58 /* : */ || text.charCodeAt(19) !== 46 /* . */) return '';
  let end = 20;
  while (end < text.length && isDigit(text.charCodeAt(end))) end++;
  return text.slice(20, end);
}

/**
 * The xs:dateTime text of a PreciseInstant in UTC, every digit written (`2024-05-01T10:00:00.123456`,
 * `…00.123000`): more than three fractional digits, so it reads back as a PreciseInstant where a
 * position is read (lib/uri/skiptoken.ts), never as a millisecond.
 */
export function formatPreciseDateTimeText(value: PreciseInstant, suffix: '' | 'Z' = ''): string {
  assertWritableDate(value.date);
  return secondsText(value.date) + '.' + pad(value.date.getUTCMilliseconds(), 3) + value.subMilliseconds + suffix;
}

/**
 * The xs:dateTime text of a Date in UTC: `2000-01-01T00:00:00`, milliseconds only when non-zero
 * (trailing zeros trimmed, as .NET XmlConvert writes them), then `suffix` (`''` or `'Z'`).
 * Throws a TypeError for an invalid Date or a year outside 0001..9999 (a provider bug, not input).
 */
export function formatDateTimeText(date: Date, suffix: '' | 'Z' = ''): string {
  assertWritableDate(date);
  let text = secondsText(date);
  const ms = date.getUTCMilliseconds();
  if (ms !== 0) text += '.' + pad(ms, 3).replace(/0+$/, '');
  return text + suffix;
}

/** `2000-01-01T00:00:00`: a writable Date's UTC fields down to the second. */
function secondsText(date: Date): string {
  return (
    pad(date.getUTCFullYear(), 4) +
    '-' +
    pad(date.getUTCMonth() + 1, 2) +
    '-' +
    pad(date.getUTCDate(), 2) +
    'T' +
    pad(date.getUTCHours(), 2) +
    ':' +
    pad(date.getUTCMinutes(), 2) +
    ':' +
    pad(date.getUTCSeconds(), 2)
  );
}

/** A TypeError (a provider bug, masked as 500) for an invalid Date or one outside years 0001..9999. */
function assertWritableDate(date: Date): void {
  if (!isWritableTime(date.getTime())) {
    throw new TypeError(`Cannot write the date ${String(date)}: it must be a valid date in the years 0001..9999 (UTC).`);
  }
}

/** Units of an xs:duration after `T` (hours, minutes, seconds) with their length in ms. */
const TIME_UNITS: readonly { readonly designator: number; readonly ms: number }[] = [
  { designator: 72 /* H */, ms: MS_PER_HOUR },
  { designator: 77 /* M */, ms: MS_PER_MINUTE },
  { designator: 83 /* S */, ms: MS_PER_SECOND },
];

/**
 * Milliseconds of an xs:duration restricted to fixed-length units (Edm.Time is a .NET TimeSpan):
 *
 *   duration = ["-"] "P" [1*DIGIT "D"] ["T" [1*DIGIT "H"] [1*DIGIT "M"] [1*DIGIT ["." 1*DIGIT] "S"]]
 *
 * with at least one component, and `T` only before one. Year and month components have no fixed
 * length and are refused. Undefined when invalid or longer than `MAX_TIME_MILLISECONDS`.
 */
export function parseDurationText(text: string): number | undefined {
  let i = 0;
  let negative = false;
  if (text.charCodeAt(0) === 45) {
    negative = true;
    i = 1;
  }
  if (text.charCodeAt(i) !== 80 /* P */) return undefined;
  i++;
  let total = 0;
  let components = 0;
  let unit = 0; // index of the next allowed unit: 0 = D, 1.. = TIME_UNITS
  let inTime = false;
  while (i < text.length) {
    if (text.charCodeAt(i) === 84 /* T */) {
      if (inTime || i + 1 === text.length) return undefined;
      inTime = true;
      unit = Math.max(unit, 1);
      i++;
      continue;
    }
    const start = i;
    while (i < text.length && isDigit(text.charCodeAt(i))) i++;
    if (i === start || i - start > 15) return undefined;
    const whole = Number(text.slice(start, i));
    let fraction = 0;
    if (text.charCodeAt(i) === 46) {
      const fracStart = ++i;
      while (i < text.length && isDigit(text.charCodeAt(i))) i++;
      if (i === fracStart) return undefined;
      fraction = Number((text.slice(fracStart, Math.min(i, fracStart + 3)) + '00').slice(0, 3));
      if (text.charCodeAt(i) !== 83 /* S */) return undefined;
    }
    const designator = text.charCodeAt(i);
    i++;
    if (!inTime) {
      if (designator !== 68 /* D */ || unit > 0) return undefined;
      total += whole * MS_PER_DAY;
      unit = 1;
    } else {
      let found = -1;
      for (let u = unit - 1; u < TIME_UNITS.length; u++) {
        if (TIME_UNITS[u].designator === designator) {
          found = u;
          break;
        }
      }
      if (found < 0) return undefined;
      total += whole * TIME_UNITS[found].ms + fraction;
      unit = found + 2;
    }
    components++;
  }
  if (components === 0 || !(total <= MAX_TIME_MILLISECONDS)) return undefined;
  return negative && total !== 0 ? -total : total;
}

/**
 * Edm.Time also arrives as a clock time `hh:mm[:ss[.fff]]` from some clients (the OData V3
 * libraries wrote it so); read it as the duration since midnight.
 */
function parseClockTimeText(text: string): number | undefined {
  const hour = readDigits(text, 0, 2);
  if (hour < 0 || hour > 23 || text.charCodeAt(2) !== 58) return undefined;
  const minute = readDigits(text, 3, 2);
  if (minute < 0 || minute > 59) return undefined;
  let total = hour * MS_PER_HOUR + minute * MS_PER_MINUTE;
  if (text.length === 5) return total;
  if (text.charCodeAt(5) !== 58) return undefined;
  const second = readDigits(text, 6, 2);
  if (second < 0 || second > 59) return undefined;
  total += second * MS_PER_SECOND;
  if (text.length === 8) return total;
  if (text.charCodeAt(8) !== 46 || text.length === 9) return undefined;
  for (let i = 9; i < text.length; i++) if (!isDigit(text.charCodeAt(i))) return undefined;
  return total + Number((text.slice(9, 12) + '00').slice(0, 3));
}

/**
 * The canonical xs:duration of a number of milliseconds, as .NET writes a TimeSpan:
 * `PT13H20M`, `P1DT2H`, `PT0.5S`, `-PT1M`, and `PT0S` for zero.
 */
export function formatDuration(milliseconds: number): string {
  if (!Number.isInteger(milliseconds) || Math.abs(milliseconds) > MAX_TIME_MILLISECONDS) {
    throw new TypeError(`Cannot write the duration ${milliseconds}: it must be a whole number of milliseconds within ±${MAX_TIME_MILLISECONDS}.`);
  }
  if (milliseconds === 0) return 'PT0S';
  let rest = Math.abs(milliseconds);
  const days = Math.floor(rest / MS_PER_DAY);
  rest -= days * MS_PER_DAY;
  const hours = Math.floor(rest / MS_PER_HOUR);
  rest -= hours * MS_PER_HOUR;
  const minutes = Math.floor(rest / MS_PER_MINUTE);
  rest -= minutes * MS_PER_MINUTE;
  const seconds = Math.floor(rest / MS_PER_SECOND);
  const ms = rest - seconds * MS_PER_SECOND;
  let text = milliseconds < 0 ? '-P' : 'P';
  if (days > 0) text += days + 'D';
  if (hours > 0 || minutes > 0 || seconds > 0 || ms > 0) {
    text += 'T';
    if (hours > 0) text += hours + 'H';
    if (minutes > 0) text += minutes + 'M';
    if (seconds > 0 || ms > 0) text += seconds + (ms > 0 ? '.' + pad(ms, 3).replace(/0+$/, '') : '') + 'S';
  }
  return text;
}

/** Canonical Edm.Time value of an xs:duration or `hh:mm[:ss[.fff]]` text; undefined when invalid. */
export function canonicalTime(text: string): string | undefined {
  const ms = parseDurationText(text) ?? parseClockTimeText(text);
  return ms === undefined ? undefined : formatDuration(ms);
}

/** Milliseconds of a canonical Edm.Time value (for the evaluator's hour(), minute(), second()). */
export function timeToMilliseconds(value: string): number | undefined {
  return parseDurationText(value) ?? parseClockTimeText(value);
}

/**
 * Read the verbose-JSON date form (after JSON unescaping `\/` to `/`):
 *
 *   "/Date(" ["-"] 1*DIGIT [("+" / "-") 1*4DIGIT] ")/"
 *
 * The milliseconds are the UTC instant; the offset (in minutes) only says which local time the
 * sender meant, as in the ASP.NET AJAX format this comes from (the SAP Cloud SDK reads it so).
 * Undefined outside years 0001..9999 (`isWritableTime`).
 */
export function parseJsonDateText(text: string): Date | undefined {
  if (!text.startsWith('/Date(') || !text.endsWith(')/')) return undefined;
  const body = text.slice(6, -2);
  let i = body.charCodeAt(0) === 45 ? 1 : 0;
  const start = i;
  while (i < body.length && isDigit(body.charCodeAt(i))) i++;
  if (i === start || i - start > 16) return undefined;
  const ms = Number(body.slice(0, i));
  if (i < body.length) {
    const sign = body.charCodeAt(i);
    const offset = body.slice(i + 1);
    if ((sign !== 43 && sign !== 45) || offset.length < 1 || offset.length > 4) return undefined;
    for (let j = 0; j < offset.length; j++) if (!isDigit(offset.charCodeAt(j))) return undefined;
  }
  return isWritableTime(ms) ? new Date(ms) : undefined;
}

/** The verbose-JSON date form (unescaped): `/Date(694224000000)/`, or `/Date(ms+0000)/` with `offset`. */
export function formatJsonDateText(date: Date, offset: boolean): string {
  // JSON could carry any time value, but no client reads one outside DateTime's range back.
  assertWritableDate(date);
  const ms = date.getTime();
  return offset ? `/Date(${ms}+0000)/` : `/Date(${ms})/`;
}
