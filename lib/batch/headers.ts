/**
 * Header blocks inside a batch body: the MIME headers of a part and the header fields of an
 * embedded HTTP request. Lines end with CRLF or a bare LF; bytes are read as ISO-8859-1, as
 * HTTP field values are (RFC 7230 §3.2.4).
 */
import { ODataError } from '../errors';
import { isTokenChar } from '../protocol/media-type';

/** Header fields by lower-case name; a repeated field is joined with `, ` (RFC 7230 §3.2.2). */
export type HeaderMap = Readonly<Record<string, string>>;

/** A header block and where the content after it starts. */
interface HeaderBlock {
  readonly headers: HeaderMap;
  /** Offset just after the empty line that ends the block, or `end` when the block runs to the end. */
  readonly contentStart: number;
}

/** The prototype of header maps: an empty, frozen object without a prototype of its own. */
const NO_INHERITED_MEMBERS: object = Object.freeze(Object.create(null) as object);

/**
 * An empty header map. Like `Object.create(null)` nothing is inherited (`constructor` and
 * `__proto__` are ordinary header names), but it stays a fast V8 object: a null-prototype object
 * is a hash table, and filling one with two or three headers cost about 0.9 µs.
 */
export function emptyHeaderMap(): Record<string, string> {
  return Object.create(NO_INHERITED_MEMBERS) as Record<string, string>;
}

const CR = 0x0d;

/**
 * header-field = field-name ":" OWS field-value OWS               RFC 7230 §3.2
 * field-value  = *( field-content / obs-fold )
 * Reads text[start, end) up to an empty line. obs-fold is accepted and replaced by one SP, as
 * RFC 7230 §3.2.4 allows a recipient inside a message/http container; whitespace between name and
 * colon is refused ("MUST reject ... with a response code of 400"). A block longer than
 * `maxBytes` (counted from `countFrom`, so a request line can share the budget) throws
 * BATCH_PART_LIMIT; any other problem throws BATCH_SYNTAX naming `where`.
 *
 * `text` is the ISO-8859-1 decoding of the bytes, so that offsets in it are byte offsets (a batch
 * body is decoded once and read as text: a native call per line or block, indexOf and toString on a
 * Buffer, cost more than reading the line). Reads no further than a few characters past the
 * limit, so an endless block is never scanned whole.
 */
export function readHeaderText(text: string, start: number, end: number, maxBytes: number, where: string, countFrom: number = start): HeaderBlock {
  const scanEnd = Math.min(end, Math.max(start + 2, countFrom + maxBytes + 4));
  let blockEnd = scanEnd;
  let contentStart = scanEnd === end ? end : -1;
  for (let lineStart = start; ;) {
    const lf = text.indexOf('\n', lineStart);
    if (lf < 0 || lf >= scanEnd) break;
    if (lf === lineStart || (lf === lineStart + 1 && text.charCodeAt(lineStart) === CR)) {
      blockEnd = lineStart;
      contentStart = lf + 1;
      break;
    }
    lineStart = lf + 1;
  }
  const headers = emptyHeaderMap();
  let lastName: string | undefined;
  let pos = start;
  while (pos < blockEnd) {
    const found = text.indexOf('\n', pos);
    const lf = found < 0 || found >= blockEnd ? -1 : found;
    const next = lf < 0 ? blockEnd : lf + 1;
    const lineEnd = lf < 0 ? blockEnd : lf > pos && text.charCodeAt(lf - 1) === CR ? lf - 1 : lf;
    if (lineEnd - countFrom > maxBytes) {
      throw ODataError.fromCode('BATCH_PART_LIMIT', { limit: maxBytes, what: `bytes in the headers of ${where}` });
    }
    const first = text.charCodeAt(pos);
    if (first === 0x20 || first === 0x09) {
      const line = text.slice(pos, lineEnd);
      if (lastName === undefined) throw syntax(where, `a header block cannot start with whitespace: '${printable(line)}'`);
      headers[lastName] = `${headers[lastName]} ${checkValue(line.trim(), where, lastName)}`.trim();
    } else {
      const colonAt = text.indexOf(':', pos);
      const colon = colonAt < 0 || colonAt >= lineEnd ? -1 : colonAt - pos;
      if (colon <= 0) throw syntax(where, `'${printable(text.slice(pos, lineEnd))}' is not a header field (name: value)`);
      // The usual names, as clients spell them, map straight to their lower-case constant: no
      // slice, character check or lower-casing, and a key that property lookups already know.
      let name = knownName(text, pos, colon);
      if (name === undefined) {
        const spelled = text.slice(pos, pos + colon);
        for (let i = 0; i < colon; i++) {
          if (!isTokenChar(spelled.charCodeAt(i))) throw syntax(where, `bad character in the header name '${printable(spelled)}'`);
        }
        name = spelled.toLowerCase();
      }
      const value = checkValue(text.slice(pos + colon + 1, lineEnd).trim(), where, name);
      const before = headers[name];
      headers[name] = before === undefined ? value : `${before}, ${value}`;
      lastName = name;
    }
    pos = next;
  }
  // Not reached when the scan stopped early: a line past the limit threw above.
  return { headers, contentStart: contentStart < 0 ? end : contentStart };
}

// field-content = field-vchar [ 1*( SP / HTAB ) field-vchar ]; field-vchar = VCHAR / obs-text
function checkValue(value: string, where: string, name: string): string {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) {
      throw syntax(where, `control character 0x${code.toString(16).padStart(2, '0')} in the value of the header '${name}'`);
    }
  }
  return value;
}

function syntax(where: string, detail: string): ODataError {
  return ODataError.fromCode('BATCH_SYNTAX', { detail: `${where}: ${detail}` });
}

/** A short, single-line echo of offending text for messages. */
export function printable(text: string): string {
  const clean = text.replace(/[\x00-\x1f\x7f]/g, '?');
  return clean.length > 60 ? `${clean.slice(0, 57)}...` : clean;
}

/** The canonical spelling of response header names that clients look up case-sensitively (datajs normalizes only these). */
const CANONICAL_NAMES: ReadonlyMap<string, string> = new Map(
  [
    'Content-Type',
    'Content-Length',
    'Content-ID',
    'Content-Transfer-Encoding',
    'DataServiceVersion',
    'MaxDataServiceVersion',
    'ETag',
    'Location',
    'Allow',
    'Cache-Control',
    'Retry-After',
    'WWW-Authenticate',
    'X-CSRF-Token',
  ].map((name) => [name.toLowerCase(), name]),
);

/**
 * Header names of batch parts in their usual spellings (canonical and lower case) with their
 * lower-case form, by length: a line's name is compared in place, with no slice to hash.
 */
const KNOWN_NAMES_BY_LENGTH: ReadonlyMap<number, readonly (readonly [string, string])[]> = (() => {
  const byLength = new Map<number, (readonly [string, string])[]>();
  const names = [...CANONICAL_NAMES.values(), 'Accept', 'Accept-Language', 'If-Match', 'If-None-Match', 'Host', 'SAP-ContextId', 'X-HTTP-Method'];
  for (const spelled of names) {
    const lower = spelled.toLowerCase();
    const list = byLength.get(spelled.length) ?? [];
    list.push([spelled, lower], [lower, lower]);
    byLength.set(spelled.length, list);
  }
  return byLength;
})();

/** The lower-case constant of a well-known header name written at `text[pos]`, `length` characters long. */
function knownName(text: string, pos: number, length: number): string | undefined {
  const candidates = KNOWN_NAMES_BY_LENGTH.get(length);
  if (candidates === undefined) return undefined;
  for (let i = 0; i < candidates.length; i++) if (text.startsWith(candidates[i][0], pos)) return candidates[i][1];
  return undefined;
}

/** `dataserviceversion` -> `DataServiceVersion`; unknown names get each dash-separated word capitalized. */
export function canonicalHeaderName(name: string): string {
  const lower = name.toLowerCase();
  const known = CANONICAL_NAMES.get(lower);
  if (known !== undefined) return known;
  return lower.replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase());
}
