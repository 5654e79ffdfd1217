/**
 * Plain code the cases compute their expectations with, independent of the library's evaluator:
 * exact decimals as scaled bigints, instants of ISO 8601 text as bigint ticks (100 ns, room for
 * microseconds), the verbose-JSON forms of stored values, and the reference ordering (nulls first
 * ascending, last descending, ties by key).
 */

/** An exact decimal: `units / 10^scale`. */
interface ExactDecimal {
  readonly units: bigint;
  readonly scale: number;
}

const DECIMAL_TEXT = /^([+-]?)(\d+)(?:\.(\d+))?$/;

/** Read decimal text (`-12.50`). */
function decimal(text: string): ExactDecimal {
  const match = DECIMAL_TEXT.exec(text);
  if (match === null) throw new TypeError(`not decimal text: ${text}`);
  const fraction = match[3] ?? '';
  const units = BigInt(match[2] + fraction);
  return { units: match[1] === '-' ? -units : units, scale: fraction.length };
}

function rescale(value: ExactDecimal, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}

/** -1, 0 or 1 as `a` is below, equal to or above `b`. */
export function compareDecimal(a: string, b: string): number {
  const left = decimal(a);
  const right = decimal(b);
  const scale = Math.max(left.scale, right.scale);
  const difference = rescale(left, scale) - rescale(right, scale);
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}

/** `a + b`, `a - b` or `a * b` as canonical decimal text. */
export function decimalArithmetic(a: string, operator: 'add' | 'sub' | 'mul', b: string): string {
  const left = decimal(a);
  const right = decimal(b);
  if (operator === 'mul') return decimalText({ units: left.units * right.units, scale: left.scale + right.scale });
  const scale = Math.max(left.scale, right.scale);
  const units = operator === 'add' ? rescale(left, scale) + rescale(right, scale) : rescale(left, scale) - rescale(right, scale);
  return decimalText({ units, scale });
}

/** Canonical text: no trailing fractional zeros, no `-0`. */
function decimalText(value: ExactDecimal): string {
  const negative = value.units < 0n;
  let digits = (negative ? -value.units : value.units).toString().padStart(value.scale + 1, '0');
  let scale = value.scale;
  while (scale > 0 && digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    scale--;
  }
  const whole = digits.slice(0, digits.length - scale);
  const text = scale === 0 ? whole : `${whole}.${digits.slice(digits.length - scale)}`;
  return negative && /[1-9]/.test(text) ? `-${text}` : text;
}

const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?(Z|[+-]\d{2}:\d{2})?$/;

/** The instant of ISO 8601 text (no offset means UTC) in 100 ns ticks since 1970; exact to 7 fractional digits. */
export function ticks(iso: string): bigint {
  const match = ISO_INSTANT.exec(iso);
  if (match === null) throw new TypeError(`not an ISO 8601 date/time: ${iso}`);
  const [, year, month, day, hour, minute, second = '0', fraction = '', zone = 'Z'] = match;
  const date = new Date(0);
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  date.setUTCHours(Number(hour), Number(minute), Number(second), 0);
  let offsetMinutes = 0;
  if (zone !== 'Z') offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  return BigInt(date.getTime() - offsetMinutes * 60_000) * 10_000n + BigInt(fraction.padEnd(7, '0'));
}

const DURATION = /^(-)?P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:\.(\d{1,7}))?S)?)?$/;

/** An Edm.Time (xs:duration of days, hours, minutes and seconds) in 100 ns ticks. */
export function durationTicks(text: string): bigint {
  const match = DURATION.exec(text);
  if (match === null) throw new TypeError(`not an xs:duration of days to seconds: ${text}`);
  const [, sign, days = '0', hours = '0', minutes = '0', seconds = '0', fraction = ''] = match;
  const total = ((BigInt(days) * 24n + BigInt(hours)) * 60n + BigInt(minutes)) * 60n + BigInt(seconds);
  const value = total * 10_000_000n + BigInt(fraction.padEnd(7, '0'));
  return sign === '-' ? -value : value;
}

/** Base64 bytes as lower-case hex, which sorts like the bytes. */
export function base64Hex(text: string): string {
  return Buffer.from(text, 'base64').toString('hex');
}

/** Milliseconds since 1970 of ISO 8601 text (its instant, truncated to the millisecond). */
export function milliseconds(iso: string): number {
  const tick = ticks(iso);
  const ms = tick / 10_000n;
  return Number(tick < 0n && ms * 10_000n !== tick ? ms - 1n : ms);
}

/** The UTC date of ISO 8601 text, to read its components. */
export function utcDate(iso: string): Date {
  return new Date(milliseconds(iso));
}

/** The verbose-JSON form of an Edm.DateTime (`/Date(ms)/`) or Edm.DateTimeOffset (`/Date(ms+0000)/`). */
export function jsonDate(iso: string, withOffset: boolean): string {
  return `/Date(${milliseconds(iso)}${withOffset ? '+0000' : ''})/`;
}

/** A value the reference ordering compares: numbers, bigints (Int64, ticks, scaled decimals), strings, Booleans. */
export type Comparable = number | bigint | string | boolean;

/** Decimal text as a bigint that sorts like it (scaled to 30 fractional digits). */
export function decimalKey(text: string): bigint {
  return rescale(decimal(text), 30);
}

/** One item of a reference ordering: the value of a row, and the direction. */
export interface SortKey<R> {
  readonly value: (row: R) => Comparable | null;
  readonly descending?: boolean;
}

function compareComparable(a: Comparable, b: Comparable): number {
  // Strings compare by UTF-16 code units, as JS '<' does; Booleans false before true.
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

function compareKeys(a: readonly Comparable[], b: readonly Comparable[]): number {
  for (let i = 0; i < a.length; i++) {
    const order = compareComparable(a[i], b[i]);
    if (order !== 0) return order;
  }
  return 0;
}

/**
 * Sort `rows` by `keys`, then by `keyOf` (the entity key's values) ascending. Nulls sort first ascending and last
 * descending; `nullsFlipped` puts them the other way round (what a broken store does), to tell
 * that fault from others.
 */
export function sortRows<R>(rows: readonly R[], keys: readonly SortKey<R>[], keyOf: (row: R) => readonly Comparable[], nullsFlipped = false): R[] {
  return [...rows].sort((a, b) => {
    for (const key of keys) {
      const left = key.value(a);
      const right = key.value(b);
      let order: number;
      if (left === null || right === null) order = left === right ? 0 : (left === null ? -1 : 1) * (nullsFlipped ? -1 : 1);
      else order = compareComparable(left, right);
      if (order !== 0) return key.descending ? -order : order;
    }
    return compareKeys(keyOf(a), keyOf(b));
  });
}
