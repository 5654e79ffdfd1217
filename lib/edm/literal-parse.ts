/**
 * URI literals (MS-ODATA §2.2.2 "Abstract Type System"): finding where one ends in a longer text
 * (`scanLiteral`, for the $filter lexer and key predicates) and reading a complete one
 * (`parseLiteral`). Input is already percent-decoded. No type context here: conversions to a
 * declared type live in literal-convert.ts.
 */
import { ODataError } from '../errors';
import { canonicalDecimal, canonicalInteger, isInt64 } from './decimal-text';
import { numberRange, type EdmPrimitiveTypeName, type PrimitiveValue } from './primitives';
import { SINGLE_MAX, canonicalGuid } from './primitive-text';
import { canonicalTime, parseDateTimeText } from './temporal-text';

/** A literal read from a URI: its type (null for `null`) and its value in the JS representation. */
export interface ParsedLiteral {
  readonly type: EdmPrimitiveTypeName | null;
  readonly value: PrimitiveValue | null;
  /**
   * The literal as written. Kept because an unsuffixed `2.5` is an Edm.Double (WCF), yet compared
   * with or bound to an Edm.Decimal it must be read exactly from its digits, not from the double.
   */
  readonly text?: string;
}

const QUOTE = 39;

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** Characters that continue an identifier: a keyword followed by one is not a keyword. */
function isNameChar(code: number): boolean {
  return isLetter(code) || isDigit(code) || code === 95; /* _ */
}

/** Keyword literals, case-sensitive as in WCF (a property may be called `True`). */
const KEYWORDS: ReadonlyMap<string, ParsedLiteral> = new Map<string, ParsedLiteral>([
  ['null', { type: null, value: null }],
  ['true', { type: 'Edm.Boolean', value: true }],
  ['false', { type: 'Edm.Boolean', value: false }],
  ['INF', { type: 'Edm.Double', value: Infinity }],
  ['INFD', { type: 'Edm.Double', value: Infinity }],
  ['INFd', { type: 'Edm.Double', value: Infinity }],
  ['INFF', { type: 'Edm.Single', value: Infinity }],
  ['INFf', { type: 'Edm.Single', value: Infinity }],
  ['NaN', { type: 'Edm.Double', value: NaN }],
  ['NaND', { type: 'Edm.Double', value: NaN }],
  ['NaNd', { type: 'Edm.Double', value: NaN }],
  ['NaNF', { type: 'Edm.Single', value: NaN }],
  ['NaNf', { type: 'Edm.Single', value: NaN }],
]);

/** A prefixed quoted literal: `datetime'...'`, `X'...'` and the like; prefixes are case-insensitive. */
interface PrefixRule {
  readonly type: EdmPrimitiveTypeName;
  readonly parse: (body: string) => PrimitiveValue | undefined;
  readonly expected: string;
}

const HEX_PAIRS = /^(?:[0-9A-Fa-f]{2})*$/;

function parseHex(body: string): Uint8Array | undefined {
  return HEX_PAIRS.test(body) ? new Uint8Array(Buffer.from(body, 'hex')) : undefined;
}

/** A `+` in an offset often arrives as a space (form-decoding); read `...T17:00:00 01:00` as `+01:00`. */
function parseDateTimeOffsetBody(body: string): Date | undefined {
  const direct = parseDateTimeText(body, true);
  if (direct !== undefined || body.charCodeAt(body.length - 6) !== 32) return direct;
  return parseDateTimeText(body.slice(0, -6) + '+' + body.slice(-5), true);
}

const PREFIXES: ReadonlyMap<string, PrefixRule> = new Map<string, PrefixRule>([
  ['x', { type: 'Edm.Binary', parse: parseHex, expected: 'an even number of hex digits' }],
  ['binary', { type: 'Edm.Binary', parse: parseHex, expected: 'an even number of hex digits' }],
  [
    'datetime',
    {
      type: 'Edm.DateTime',
      parse: (body) => parseDateTimeText(body, true),
      expected: 'a valid date and time yyyy-mm-ddThh:mm[:ss[.fffffff]] in the years 0001 to 9999 (UTC)',
    },
  ],
  [
    'datetimeoffset',
    {
      type: 'Edm.DateTimeOffset',
      parse: parseDateTimeOffsetBody,
      expected: 'a valid date and time with offset yyyy-mm-ddThh:mm[:ss[.fffffff]](Z|+hh:mm|-hh:mm) in the years 0001 to 9999 (UTC)',
    },
  ],
  ['guid', { type: 'Edm.Guid', parse: canonicalGuid, expected: 'a GUID dddddddd-dddd-dddd-dddd-dddddddddddd' }],
  ['time', { type: 'Edm.Time', parse: canonicalTime, expected: 'an xs:duration of at most 10675199 days such as PT13H20M' }],
]);

/** End of a quoted part starting at `quote` (after its closing quote; `''` is an escaped quote), or -1. */
function scanQuoted(text: string, quote: number): number {
  let i = quote + 1;
  while (i < text.length) {
    if (text.charCodeAt(i) === QUOTE) {
      if (text.charCodeAt(i + 1) !== QUOTE) return i + 1;
      i += 2;
    } else {
      i++;
    }
  }
  return -1;
}

/**
 * End offset (exclusive) of the literal token starting at `start`, or -1 when no literal starts
 * there. Tokens: a quoted string (`''` escapes), a prefix directly followed by a quoted part
 * (`datetime'...'`, `X'...'`, `binary'`, `guid'`, `time'`, `datetimeoffset'`), a number
 * (`-`? digits, fraction, exponent, then any letters, digits or dots that stick to it, so that
 * `2.5Mx` is one bad token, not two good ones), and the keywords null, true, false, INF, -INF, NaN.
 * An unterminated quote extends to the end of the text, so that `parseLiteral` reports it.
 */
export function scanLiteral(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first === QUOTE) {
    const end = scanQuoted(text, start);
    return end < 0 ? text.length : end;
  }
  if (isDigit(first) || (first === 45 /* - */ && isDigit(text.charCodeAt(start + 1)))) {
    return scanNumber(text, start);
  }
  const wordStart = first === 45 ? start + 1 : start;
  let i = wordStart;
  while (i < text.length && isLetter(text.charCodeAt(i))) i++;
  if (i === wordStart) return -1;
  const word = text.slice(wordStart, i);
  if (first !== 45 && text.charCodeAt(i) === QUOTE && PREFIXES.has(word.toLowerCase())) {
    const end = scanQuoted(text, i);
    return end < 0 ? text.length : end;
  }
  if (isNameChar(text.charCodeAt(i)) || !KEYWORDS.has(word)) return -1;
  // Only the infinities take a minus sign: `-null` is a negation, not a literal.
  if (first === 45 && !word.startsWith('INF')) return -1;
  return i;
}

function scanNumber(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (isNameChar(code) || code === 46 /* . */) {
      i++;
    } else if ((code === 43 || code === 45) && (text.charCodeAt(i - 1) === 69 || text.charCodeAt(i - 1) === 101)) {
      i++; // the sign of an exponent: 1E+10
    } else {
      break;
    }
  }
  return i;
}

function syntaxError(text: string, detail: string): ODataError {
  const shown = text.length > 200 ? text.slice(0, 200) + '...' : text;
  return ODataError.fromCode('URI_LITERAL_SYNTAX', { literal: shown, detail });
}

/**
 * Read one complete URI literal:
 *
 *   literal = nullLiteral / booleanLiteral / stringUriLiteral / numberLiteral / prefixedLiteral
 *   stringUriLiteral = SQUOTE *(SQUOTE SQUOTE / <any char but SQUOTE>) SQUOTE
 *   prefixedLiteral  = ("X" / "binary" / "datetime" / "datetimeoffset" / "guid" / "time") SQUOTE body SQUOTE
 *   numberLiteral    = ["-"] 1*DIGIT ["." 1*DIGIT] [("E"/"e") ["+"/"-"] 1*DIGIT] [suffix] / ["-"] "INF" / "NaN"
 *   suffix           = "L" / "l" / "M" / "m" / "D" / "d" / "F" / "f"
 *
 * (MS-ODATA §2.2.2). Types: `'...'` Edm.String; suffix L Int64, M Decimal, D Double, F Single;
 * an unsuffixed integer is Edm.Int32, or Edm.Int64 beyond its range, or Edm.Decimal beyond that;
 * an unsuffixed number with a fraction or exponent is Edm.Double, as in WCF Data Services
 * (System.Data.Services ExpressionLexer: "Double (digit+ ['.' digit+][e|E [+|-] digit+)").
 * Throws 400 URI_LITERAL_SYNTAX with the literal for anything else, and for values out of range.
 */
export function parseLiteral(text: string): ParsedLiteral {
  const first = text.charCodeAt(0);
  if (first === QUOTE) {
    const end = scanQuoted(text, 0);
    if (end < 0) throw syntaxError(text, 'the closing quote is missing');
    if (end !== text.length) throw syntaxError(text, 'unexpected text after the closing quote');
    return { type: 'Edm.String', value: text.slice(1, -1).replace(/''/g, "'"), text };
  }
  if (isDigit(first) || (first === 45 && isDigit(text.charCodeAt(1)))) return parseNumber(text);
  const keyword = KEYWORDS.get(first === 45 ? text.slice(1) : text);
  if (keyword !== undefined && (first !== 45 || text.startsWith('-INF'))) {
    return first === 45 ? { type: keyword.type, value: -Infinity, text } : { ...keyword, text };
  }
  const quote = text.indexOf("'");
  const rule = quote > 0 ? PREFIXES.get(text.slice(0, quote).toLowerCase()) : undefined;
  if (rule === undefined) {
    throw syntaxError(text, text === '' ? 'the literal is empty' : 'not a literal of any type');
  }
  if (text.length < quote + 2 || text.charCodeAt(text.length - 1) !== QUOTE) {
    throw syntaxError(text, 'the closing quote is missing');
  }
  const body = text.slice(quote + 1, -1);
  const value = body.includes("'") ? undefined : rule.parse(body);
  if (value === undefined) throw syntaxError(text, `expected ${rule.expected}`);
  return { type: rule.type, value, text };
}

/** The number grammar of `parseLiteral` in one static pattern: sign, digits, fraction, exponent, suffix. */
const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?([LlMmDdFf]?)$/;

const INT32 = numberRange('Edm.Int32');

function parseNumber(text: string): ParsedLiteral {
  const match = NUMBER.exec(text);
  if (match === null) throw syntaxError(text, 'not a valid number');
  const [, fraction, exponent, suffix] = match;
  const body = suffix === '' ? text : text.slice(0, -1);
  const integral = fraction === undefined && exponent === undefined;
  switch (suffix) {
    case 'L':
    case 'l': {
      const canonical = integral ? canonicalInteger(body, false) : undefined;
      if (canonical === undefined) throw syntaxError(text, 'an Edm.Int64 literal takes digits only');
      if (!isInt64(canonical)) throw syntaxError(text, 'out of range for Edm.Int64');
      return { type: 'Edm.Int64', value: canonical, text };
    }
    case 'M':
    case 'm': {
      const canonical = canonicalDecimal(body, true, false);
      if (canonical === undefined) throw syntaxError(text, 'out of range for Edm.Decimal');
      return { type: 'Edm.Decimal', value: canonical, text };
    }
    case 'F':
    case 'f':
      return { type: 'Edm.Single', value: floatValue(text, body, SINGLE_MAX, 'Edm.Single'), text };
    case 'D':
    case 'd':
      return { type: 'Edm.Double', value: floatValue(text, body, Number.MAX_VALUE, 'Edm.Double'), text };
    default:
      break;
  }
  if (!integral) return { type: 'Edm.Double', value: floatValue(text, body, Number.MAX_VALUE, 'Edm.Double'), text };
  const canonical = canonicalInteger(body, false) ?? '0';
  if (canonical.length <= 11) {
    const value = Number(canonical);
    if (value >= INT32.min && value <= INT32.max) return { type: 'Edm.Int32', value, text };
  }
  if (isInt64(canonical)) return { type: 'Edm.Int64', value: canonical, text };
  const decimal = canonicalDecimal(canonical, false, false);
  if (decimal === undefined) throw syntaxError(text, 'out of range for Edm.Decimal');
  return { type: 'Edm.Decimal', value: decimal, text };
}

function floatValue(text: string, body: string, max: number, type: string): number {
  const value = Number(body);
  if (!(Math.abs(value) <= max)) throw syntaxError(text, `out of range for ${type}`);
  return value;
}
