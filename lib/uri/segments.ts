/**
 * The lexical layer of the resource path: split the raw (still percent-encoded) path into
 * segments, decode each one once, and split a decoded segment into its name and its parenthesised
 * part. Offsets always point into the raw path, so errors can name where the problem is.
 * No model lookups here: resource-path.ts gives the segments a meaning.
 */
import { ODataError } from '../errors';
import { textProblem } from '../util';

/** One path segment: decoded text plus where it sits in the raw path. */
export interface PathSegment {
  /** The segment as sent (still percent-encoded). */
  readonly raw: string;
  /** The percent-decoded segment. */
  readonly text: string;
  /** Offset of the segment's first character in the raw path. */
  readonly start: number;
  /** Offset just past the segment's last character in the raw path. */
  readonly end: number;
}

/** A decoded segment split as `name [ "(" predicate ")" ]`. */
interface SegmentParts {
  readonly name: string;
  /** The text between the parentheses (`''` for `()`); undefined when there are none. */
  readonly predicate: string | undefined;
}

const SLASH = 0x2f;
const QUOTE = 0x27;
const PERCENT = 0x25;
const OPEN = 0x28;
const CLOSE = 0x29;

/** True when `raw[i]` starts a quote: `'` itself or its encoding `%27`. Returns its length (0 when none). */
function quoteAt(raw: string, i: number): number {
  const code = raw.charCodeAt(i);
  if (code === QUOTE) return 1;
  if (code === PERCENT && raw.charCodeAt(i + 1) === 0x32 && raw.charCodeAt(i + 2) === 0x37) return 3;
  return 0;
}

/**
 * Percent-decode one URI component (RFC 3986 §2.1, UTF-8 octets). `+` stays `+`: only query
 * strings use the form encoding. Malformed escapes, invalid UTF-8 or a decoded character XML 1.0
 * excludes (`%00`) give 400 URI_PERCENT_ENCODING.
 */
export function percentDecode(text: string): string {
  if (text.indexOf('%') === -1) return text;
  let decoded: string;
  try {
    decoded = decodeURIComponent(text);
  } catch (cause) {
    throw ODataError.fromCode('URI_PERCENT_ENCODING', { text }, { cause });
  }
  // `%00` and the like decode to characters no format can carry back (util/unicode).
  if (textProblem(decoded) !== undefined) throw ODataError.fromCode('URI_PERCENT_ENCODING', { text });
  return decoded;
}

/**
 * Split a raw resource path into decoded segments.
 *
 *   resourcePath = segment *( "/" segment )        ; RFC 3986 §3.3 path-rootless
 *
 * A `/` inside a quoted literal of a parenthesised part (`Products('a/b')`, also with `%27`
 * quotes) does not split: key values may contain slashes that a client left unencoded. One
 * leading `/` and one trailing `/` are ignored; the empty path has no segments.
 */
export function splitPath(path: string): PathSegment[] {
  let begin = path.charCodeAt(0) === SLASH ? 1 : 0;
  let stop = path.length;
  if (stop > begin && path.charCodeAt(stop - 1) === SLASH) stop--;
  const segments: PathSegment[] = [];
  if (stop <= begin) return segments;

  let depth = 0;
  let inQuote = false;
  let i = begin;
  while (i < stop) {
    const code = path.charCodeAt(i);
    if (depth > 0) {
      const quote = quoteAt(path, i);
      if (quote > 0) {
        // A doubled quote ('') closes and reopens: the state ends up unchanged, as it should.
        inQuote = !inQuote;
        i += quote;
        continue;
      }
    }
    if (!inQuote) {
      if (code === OPEN) depth++;
      else if (code === CLOSE && depth > 0) depth--;
      else if (code === SLASH && depth === 0) {
        segments.push(makeSegment(path, begin, i));
        begin = i + 1;
      }
    }
    i++;
  }
  // An unterminated quote or parenthesis ends the segment at the path's end; the key parser
  // reports it with a better message than a splitter could.
  segments.push(makeSegment(path, begin, stop));
  return segments;
}

function makeSegment(path: string, start: number, end: number): PathSegment {
  const raw = path.slice(start, end);
  return { raw, text: percentDecode(raw), start, end };
}

/**
 * Split a decoded segment into its name and parenthesised part.
 *
 *   segment   = name [ "(" predicate ")" ]
 *
 * The first `(` opens the predicate; the segment must end with the matching `)`. An empty
 * segment (`a//b`), text after the `)` (`Products(1)x`) or a `)` without `(` gives 400
 * URI_INVALID_SEGMENT. The predicate is parsed later, by key-predicate.ts.
 */
export function splitSegment(segment: PathSegment): SegmentParts {
  const text = segment.text;
  if (text.length === 0) throw invalidSegment(segment, 'a path segment must not be empty');
  const open = text.indexOf('(');
  if (open === -1) {
    if (text.indexOf(')') !== -1) throw invalidSegment(segment, "')' without a matching '('");
    return { name: text, predicate: undefined };
  }
  if (text.charCodeAt(text.length - 1) !== CLOSE) {
    throw invalidSegment(segment, "the parenthesised part must close with ')' at the end of the segment");
  }
  return { name: text.slice(0, open), predicate: text.slice(open + 1, text.length - 1) };
}

/** 400 URI_INVALID_SEGMENT for a segment, with its position in the raw path. */
export function invalidSegment(segment: PathSegment, detail: string): ODataError {
  return ODataError.fromCode('URI_INVALID_SEGMENT', { segment: segment.text, detail }, { target: segment.text, position: segment.start });
}
