/**
 * Header blocks inside a batch body: the MIME headers of a part and the header fields of an
 * embedded HTTP request. Lines end with CRLF or a bare LF; bytes are read as ISO-8859-1, as
 * HTTP field values are (RFC 7230 §3.2.4).
 */
import { ODataError } from '../errors';
import { isTokenChar } from './content-type';

/** Header fields by lower-case name; a repeated field is joined with `, ` (RFC 7230 §3.2.2). */
export type HeaderMap = Readonly<Record<string, string>>;

/** A header block and where the content after it starts. */
export interface HeaderBlock {
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
const LF = 0x0a;

/** A line of `buffer` from `start`: its end (before CR LF or LF) and where the next line starts. */
export function lineAt(buffer: Buffer, start: number, end: number): { readonly lineEnd: number; readonly next: number } {
  const lf = buffer.indexOf(LF, start);
  if (lf < 0 || lf >= end) return { lineEnd: end, next: end };
  return { lineEnd: lf > start && buffer[lf - 1] === CR ? lf - 1 : lf, next: lf + 1 };
}

/**
 * header-field = field-name ":" OWS field-value OWS               RFC 7230 §3.2
 * field-value  = *( field-content / obs-fold )
 * Reads buffer[start, end) up to an empty line. obs-fold is accepted and replaced by one SP, as
 * RFC 7230 §3.2.4 allows a recipient inside a message/http container; whitespace between name and
 * colon is refused ("MUST reject ... with a response code of 400"). A block longer than
 * `maxBytes` (counted from `countFrom`, so a request line can share the budget) throws
 * BATCH_PART_LIMIT; any other problem throws BATCH_SYNTAX naming `where`.
 */
export function readHeaderBlock(
  buffer: Buffer,
  start: number,
  end: number,
  maxBytes: number,
  where: string,
  countFrom: number = start,
): HeaderBlock {
  // One byte loop finds the empty line that ends the block, then the block is decoded once: a
  // native call per line (indexOf, toString) cost more than reading the line. The scan stops a
  // few bytes past the limit, so an endless block is neither scanned nor decoded whole.
  const scanEnd = Math.min(end, Math.max(start + 2, countFrom + maxBytes + 4));
  let blockEnd = scanEnd;
  let contentStart = scanEnd === end ? end : -1;
  let lineStart = start;
  for (let i = start; i < scanEnd; i++) {
    if (buffer[i] !== LF) continue;
    if (i === lineStart || (i === lineStart + 1 && buffer[lineStart] === CR)) {
      blockEnd = lineStart;
      contentStart = i + 1;
      break;
    }
    lineStart = i + 1;
  }
  const text = buffer.toString('latin1', start, blockEnd);
  const headers = emptyHeaderMap();
  let lastName: string | undefined;
  let pos = 0;
  while (pos < text.length) {
    const lf = text.indexOf('\n', pos);
    const next = lf < 0 ? text.length : lf + 1;
    const lineEnd = lf < 0 ? text.length : lf > pos && text.charCodeAt(lf - 1) === CR ? lf - 1 : lf;
    if (start + lineEnd - countFrom > maxBytes) {
      throw ODataError.fromCode('BATCH_PART_LIMIT', { limit: maxBytes, what: `bytes in the headers of ${where}` });
    }
    const line = text.slice(pos, lineEnd);
    const first = line.charCodeAt(0);
    if (first === 0x20 || first === 0x09) {
      if (lastName === undefined) throw syntax(where, `a header block cannot start with whitespace: '${printable(line)}'`);
      headers[lastName] = `${headers[lastName]} ${checkValue(line.trim(), where, lastName)}`.trim();
    } else {
      const colon = line.indexOf(':');
      if (colon <= 0) throw syntax(where, `'${printable(line)}' is not a header field (name: value)`);
      const spelled = line.slice(0, colon);
      // The usual names, as clients spell them, map straight to their lower-case constant: no
      // character check, no lower-casing, and a key that property lookups already know.
      let name = KNOWN_NAMES.get(spelled);
      if (name === undefined) {
        for (let i = 0; i < colon; i++) {
          if (!isTokenChar(line.charCodeAt(i))) throw syntax(where, `bad character in the header name '${printable(spelled)}'`);
        }
        name = spelled.toLowerCase();
      }
      const value = checkValue(line.slice(colon + 1).trim(), where, name);
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

/** Header names of batch parts in their usual spellings (canonical and lower case), to their lower-case form. */
const KNOWN_NAMES: ReadonlyMap<string, string> = new Map(
  [...CANONICAL_NAMES.values(), 'Accept', 'Accept-Language', 'If-Match', 'If-None-Match', 'Host', 'SAP-ContextId', 'X-HTTP-Method'].flatMap((spelled) => [
    [spelled, spelled.toLowerCase()],
    [spelled.toLowerCase(), spelled.toLowerCase()],
  ]),
);

/** `dataserviceversion` -> `DataServiceVersion`; unknown names get each dash-separated word capitalized. */
export function canonicalHeaderName(name: string): string {
  const lower = name.toLowerCase();
  const known = CANONICAL_NAMES.get(lower);
  if (known !== undefined) return known;
  return lower.replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase());
}
