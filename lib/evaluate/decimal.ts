/**
 * Exact decimal arithmetic for Edm.Decimal (and Edm.Int64 mixed with it): a value is a bigint
 * mantissa and a count of fractional digits. Never a JS number: a double keeps only ~15 digits
 * (`0.1 + 0.2 !== 0.3`), and the EDM table says Decimal values stay exact end to end.
 */

/** `digits × 10^-scale`; `scale` is never negative. */
export interface ExactDecimal {
  readonly digits: bigint;
  readonly scale: number;
}

/** Fractional digits kept by `divideDecimal`: .NET's System.Decimal keeps 28. */
const DIVISION_SCALE = 28;

/** Longest exponent accepted by `parseDecimal`; bounds the bigint work a hostile text can cause. */
const MAX_EXPONENT = 400;

const ZERO_CODE = 48;
const NINE_CODE = 57;
const POWERS: bigint[] = [1n];

/** 10^n as a bigint, memoised for the small exponents used again and again. */
function powerOfTen(n: number): bigint {
  if (n < 64) {
    for (let i = POWERS.length; i <= n; i++) POWERS.push(POWERS[i - 1] * 10n);
    return POWERS[n];
  }
  return 10n ** BigInt(n);
}

/**
 * Read `[+|-]digits[.digits][(e|E)[+|-]digits]` (the Decimal and Int64 JS forms, and the text of a
 * double); undefined for anything else. One pass, no regex.
 */
export function parseDecimal(text: string): ExactDecimal | undefined {
  let i = 0;
  const n = text.length;
  let negative = false;
  if (i < n && (text.charCodeAt(i) === 45 || text.charCodeAt(i) === 43)) {
    negative = text.charCodeAt(i) === 45;
    i++;
  }
  const intStart = i;
  while (i < n && isDigit(text.charCodeAt(i))) i++;
  const intDigits = text.slice(intStart, i);
  let fraction = '';
  if (i < n && text.charCodeAt(i) === 46) {
    i++;
    const fracStart = i;
    while (i < n && isDigit(text.charCodeAt(i))) i++;
    fraction = text.slice(fracStart, i);
  }
  if (intDigits.length === 0 && fraction.length === 0) return undefined;
  let exponent = 0;
  if (i < n && (text.charCodeAt(i) === 101 || text.charCodeAt(i) === 69)) {
    i++;
    let expNegative = false;
    if (i < n && (text.charCodeAt(i) === 45 || text.charCodeAt(i) === 43)) {
      expNegative = text.charCodeAt(i) === 45;
      i++;
    }
    const expStart = i;
    while (i < n && isDigit(text.charCodeAt(i))) i++;
    if (i === expStart || i - expStart > 4) return undefined;
    exponent = Number(text.slice(expStart, i)) * (expNegative ? -1 : 1);
    if (Math.abs(exponent) > MAX_EXPONENT) return undefined;
  }
  if (i !== n) return undefined;
  let digits = BigInt((intDigits || '0') + fraction);
  if (negative) digits = -digits;
  let scale = fraction.length - exponent;
  if (scale < 0) {
    digits *= powerOfTen(-scale);
    scale = 0;
  }
  return normalizeDecimal({ digits, scale });
}

/**
 * The double of a short decimal: a text of the `parseDecimal` form without exponent, or a finite
 * number, with at most 15 digits in all. Such decimals keep their order and equality as doubles (a
 * double holds any 15 significant digits: DBL_DIG), so comparisons can skip the BigInt parse.
 * Undefined for anything longer or of another form: use the exact path.
 */
export function shortDecimalNumber(value: unknown): number | undefined {
  if (typeof value === 'number') {
    // A double stands for the decimal of its shortest round-trip text (see decimalFromNumber).
    if (Number.isInteger(value) && value > -1e15 && value < 1e15) return value;
    return Number.isFinite(value) && shortDecimalNumber(String(value)) !== undefined ? value : undefined;
  }
  if (typeof value !== 'string') return undefined;
  const n = value.length;
  if (n === 0 || n > 17) return undefined;
  const sign = value.charCodeAt(0);
  let i = sign === 45 || sign === 43 ? 1 : 0;
  // The digits as an integer (below 10^15, so exact) and the count after the point: one division
  // by an exact power of ten is correctly rounded, so it equals Number(value) (Clinger's fast path).
  let mantissa = 0;
  let digits = 0;
  let scale = -1;
  for (; i < n; i++) {
    const code = value.charCodeAt(i);
    if (isDigit(code)) {
      mantissa = mantissa * 10 + (code - ZERO_CODE);
      digits++;
      if (scale >= 0) scale++;
    } else if (code === 46 && scale < 0) scale = 0;
    else return undefined;
  }
  if (digits === 0 || digits > 15) return undefined;
  const magnitude = scale > 0 ? mantissa / EXACT_POWERS[scale] : mantissa;
  return sign === 45 ? -magnitude : magnitude;
}

/** 10^0 ... 10^15 as doubles: every one is exact. */
const EXACT_POWERS: readonly number[] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

function isDigit(code: number): boolean {
  return code >= ZERO_CODE && code <= NINE_CODE;
}

/** Drop trailing fractional zeros, so equal values have equal forms. */
function normalizeDecimal(value: ExactDecimal): ExactDecimal {
  let { digits, scale } = value;
  while (scale > 0 && digits % 10n === 0n) {
    digits /= 10n;
    scale--;
  }
  return digits === value.digits ? value : { digits, scale };
}

/** The canonical text: no exponent, no trailing fractional zeros (`"2.5"`, `"-0.001"`, `"0"`). */
export function formatDecimal(value: ExactDecimal): string {
  const { digits, scale } = normalizeDecimal(value);
  if (scale === 0) return digits.toString();
  const negative = digits < 0n;
  const text = (negative ? -digits : digits).toString().padStart(scale + 1, '0');
  const cut = text.length - scale;
  return (negative ? '-' : '') + text.slice(0, cut) + '.' + text.slice(cut);
}

/** An exact decimal from a bigint (Int64) or an integer number. */
export function decimalFromInteger(value: bigint | number): ExactDecimal {
  return { digits: typeof value === 'bigint' ? value : BigInt(value), scale: 0 };
}

/**
 * The decimal a double stands for, from its shortest round-trip text (`0.1` -> `0.1`, not
 * `0.1000000000000000055...`), as .NET's Convert.ToDecimal(double) does; undefined for NaN and ±∞.
 */
export function decimalFromNumber(value: number): ExactDecimal | undefined {
  if (!Number.isFinite(value)) return undefined;
  return parseDecimal(String(value));
}

function align(a: ExactDecimal, b: ExactDecimal): [bigint, bigint, number] {
  if (a.scale === b.scale) return [a.digits, b.digits, a.scale];
  if (a.scale > b.scale) return [a.digits, b.digits * powerOfTen(a.scale - b.scale), a.scale];
  return [a.digits * powerOfTen(b.scale - a.scale), b.digits, b.scale];
}

/** -1, 0 or 1. */
export function compareDecimal(a: ExactDecimal, b: ExactDecimal): number {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function addDecimal(a: ExactDecimal, b: ExactDecimal): ExactDecimal {
  const [x, y, scale] = align(a, b);
  return normalizeDecimal({ digits: x + y, scale });
}

export function subtractDecimal(a: ExactDecimal, b: ExactDecimal): ExactDecimal {
  const [x, y, scale] = align(a, b);
  return normalizeDecimal({ digits: x - y, scale });
}

export function multiplyDecimal(a: ExactDecimal, b: ExactDecimal): ExactDecimal {
  return normalizeDecimal({ digits: a.digits * b.digits, scale: a.scale + b.scale });
}

export function negateDecimal(a: ExactDecimal): ExactDecimal {
  return { digits: -a.digits, scale: a.scale };
}

/**
 * `a / b` rounded half away from zero to `scale` fractional digits (28 by default, as .NET keeps);
 * undefined when `b` is zero.
 */
export function divideDecimal(a: ExactDecimal, b: ExactDecimal, scale = DIVISION_SCALE): ExactDecimal | undefined {
  if (b.digits === 0n) return undefined;
  // a/b = (a.d / 10^a.s) / (b.d / 10^b.s); scaled by 10^scale: a.d * 10^(scale + b.s - a.s) / b.d.
  const shift = scale + b.scale - a.scale;
  let numerator = a.digits;
  let denominator = b.digits;
  if (shift >= 0) numerator *= powerOfTen(shift);
  else denominator *= powerOfTen(-shift);
  return normalizeDecimal({ digits: roundedQuotient(numerator, denominator), scale });
}

/** Integer quotient rounded half away from zero. */
function roundedQuotient(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  if (remainder === 0n) return quotient;
  const twice = (remainder < 0n ? -remainder : remainder) * 2n;
  const absDenominator = denominator < 0n ? -denominator : denominator;
  if (twice < absDenominator) return quotient;
  return numerator < 0n !== denominator < 0n ? quotient - 1n : quotient + 1n;
}

/** `a mod b` with the sign of `a` (.NET `%` on decimal); undefined when `b` is zero. */
export function moduloDecimal(a: ExactDecimal, b: ExactDecimal): ExactDecimal | undefined {
  if (b.digits === 0n) return undefined;
  const [x, y, scale] = align(a, b);
  return normalizeDecimal({ digits: x % y, scale });
}

/** Largest integer not above `a`. */
export function floorDecimal(a: ExactDecimal): ExactDecimal {
  if (a.scale === 0) return a;
  const unit = powerOfTen(a.scale);
  const truncated = a.digits / unit;
  return { digits: a.digits < 0n && a.digits % unit !== 0n ? truncated - 1n : truncated, scale: 0 };
}

/** Smallest integer not below `a`. */
export function ceilingDecimal(a: ExactDecimal): ExactDecimal {
  if (a.scale === 0) return a;
  const unit = powerOfTen(a.scale);
  const truncated = a.digits / unit;
  return { digits: a.digits > 0n && a.digits % unit !== 0n ? truncated + 1n : truncated, scale: 0 };
}

/** Nearest integer, midpoints away from zero (`2.5` -> `3`, `-2.5` -> `-3`). */
export function roundDecimal(a: ExactDecimal): ExactDecimal {
  if (a.scale === 0) return a;
  return { digits: roundedQuotient(a.digits, powerOfTen(a.scale)), scale: 0 };
}

/** The integer part (toward zero) as a bigint. */
export function truncateDecimal(a: ExactDecimal): bigint {
  return a.scale === 0 ? a.digits : a.digits / powerOfTen(a.scale);
}
