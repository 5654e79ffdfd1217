/**
 * Exact decimal and integer text: the canonical strings that carry Edm.Int64 and Edm.Decimal
 * values (primitives.ts), produced without ever passing through a JS number.
 */

/** Longest digit string a Decimal may expand to; bounds the work an exponent like `1E999999` can cause. */
const MAX_DECIMAL_DIGITS = 400;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * Canonical form of an integer written as `[sign] 1*DIGIT` (no leading zeros, no `+`, `-0` is `0`);
 * undefined when the text is not of that form. `allowPlus` admits a leading `+` (xs:integer does).
 */
export function canonicalInteger(text: string, allowPlus = true): string | undefined {
  let i = 0;
  let negative = false;
  if (text.charCodeAt(0) === 45 /* - */) {
    negative = true;
    i = 1;
  } else if (allowPlus && text.charCodeAt(0) === 43 /* + */) {
    i = 1;
  }
  if (i >= text.length) return undefined;
  let first = -1;
  for (let j = i; j < text.length; j++) {
    const code = text.charCodeAt(j);
    if (!isDigit(code)) return undefined;
    if (first < 0 && code !== 48) first = j;
  }
  if (first < 0) return '0';
  const digits = text.slice(first);
  return negative ? '-' + digits : digits;
}

/**
 * True for the text of a decimal value as providers hold it: `["-"] 1*DIGIT ["." 1*DIGIT]` (no
 * exponent, no `+`). A plain character loop: writers check every Decimal value they write.
 */
export function isDecimalText(text: string): boolean {
  let i = text.charCodeAt(0) === 45 ? 1 : 0;
  const start = i;
  while (i < text.length && isDigit(text.charCodeAt(i))) i++;
  if (i === start) return false;
  if (i === text.length) return true;
  if (text.charCodeAt(i) !== 46) return false;
  const fraction = ++i;
  while (i < text.length && isDigit(text.charCodeAt(i))) i++;
  return i > fraction && i === text.length;
}

/** True when a canonical integer string lies in the Edm.Int64 range. */
export function isInt64(canonical: string): boolean {
  // 20 characters covers "-9223372036854775808"; longer strings cannot be in range.
  if (canonical.length > 20) return false;
  const value = BigInt(canonical);
  return value >= INT64_MIN && value <= INT64_MAX;
}

/**
 * Canonical Edm.Decimal text of `[sign] (digits ["." [digits]] / "." digits) [("e"/"E") [sign] digits]`:
 * no exponent, no leading zeros before the point, no trailing zeros after it, no `.` when the
 * fraction is empty, `0` for every zero. Undefined for anything else, or when the expansion would
 * exceed a few hundred digits. `exponent: false` refuses the exponent part (xs:decimal has none).
 */
export function canonicalDecimal(text: string, exponent = true, allowPlus = true): string | undefined {
  let i = 0;
  let negative = false;
  const first = text.charCodeAt(0);
  if (first === 45) {
    negative = true;
    i = 1;
  } else if (allowPlus && first === 43) {
    i = 1;
  }
  const intStart = i;
  while (i < text.length && isDigit(text.charCodeAt(i))) i++;
  const intDigits = text.slice(intStart, i);
  let fracDigits = '';
  if (text.charCodeAt(i) === 46 /* . */) {
    const fracStart = ++i;
    while (i < text.length && isDigit(text.charCodeAt(i))) i++;
    fracDigits = text.slice(fracStart, i);
  }
  if (intDigits.length === 0 && fracDigits.length === 0) return undefined;
  let shift = 0;
  if (i < text.length && (text.charCodeAt(i) === 69 || text.charCodeAt(i) === 101)) {
    if (!exponent) return undefined;
    const expText = canonicalInteger(text.slice(i + 1));
    if (expText === undefined || expText.length > 6) return undefined;
    shift = Number(expText);
    i = text.length;
  }
  if (i !== text.length) return undefined;
  return normalizeDigits(negative, intDigits, fracDigits, shift);
}

/** Join digits around a point moved `shift` places right, and strip redundant zeros. */
function normalizeDigits(negative: boolean, intDigits: string, fracDigits: string, shift: number): string | undefined {
  let all = intDigits + fracDigits;
  let point = intDigits.length + shift;
  if (point > MAX_DECIMAL_DIGITS || point < -MAX_DECIMAL_DIGITS) {
    // Only zeros may move that far: 0E999999 is still 0.
    return /^0*$/.test(all) ? '0' : undefined;
  }
  if (point < 0) {
    all = '0'.repeat(-point) + all;
    point = 0;
  } else if (point > all.length) {
    all = all + '0'.repeat(point - all.length);
  }
  let intPart = all.slice(0, point).replace(/^0+/, '');
  const fracPart = all.slice(point).replace(/0+$/, '');
  if (intPart.length + fracPart.length > MAX_DECIMAL_DIGITS) return undefined;
  if (intPart === '') intPart = '0';
  const body = fracPart === '' ? intPart : intPart + '.' + fracPart;
  return negative && body !== '0' ? '-' + body : body;
}

/** Digits of a canonical decimal: `precision` significant digits in total, `scale` after the point. */
export function decimalShape(canonical: string): { readonly precision: number; readonly scale: number } {
  const body = canonical.charCodeAt(0) === 45 ? canonical.slice(1) : canonical;
  const point = body.indexOf('.');
  const intPart = point < 0 ? body : body.slice(0, point);
  const scale = point < 0 ? 0 : body.length - point - 1;
  const integerDigits = intPart === '0' ? 0 : intPart.length;
  return { precision: integerDigits + scale, scale };
}

/**
 * Canonical decimal text of a JS number, or undefined for NaN and infinities. Uses the shortest
 * round-trip form (what the sender most likely wrote), then removes the exponent.
 */
export function numberToDecimalText(value: number): string | undefined {
  if (!Number.isFinite(value)) return undefined;
  if (Object.is(value, -0)) return '0';
  return canonicalDecimal(String(value));
}

/** Significant digits in the shortest form of a finite number (17 at most). */
export function significantDigits(value: number): number {
  const text = Math.abs(value).toExponential().split('e')[0];
  return text.replace('.', '').length;
}
