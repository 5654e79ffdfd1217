/**
 * Edm.DateTime and Edm.DateTimeOffset values finer than the millisecond a JavaScript `Date` keeps.
 * They exist only where a feed's order is continued: a position (`QueryResult.positionOf`, a
 * decoded `$skiptoken`) and the keyset condition built from it. Payloads, `$filter` literals and
 * entity tags stay at milliseconds (see docs/conformance.md "Timestamps").
 */
import { isWritableTime } from './temporal-text';

/**
 * A date/time order value at the precision its store keeps (microseconds in PostgreSQL): the
 * millisecond a `Date` holds, and the digits after it. Build one with `preciseInstant`.
 */
export interface PreciseInstant {
  /** The value cut to milliseconds toward the past: the `Date` payloads carry and `$filter` compares. */
  readonly date: Date;
  /**
   * The fractional-second digits after the third, as stored: three to six of them (`'456'` of
   * `…00.123456`, `'000'` of `…00.123` in a microsecond column, `'4567'` of a 100 ns tick), no
   * trailing zero past the third.
   */
  readonly subMilliseconds: string;
}

/** Digits past the millisecond a PreciseInstant holds at most: nanoseconds. */
const MAX_SUB_MILLISECOND_DIGITS = 6;

function allDigits(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/**
 * A PreciseInstant of a millisecond `date` (years 0001 to 9999) and the fractional-second digits
 * after it (`'456'` for `.123456` when `date` holds `.123`; fewer than three are read as the
 * leading digits, `'4'` as `'400'`). Throws a TypeError for an invalid date or anything but one to
 * six digits.
 */
export function preciseInstant(date: Date, subMilliseconds: string): PreciseInstant {
  const time = date.getTime();
  if (!isWritableTime(time)) throw new TypeError(`A precise instant needs a valid date in the years 0001..9999, got ${String(date)}.`);
  if (subMilliseconds.length === 0 || subMilliseconds.length > MAX_SUB_MILLISECOND_DIGITS || !allDigits(subMilliseconds)) {
    throw new TypeError(`A precise instant needs 1 to ${MAX_SUB_MILLISECOND_DIGITS} digits after the millisecond, got '${subMilliseconds.slice(0, 20)}'.`);
  }
  let digits = subMilliseconds.padEnd(3, '0');
  while (digits.length > 3 && digits.endsWith('0')) digits = digits.slice(0, -1);
  return Object.freeze({ date: new Date(time), subMilliseconds: digits });
}

/** True for a PreciseInstant (a frozen object with a `Date` and its digits, never a primitive value). */
export function isPreciseInstant(value: unknown): value is PreciseInstant {
  if (typeof value !== 'object' || value === null || value instanceof Date || value instanceof Uint8Array) return false;
  const candidate = value as { readonly date?: unknown; readonly subMilliseconds?: unknown };
  return candidate.date instanceof Date && typeof candidate.subMilliseconds === 'string';
}

/**
 * -1, 0 or 1: two instants by their full values. A `Date` counts as its exact millisecond (no
 * digits after it), so it equals a PreciseInstant of the same millisecond whose digits are zeros.
 */
export function compareInstants(a: Date | PreciseInstant, b: Date | PreciseInstant): number {
  const aTime = a instanceof Date ? a.getTime() : a.date.getTime();
  const bTime = b instanceof Date ? b.getTime() : b.date.getTime();
  if (aTime !== bTime) return aTime < bTime ? -1 : 1;
  const aDigits = a instanceof Date ? '' : a.subMilliseconds;
  const bDigits = b instanceof Date ? '' : b.subMilliseconds;
  const width = Math.max(aDigits.length, bDigits.length);
  const left = aDigits.padEnd(width, '0');
  const right = bDigits.padEnd(width, '0');
  return left < right ? -1 : left > right ? 1 : 0;
}
