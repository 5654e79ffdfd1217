/**
 * Media types: one grammar for every header that carries them, Content-Type (RFC 9110 §8.3.1),
 * Accept (§12.5.1) and Accept-Charset (§12.5.2). One pass over the text with character tables, no
 * regexes. Callers choose what a malformed piece costs: `parseMediaType` refuses it with its position
 * (`$batch`), `readContentType` passes over a malformed parameter (request bodies), and the list
 * readers skip a malformed element (Accept, Accept-Charset), as browsers and most servers do.
 */
import { type ErrorCode, ODataError } from '../errors';
import { memoByText } from '../util';

/** A media type: lower-case `type/subtype`, parameters by lower-case name (values unquoted, case kept). */
interface MediaType {
  /** `type/subtype`, lower case. */
  readonly essence: string;
  readonly parameters: ReadonlyMap<string, string>;
}

/** One element of an Accept header. */
export interface MediaRange {
  /** Lower case; `*` for a wildcard. */
  readonly type: string;
  readonly subtype: string;
  /** Media-type parameters before `q`, names and values lower case. */
  readonly parameters: ReadonlyMap<string, string>;
  /** Quality, 0..1 (default 1). */
  readonly q: number;
}

/** One element of an Accept-Charset header. */
interface CharsetRange {
  /** Lower case; `*` for any charset. */
  readonly charset: string;
  /** Quality, 0..1 (default 1). */
  readonly q: number;
}

// tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA  (RFC 9110 §5.6.2)
const TCHAR = table("!#$%&'*+-.^_`|~");
// bcharsnospace = DIGIT / ALPHA / "'" / "(" / ")" / "+" / "_" / "," / "-" / "." / "/" / ":" / "=" / "?"  (RFC 2046 §5.1.1)
const BCHAR_NOSPACE = table("'()+_,-./:=?");
// Unquoted parameter values: tokens, widened to every boundary character, because clients send
// `boundary=batch(36522ad7-...)` unquoted although RFC 2046 asks for quotes. A list element is cut
// at its commas before it is read, so the comma among them cannot run into the next element.
const UNQUOTED_VALUE = TCHAR.map((value, index) => value | BCHAR_NOSPACE[index]);

const TAB = 0x09;
const SPACE = 0x20;
const DQUOTE = 0x22;
const COMMA = 0x2c;
const SLASH = 0x2f;
const SEMICOLON = 0x3b;
const EQUALS = 0x3d;
const BACKSLASH = 0x5c;

function table(extra: string): Uint8Array {
  const t = new Uint8Array(128);
  for (const ch of extra) t[ch.charCodeAt(0)] = 1;
  for (let c = 0x30; c <= 0x39; c++) t[c] = 1;
  for (let c = 0x41; c <= 0x5a; c++) t[c] = 1;
  for (let c = 0x61; c <= 0x7a; c++) t[c] = 1;
  return t;
}

function isIn(t: Uint8Array, code: number): boolean {
  return code < 128 && t[code] === 1;
}

/** Whether a character code is a token character (RFC 9110 §5.6.2 tchar). */
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
    if (!(isIn(BCHAR_NOSPACE, code) || (code === SPACE && i < boundary.length - 1))) return false;
  }
  return true;
}

/** Why a piece of the grammar does not parse, and where. */
interface Fault {
  readonly fault: string;
  readonly at: number;
}

function fault(detail: string, at: number): Fault {
  return { fault: detail, at };
}

function isFault(value: object): value is Fault {
  return 'fault' in value;
}

// OWS = *( SP / HTAB )   (RFC 9110 §5.6.3)
function skipWhitespace(text: string, pos: number, end: number): number {
  while (pos < end && (text.charCodeAt(pos) === SPACE || text.charCodeAt(pos) === TAB)) pos++;
  return pos;
}

function skipToken(text: string, pos: number, end: number): number {
  while (pos < end && isIn(TCHAR, text.charCodeAt(pos))) pos++;
  return pos;
}

/** The next `delimiter` at or after `pos` outside a quoted string, or `end`: where a reader that skips a malformed piece picks up again. */
function nextDelimiter(text: string, pos: number, end: number, delimiter: number): number {
  let quoted = false;
  for (; pos < end; pos++) {
    const code = text.charCodeAt(pos);
    if (quoted) {
      if (code === BACKSLASH) pos++;
      else if (code === DQUOTE) quoted = false;
    } else if (code === DQUOTE) quoted = true;
    else if (code === delimiter) return pos;
  }
  return end;
}

/**
 * quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE          (RFC 9110 §5.6.4)
 * qdtext        = HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text
 * quoted-pair   = "\" ( HTAB / SP / VCHAR / obs-text )
 * `start` is at the opening quote; the value comes back without quotes and escapes.
 */
function readQuotedString(text: string, start: number, end: number): { readonly value: string; readonly next: number } | Fault {
  let value = '';
  let pos = start + 1;
  while (pos < end) {
    const code = text.charCodeAt(pos);
    if (code === DQUOTE) return { value, next: pos + 1 };
    if (code === BACKSLASH) {
      if (pos + 1 >= end) break;
      if (!isQuotedPairChar(text.charCodeAt(pos + 1))) return fault('bad escape in a quoted string', pos);
      value += text[pos + 1];
      pos += 2;
      continue;
    }
    if (!(code === TAB || code === SPACE || code === 0x21 || (code >= 0x23 && code <= 0x7e) || (code >= 0x80 && code <= 0xff))) {
      return fault('bad character in a quoted string', pos);
    }
    value += text[pos];
    pos++;
  }
  return fault('unterminated quoted string', start);
}

function isQuotedPairChar(code: number): boolean {
  return code === TAB || (code >= SPACE && code <= 0x7e) || (code >= 0x80 && code <= 0xff);
}

/** A parameter: lower-case name, value without quotes, where its name starts and where it ends. */
interface Parameter {
  readonly name: string;
  readonly value: string;
  readonly at: number;
  readonly next: number;
}

/**
 * parameter       = parameter-name "=" parameter-value              (RFC 9110 §5.6.6)
 * parameter-name  = token
 * parameter-value = ( token / quoted-string )
 */
function readParameter(text: string, pos: number, end: number): Parameter | Fault {
  const at = pos;
  pos = skipToken(text, pos, end);
  if (pos === at) return fault('expected a parameter name', pos);
  const name = text.slice(at, pos).toLowerCase();
  if (pos >= end || text.charCodeAt(pos) !== EQUALS) return fault(`expected '=' after the parameter '${name}'`, pos);
  pos++;
  if (pos < end && text.charCodeAt(pos) === DQUOTE) {
    const quoted = readQuotedString(text, pos, end);
    return isFault(quoted) ? quoted : { name, value: quoted.value, at, next: quoted.next };
  }
  const valueStart = pos;
  while (pos < end && isIn(UNQUOTED_VALUE, text.charCodeAt(pos))) pos++;
  if (pos === valueStart) return fault(`expected a value for the parameter '${name}'`, pos);
  return { name, value: text.slice(valueStart, pos), at, next: pos };
}

/**
 * parameters = *( OWS ";" OWS [ parameter ] )                       (RFC 9110 §5.6.6)
 * Reads from `pos` to `end` and hands each parameter to `visit`, which answers whether to go on
 * (or a fault). Empty `;` segments are skipped. When `skipMalformed`, a malformed parameter is
 * passed over up to the next `;` outside a quoted string instead of ending the read with a fault.
 */
function readParameters(text: string, pos: number, end: number, skipMalformed: boolean, visit: (parameter: Parameter) => boolean | Fault): Fault | undefined {
  pos = skipWhitespace(text, pos, end);
  while (pos < end) {
    if (text.charCodeAt(pos) !== SEMICOLON) {
      if (!skipMalformed) return fault("expected ';' before a parameter", pos);
      pos = nextDelimiter(text, pos, end, SEMICOLON);
      continue;
    }
    pos = skipWhitespace(text, pos + 1, end);
    if (pos >= end || text.charCodeAt(pos) === SEMICOLON) continue;
    const parameter = readParameter(text, pos, end);
    // A parameter is whole only when OWS and then `;` or the end follow it.
    const after = isFault(parameter) ? pos : skipWhitespace(text, parameter.next, end);
    if (isFault(parameter) || (after < end && text.charCodeAt(after) !== SEMICOLON)) {
      if (!skipMalformed) return isFault(parameter) ? parameter : fault("expected ';' before a parameter", after);
      pos = nextDelimiter(text, after, end, SEMICOLON);
      continue;
    }
    const verdict = visit(parameter);
    if (verdict === false) return undefined;
    if (verdict !== true) return verdict;
    pos = after;
  }
  return undefined;
}

/** type "/" subtype, both tokens, lower-cased (RFC 9110 §8.3.1); `pos` after any leading OWS. */
function readEssence(text: string, pos: number, end: number): { readonly type: string; readonly subtype: string; readonly next: number } | Fault {
  const typeStart = pos;
  pos = skipToken(text, pos, end);
  if (pos === typeStart) return fault('expected a media type', pos);
  if (pos >= end || text.charCodeAt(pos) !== SLASH) return fault("expected '/' after the type", pos);
  const subtypeStart = ++pos;
  pos = skipToken(text, pos, end);
  if (pos === subtypeStart) return fault('expected a subtype', pos);
  return { type: text.slice(typeStart, subtypeStart - 1).toLowerCase(), subtype: text.slice(subtypeStart, pos).toLowerCase(), next: pos };
}

/**
 * media-type = type "/" subtype parameters                          (RFC 9110 §8.3.1)
 * Type, subtype and parameter names are case-insensitive. Strict: the first malformed piece is the
 * fault, and a repeated parameter is one (two boundaries would make a body ambiguous). Lenient:
 * malformed parameters are passed over and the first of a repeated one counts.
 */
function scanMediaType(text: string, strict: boolean): MediaType | Fault {
  const essence = readEssence(text, skipWhitespace(text, 0, text.length), text.length);
  if (isFault(essence)) return essence;
  // Whatever follows the subtype must be a parameter, even when malformed parameters are passed over.
  const after = skipWhitespace(text, essence.next, text.length);
  if (after < text.length && text.charCodeAt(after) !== SEMICOLON) return fault("expected ';' before a parameter", after);
  const parameters = new Map<string, string>();
  const failed = readParameters(text, essence.next, text.length, !strict, (parameter) => {
    if (!parameters.has(parameter.name)) parameters.set(parameter.name, parameter.value);
    else if (strict) return fault(`the parameter '${parameter.name}' is given twice`, parameter.at);
    return true;
  });
  return failed ?? { essence: `${essence.type}/${essence.subtype}`, parameters };
}

/**
 * Parse a Content-Type value strictly (see `scanMediaType`), for `$batch` where a wrong reading
 * would split the body wrongly. Throws `code` with a detail naming the problem and its position.
 */
export function parseMediaType(text: string, code: ErrorCode): MediaType {
  const parsed = scanMediaType(text, true);
  if (isFault(parsed)) {
    throw ODataError.fromCode(code, { detail: `${parsed.fault} at position ${parsed.at} in '${text}'` }, { target: 'Content-Type', position: parsed.at });
  }
  return parsed;
}

// Content-Type and Accept texts repeat: each is parsed once (util/text-memo, ~25 ns a lookup instead of ~200 a parse).
const readContentTypeText = memoByText((text: string): MediaType | undefined => {
  const parsed = scanMediaType(text, false);
  return isFault(parsed) ? undefined : Object.freeze(parsed);
});

/**
 * Read the Content-Type of a request body leniently: undefined when absent or when it does not
 * start with `type/subtype` followed by parameters (such a body matches no type we read, so it
 * ends in 415 UNSUPPORTED_MEDIA_TYPE); a malformed parameter is passed over, so
 * `application/json;charset` is still JSON with no charset.
 */
export function readContentType(value: string | undefined): MediaType | undefined {
  return value === undefined ? undefined : readContentTypeText(value);
}

/** The `type/subtype` of a Content-Type value, lower case; '' when it is absent or unreadable. */
export function mediaTypeOf(contentType: string | undefined): string {
  return readContentType(contentType)?.essence ?? '';
}

/** The `charset` parameter of a Content-Type value, lower case, or undefined. */
export function charsetOf(contentType: string | undefined): string | undefined {
  return readContentType(contentType)?.parameters.get('charset')?.toLowerCase();
}

/** Hands each element of a `#rule` list (RFC 9110 §5.6.1: elements separated by commas outside quoted strings) to `read` as a range of `text`. */
function forEachElement(text: string, read: (start: number, end: number) => void): void {
  let start = 0;
  while (start <= text.length) {
    const end = nextDelimiter(text, start, text.length, COMMA);
    read(start, end);
    start = end + 1;
  }
}

/** qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )   (RFC 9110 §12.4.2); undefined otherwise. */
export function parseQuality(text: string): number | undefined {
  const first = text.charCodeAt(0);
  if (text.length > 5 || (first !== 0x30 && first !== 0x31)) return undefined;
  if (text.length === 1) return first - 0x30;
  if (text.charCodeAt(1) !== 0x2e) return undefined;
  for (let i = 2; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (first === 0x31 ? code !== 0x30 : code < 0x30 || code > 0x39) return undefined;
  }
  return Number(text);
}

/**
 * media-range = ( "*\/*" / ( type "/" "*" ) / ( type "/" subtype ) ) parameters   (RFC 9110 §12.5.1)
 * weight      = OWS ";" OWS "q=" qvalue
 * One element of `text` from `start` to `end`, or undefined when it is malformed. The parameters
 * after `q` (accept-ext in RFC 7231) do not select a media type and are not read. Parameter values
 * are lower-cased: the ones negotiation looks at (`odata=verbose`) are case-insensitive.
 */
function readMediaRange(text: string, start: number, end: number): MediaRange | undefined {
  const essence = readEssence(text, skipWhitespace(text, start, end), end);
  if (isFault(essence) || (essence.type === '*' && essence.subtype !== '*')) return undefined;
  const parameters = new Map<string, string>();
  let q = 1;
  const failed = readParameters(text, essence.next, end, false, (parameter) => {
    if (parameter.name !== 'q') {
      parameters.set(parameter.name, parameter.value.toLowerCase());
      return true;
    }
    const quality = parseQuality(parameter.value);
    if (quality === undefined) return fault('bad quality', parameter.at);
    q = quality;
    return false;
  });
  return failed === undefined ? { type: essence.type, subtype: essence.subtype, parameters, q } : undefined;
}

/** One media range standing alone (a `$format` media type), or undefined when the whole text is not one. */
export function parseMediaRange(text: string): MediaRange | undefined {
  return readMediaRange(text, 0, text.length);
}

/**
 * Read an Accept header (RFC 9110 §12.5.1): `Accept = #( media-range [ weight ] )`. Malformed
 * elements are skipped, as browsers and most servers do, rather than failing the request. Parsed
 * once per header text (`$format` values map to three texts).
 */
export const parseAccept: (header: string) => readonly MediaRange[] = memoByText((header) => {
  const ranges: MediaRange[] = [];
  forEachElement(header, (start, end) => {
    if (skipWhitespace(header, start, end) === end) return;
    const range = readMediaRange(header, start, end);
    if (range !== undefined) ranges.push(range);
  });
  return Object.freeze(ranges);
});

/**
 * Read an Accept-Charset header (RFC 9110 §12.5.2): `Accept-Charset = #( ( token / "*" ) [ weight ] )`.
 * Malformed elements are skipped, as in Accept. Parsed once per header text.
 */
export const parseAcceptCharset: (header: string) => readonly CharsetRange[] = memoByText((header) => {
  const ranges: CharsetRange[] = [];
  forEachElement(header, (start, end) => {
    const nameStart = skipWhitespace(header, start, end);
    const nameEnd = skipToken(header, nameStart, end);
    if (nameEnd === nameStart) return;
    let q = 1;
    const failed = readParameters(header, nameEnd, end, false, (parameter) => {
      if (parameter.name !== 'q') return true;
      const quality = parseQuality(parameter.value);
      if (quality === undefined) return fault('bad quality', parameter.at);
      q = quality;
      return false;
    });
    if (failed === undefined) ranges.push({ charset: header.slice(nameStart, nameEnd).toLowerCase(), q });
  });
  return Object.freeze(ranges);
});
