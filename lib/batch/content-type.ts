/**
 * Media types for `$batch`: the outer `Content-Type: multipart/mixed; boundary=...` and the
 * Content-Type of each MIME part. One pass over the text with character tables, no regexes.
 */
import { ErrorCode, ODataError } from '../errors';

/** A parsed media type: lower-case type and subtype, parameters by lower-case name. */
export interface MediaType {
  /** `type/subtype`, lower case. */
  readonly essence: string;
  readonly parameters: ReadonlyMap<string, string>;
}

// tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA  (RFC 7230 §3.2.6)
const TCHAR = table("!#$%&'*+-.^_`|~", true);
// bcharsnospace = DIGIT / ALPHA / "'" / "(" / ")" / "+" / "_" / "," / "-" / "." / "/" / ":" / "=" / "?"  (RFC 2046 §5.1.1)
const BCHAR_NOSPACE = table("'()+_,-./:=?", true);
// Unquoted parameter values: tokens, widened to every boundary character, because clients send
// `boundary=batch(36522ad7-...)` unquoted although RFC 2046 asks for quotes.
const UNQUOTED_VALUE = mergeTables(TCHAR, BCHAR_NOSPACE);

function table(extra: string, alnum: boolean): Uint8Array {
  const t = new Uint8Array(128);
  for (const ch of extra) t[ch.charCodeAt(0)] = 1;
  if (alnum) {
    for (let c = 0x30; c <= 0x39; c++) t[c] = 1;
    for (let c = 0x41; c <= 0x5a; c++) t[c] = 1;
    for (let c = 0x61; c <= 0x7a; c++) t[c] = 1;
  }
  return t;
}

function mergeTables(a: Uint8Array, b: Uint8Array): Uint8Array {
  return a.map((value, index) => value | b[index]);
}

function isIn(t: Uint8Array, code: number): boolean {
  return code < 128 && t[code] === 1;
}

/** Whether a character code is a token character (RFC 7230 §3.2.6). */
export function isTokenChar(code: number): boolean {
  return isIn(TCHAR, code);
}

/**
 * boundary := 0*69<bchars> bcharsnospace; bchars := bcharsnospace / " "   (RFC 2046 §5.1.1)
 * (at least one character: an empty boundary cannot delimit anything).
 */
export function isValidBoundary(boundary: string): boolean {
  if (boundary.length < 1 || boundary.length > 70) return false;
  for (let i = 0; i < boundary.length; i++) {
    const code = boundary.charCodeAt(i);
    if (!(isIn(BCHAR_NOSPACE, code) || (code === 0x20 && i < boundary.length - 1))) return false;
  }
  return true;
}

/**
 * media-type    = type "/" subtype *( OWS ";" OWS parameter )        RFC 7231 §3.1.1.1
 * parameter     = token "=" ( token / quoted-string )
 * quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE             RFC 7230 §3.2.6
 * quoted-pair   = "\" ( HTAB / SP / VCHAR / obs-text )
 * Type, subtype and parameter names are case-insensitive; empty `;` segments are skipped.
 * Throws `code` with a detail naming the problem and its position.
 */
export function parseMediaType(text: string, code: ErrorCode): MediaType {
  const fail = (detail: string, at: number): never => {
    throw ODataError.fromCode(code, { detail: `${detail} at position ${at} in '${text}'` }, { target: 'Content-Type', position: at });
  };
  let pos = skipWhitespace(text, 0);
  const typeStart = pos;
  while (pos < text.length && isTokenChar(text.charCodeAt(pos))) pos++;
  if (pos === typeStart) fail('expected a media type', pos);
  if (text[pos] !== '/') fail("expected '/' after the type", pos);
  const subtypeStart = ++pos;
  while (pos < text.length && isTokenChar(text.charCodeAt(pos))) pos++;
  if (pos === subtypeStart) fail('expected a subtype', pos);
  const essence = text.slice(typeStart, pos).toLowerCase();
  const parameters = new Map<string, string>();
  for (;;) {
    pos = skipWhitespace(text, pos);
    if (pos >= text.length) break;
    if (text[pos] !== ';') fail("expected ';' before a parameter", pos);
    pos = skipWhitespace(text, pos + 1);
    if (pos >= text.length || text[pos] === ';') continue;
    const nameStart = pos;
    while (pos < text.length && isTokenChar(text.charCodeAt(pos))) pos++;
    if (pos === nameStart) fail('expected a parameter name', pos);
    const name = text.slice(nameStart, pos).toLowerCase();
    if (text[pos] !== '=') fail(`expected '=' after the parameter '${name}'`, pos);
    pos++;
    let value: string;
    if (text[pos] === '"') {
      [value, pos] = readQuotedString(text, pos, fail);
    } else {
      const valueStart = pos;
      while (pos < text.length && isIn(UNQUOTED_VALUE, text.charCodeAt(pos))) pos++;
      if (pos === valueStart) fail(`expected a value for the parameter '${name}'`, pos);
      value = text.slice(valueStart, pos);
    }
    // Two boundaries would make the body ambiguous; refuse rather than pick one.
    if (parameters.has(name)) fail(`the parameter '${name}' is given twice`, nameStart);
    parameters.set(name, value);
  }
  return { essence, parameters };
}

function readQuotedString(text: string, start: number, fail: (detail: string, at: number) => never): [string, number] {
  let value = '';
  let pos = start + 1;
  while (pos < text.length) {
    const code = text.charCodeAt(pos);
    if (code === 0x22) return [value, pos + 1];
    if (code === 0x5c) {
      if (pos + 1 >= text.length) break;
      const escaped = text.charCodeAt(pos + 1);
      if (!isQuotedPairChar(escaped)) fail('bad escape in a quoted string', pos);
      value += text[pos + 1];
      pos += 2;
      continue;
    }
    // qdtext = HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text
    if (!(code === 0x09 || code === 0x20 || code === 0x21 || (code >= 0x23 && code <= 0x7e) || (code >= 0x80 && code <= 0xff))) {
      fail('bad character in a quoted string', pos);
    }
    value += text[pos];
    pos++;
  }
  return fail('unterminated quoted string', start);
}

function isQuotedPairChar(code: number): boolean {
  return code === 0x09 || (code >= 0x20 && code <= 0x7e) || (code >= 0x80 && code <= 0xff);
}

function skipWhitespace(text: string, pos: number): number {
  while (pos < text.length && (text[pos] === ' ' || text[pos] === '\t')) pos++;
  return pos;
}

/**
 * The boundary of a `multipart/mixed` Content-Type (MS-ODATA §2.2.7.6: a batch MUST be sent as
 * multipart/mixed with a boundary). Anything else throws `code` (BATCH_CONTENT_TYPE for the outer
 * request, BATCH_SYNTAX for a changeset part).
 */
export function parseMultipartBoundary(contentType: string | undefined, code: ErrorCode): string {
  if (contentType === undefined || contentType.trim() === '') {
    throw ODataError.fromCode(code, { detail: 'the Content-Type header is missing' }, { target: 'Content-Type' });
  }
  const mediaType = parseMediaType(contentType, code);
  if (mediaType.essence !== 'multipart/mixed') {
    throw ODataError.fromCode(code, { detail: `got '${mediaType.essence}', expected 'multipart/mixed'` }, { target: 'Content-Type' });
  }
  const boundary = mediaType.parameters.get('boundary');
  if (boundary === undefined) {
    throw ODataError.fromCode(code, { detail: `the boundary parameter is missing in '${contentType}'` }, { target: 'Content-Type' });
  }
  if (!isValidBoundary(boundary)) {
    throw ODataError.fromCode(
      code,
      { detail: `the boundary '${boundary}' is not valid (RFC 2046 §5.1.1: 1 to 70 letters, digits or '()+_,-./:=? characters, no trailing space)` },
      { target: 'Content-Type' },
    );
  }
  return boundary;
}
