/**
 * Verbose JSON request bodies to plain values (RFC 8259), with the nesting, the members per object
 * and the Unicode of strings checked before `JSON.parse` runs, and the `{"d": ...}` wrapper of
 * MS-ODATA §2.2.6.3 recognised.
 */
import { ODataError } from '../../errors';
import { decodeBodyText } from '../body-text';
import type { ReadContext } from '../entry-body';
import { DEFAULT_MAX_NESTING } from '../entry-body';
import { memberLimitOf } from '../structure-limits';
import { describeCaught, isExcludedFromXml, isInstanceOf } from '../../util';

/** A JSON object from a request body. */
export type JsonObject = Readonly<Record<string, unknown>>;

/** Narrow to a JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const LETTER_U = 0x75;
const LETTER_B = 0x62;
const LETTER_F = 0x66;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The code unit of a `\uXXXX` escape whose backslash is at `at`, or -1 when there is none. */
function escapedUnit(text: string, at: number): number {
  if (text.charCodeAt(at) !== BACKSLASH || text.charCodeAt(at + 1) !== LETTER_U) return -1;
  let unit = 0;
  for (let i = at + 2; i < at + 6; i++) {
    const c = text.charCodeAt(i);
    const digit = c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (digit === -1) return -1;
    unit = unit * 16 + digit;
  }
  return unit;
}

/** Why a body is refused before JSON.parse, with the offset where it was seen. */
interface ShapeProblem {
  readonly detail: string;
  readonly position: number;
}

/**
 * One pass over the text before `JSON.parse`, strings skipped: arrays and objects nested deeper
 * than `maxNesting`, an object with more than `maxMembers` members (counted by its commas, so the
 * member past the bound is refused where it starts), and a string holding an unpaired UTF-16
 * surrogate, escaped (`"\ud800"`) or raw (RFC 8259 §8.2: such a string is not Unicode text and
 * cannot be stored, written as UTF-8 or put into a URI). A malformed body is left to JSON.parse.
 */
function shapeProblem(text: string, maxNesting: number, maxMembers: number): ShapeProblem | undefined {
  // Per open container: whether it is an object, and its members so far.
  const isObject: boolean[] = [];
  const members: number[] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      const start = i;
      for (i++; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === QUOTE) break;
        if (c === BACKSLASH) {
          const unit = escapedUnit(text, i);
          if (unit === -1) {
            // `\b` and `\f` stand for U+0008 and U+000C.
            const next = text.charCodeAt(i + 1);
            if (next === LETTER_B || next === LETTER_F) return notText(start, i, next === LETTER_B ? 0x08 : 0x0c);
            i++;
            continue;
          }
          if (isLowSurrogate(unit) || (isHighSurrogate(unit) && !isLowSurrogate(escapedUnit(text, i + 6)))) {
            return notText(start, i, unit);
          }
          if (isExcludedFromXml(unit)) return notText(start, i, unit);
          // A pair is consumed whole: the escape, and for a high surrogate the low one after it.
          i += isHighSurrogate(unit) ? 11 : 5;
        } else if (c >= 0xd800) {
          if (c === 0xfffe || c === 0xffff) return notText(start, i, c);
          if (c > 0xdfff) continue;
          if (!isHighSurrogate(c) || !isLowSurrogate(text.charCodeAt(i + 1))) return notText(start, i, c);
          i++;
        }
      }
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > maxNesting) return { detail: `the JSON is nested deeper than ${maxNesting} levels (at position ${i}).`, position: i };
      isObject[depth] = code === OPEN_BRACE;
      members[depth] = 1;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--;
    } else if (code === COMMA && depth > 0 && isObject[depth] && ++members[depth] > maxMembers) {
      return {
        detail: `a JSON object has more than ${maxMembers} members (at position ${i}), more than any type of the model holds.`,
        position: i,
      };
    }
  }
  return undefined;
}

/** A string holding a code unit that is not text every format can carry (see util/unicode). */
function notText(start: number, at: number, unit: number): ShapeProblem {
  const code = unit.toString(16).toUpperCase().padStart(4, '0');
  const why = unit >= 0xd800 && unit <= 0xdfff ? 'an unpaired UTF-16 surrogate' : 'a character XML 1.0 excludes, which Atom cannot carry';
  return {
    detail: `the JSON string at position ${start} holds U+${code} (at position ${at}), ${why}; text must be valid Unicode that XML can carry.`,
    position: at,
  };
}

/**
 * Decode and parse a JSON body: 400 BODY_MISSING, BODY_SYNTAX (with the position), or BODY_INVALID
 * for too deep nesting, too many members in one object, or an unpaired surrogate in a string.
 */
export function parseJsonBody(body: Buffer | string, context: ReadContext): unknown {
  const text = decodeBodyText(body, context.contentType);
  if (text.trim() === '') throw ODataError.fromCode('BODY_MISSING');
  const problem = shapeProblem(text, context.limits?.maxNesting ?? DEFAULT_MAX_NESTING, memberLimitOf(context));
  if (problem !== undefined) throw ODataError.fromCode('BODY_INVALID', { detail: problem.detail }, { position: problem.position });
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = (isInstanceOf(error, SyntaxError) ? describeCaught(error).message : undefined) ?? 'unexpected input';
    const match = /position (\d+)/.exec(reason);
    throw ODataError.fromCode('BODY_SYNTAX', { format: 'JSON', detail: reason }, { position: match === null ? undefined : Number(match[1]), cause: error });
  }
}

/**
 * The object inside the verbose JSON wrapper `{"d": {...}}` (MS-ODATA §2.2.6.3.1), or the body itself
 * when it has none. `isMember` tells whether `d` is a real member name of the expected payload, in
 * which case a lone `d` is taken as data.
 */
export function unwrapData(value: unknown, isMember: (name: string) => boolean): unknown {
  if (!isJsonObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === 'd' && isJsonObject(value.d) && !isMember('d')) return value.d;
  return value;
}

/** 400 naming what the body should have held. */
export function jsonShapeError(detail: string): ODataError {
  return ODataError.fromCode('BODY_INVALID', { detail });
}
