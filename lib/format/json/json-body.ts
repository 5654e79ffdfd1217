/**
 * Verbose JSON request bodies to plain values (RFC 8259), with the nesting bounded before
 * `JSON.parse` runs and the `{"d": ...}` wrapper of MS-ODATA §2.2.6.3 recognised.
 */
import { ODataError } from '../../errors';
import { decodeBodyText } from '../body-text';
import type { ReadContext } from '../entry-body';
import { DEFAULT_MAX_NESTING } from '../entry-body';

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

/** Offset where arrays/objects first nest deeper than `limit`, or -1; one pass, strings skipped. */
function overNesting(text: string, limit: number): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      for (i++; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === BACKSLASH) i++;
        else if (c === QUOTE) break;
      }
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > limit) return i;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--;
    }
  }
  return -1;
}

/** Decode and parse a JSON body: 400 BODY_MISSING, BODY_SYNTAX (with the position), or BODY_INVALID for too deep nesting. */
export function parseJsonBody(body: Buffer | string, context: ReadContext): unknown {
  const text = decodeBodyText(body, context.contentType);
  if (text.trim() === '') throw ODataError.fromCode('BODY_MISSING');
  const limit = context.limits?.maxNesting ?? DEFAULT_MAX_NESTING;
  const deep = overNesting(text, limit);
  if (deep !== -1) {
    throw ODataError.fromCode('BODY_INVALID', { detail: `the JSON is nested deeper than ${limit} levels (at position ${deep}).` }, { position: deep });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'unexpected input';
    const match = /position (\d+)/.exec(reason);
    throw ODataError.fromCode(
      'BODY_SYNTAX',
      { format: 'JSON', detail: reason },
      { position: match === null ? undefined : Number(match[1]), cause: error },
    );
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
