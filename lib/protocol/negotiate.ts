/**
 * Content negotiation (MS-ODATA §2.2.5.1 "Accept", RFC 7231 §5.3): which format a response is
 * written in, from `$format`, `Accept` and `Accept-Charset`. The formats each payload kind can take
 * are a table; the algorithm is RFC 7231's (most specific matching range sets the quality; the
 * highest quality wins; ties go to the server's order, whose first entry is the default).
 */
import { ODataError } from '../errors';

/** What a response carries, which decides the formats it can take. */
export type PayloadKind =
  | 'serviceDocument'
  | 'metadata'
  | 'feed'
  | 'entry'
  | 'property'
  | 'links'
  | 'collection'
  | 'count'
  | 'raw'
  | 'error';

/** The family of writer a response needs. */
export type ResponseFormat = 'atom' | 'xml' | 'json' | 'text' | 'raw';

/** The outcome of negotiation: the writer and the full Content-Type value. */
export interface NegotiatedFormat {
  readonly format: ResponseFormat;
  readonly contentType: string;
}

/** One element of an Accept header. */
export interface MediaRange {
  /** Lower case; `*` for a wildcard. */
  readonly type: string;
  readonly subtype: string;
  /** Media-type parameters before `q` (names lower case). */
  readonly parameters: ReadonlyMap<string, string>;
  /** Quality, 0..1 (default 1). */
  readonly q: number;
}

/** A representation a payload kind can be written as. */
interface Candidate {
  readonly type: string;
  readonly subtype: string;
  readonly format: ResponseFormat;
  readonly contentType: string;
  /** Parameter values a range must not contradict (checked only when the range has the parameter). */
  readonly parameters?: Readonly<Record<string, readonly string[]>>;
}

function candidate(mediaType: string, format: ResponseFormat, contentType: string, parameters?: Candidate['parameters']): Candidate {
  const [type, subtype] = mediaType.split('/');
  return parameters === undefined ? { type, subtype, format, contentType } : { type, subtype, format, contentType, parameters };
}

const ATOM = candidate('application/atom+xml', 'atom', 'application/atom+xml;charset=utf-8');
const ATOMSVC = candidate('application/atomsvc+xml', 'atom', 'application/atomsvc+xml;charset=utf-8');
/**
 * Verbose JSON. `odata=verbose` is the V3 name of the only JSON a V2 service writes; other
 * `odata=` values (V3 JSON light) are a format we cannot produce, so such a range does not match.
 */
const JSON_VERBOSE = candidate('application/json', 'json', 'application/json;charset=utf-8', { odata: ['verbose'] });
const XML = candidate('application/xml', 'xml', 'application/xml;charset=utf-8');
const TEXT_XML = candidate('text/xml', 'xml', 'text/xml;charset=utf-8');
const TEXT = candidate('text/plain', 'text', 'text/plain;charset=utf-8');

/**
 * Formats per payload kind, in server preference order (the first is the default without Accept:
 * Atom for feeds, entries and the service document, XML for properties and links). `fixed` kinds
 * are not negotiated (MS-ODATA: `$metadata` is XML only, `$value` and `$count` have their own
 * type): a mismatching Accept or `$format` still gets that type rather than 406.
 */
const KINDS: Readonly<Record<PayloadKind, { readonly candidates: readonly Candidate[]; readonly fixed: boolean }>> = {
  // An Atom document is XML: a client asking only for application/xml gets it with that type.
  feed: { candidates: [ATOM, JSON_VERBOSE, { ...XML, format: 'atom' }], fixed: false },
  entry: { candidates: [ATOM, JSON_VERBOSE, { ...XML, format: 'atom' }], fixed: false },
  serviceDocument: { candidates: [ATOMSVC, JSON_VERBOSE, { ...XML, format: 'atom' }], fixed: false },
  property: { candidates: [XML, JSON_VERBOSE, TEXT_XML], fixed: false },
  links: { candidates: [XML, JSON_VERBOSE, TEXT_XML], fixed: false },
  collection: { candidates: [XML, JSON_VERBOSE, TEXT_XML], fixed: false },
  error: { candidates: [XML, JSON_VERBOSE], fixed: true },
  metadata: { candidates: [XML], fixed: true },
  count: { candidates: [TEXT], fixed: true },
  raw: { candidates: [], fixed: true },
};

/** `$format` shorthands (MS-ODATA §2.2.3.6.1.5), as the Accept header they stand for. */
const FORMAT_SHORTHANDS: ReadonlyMap<string, string> = new Map([
  // "Client accepting all Atom-related types" (MS-ODATA §2.2.5.1).
  ['atom', 'application/atom+xml, application/atomsvc+xml, application/xml'],
  ['xml', 'application/xml'],
  ['json', 'application/json'],
]);

function isTokenChar(code: number): boolean {
  // tchar (RFC 7230 §3.2.6): visible ASCII except delimiters "(),/:;<=>?@[\]{}
  return code > 32 && code < 127 && '"(),/:;<=>?@[\\]{}'.indexOf(String.fromCharCode(code)) < 0;
}

function isToken(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) if (!isTokenChar(text.charCodeAt(i))) return false;
  return true;
}

/** Split on `separator` outside quoted strings. */
function splitOutsideQuotes(text: string, separator: number): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (quoted && code === 92 /* \ */) i++;
    else if (code === 34) quoted = !quoted;
    else if (!quoted && code === separator) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ) (RFC 7231 §5.3.1). */
function parseQuality(text: string): number | undefined {
  return /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(text) ? Number(text) : undefined;
}

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value;
}

function parseRange(element: string): MediaRange | undefined {
  const [mediaType, ...rawParameters] = splitOutsideQuotes(element, 59 /* ; */);
  const slash = mediaType.indexOf('/');
  const type = mediaType.slice(0, slash).trim().toLowerCase();
  const subtype = mediaType.slice(slash + 1).trim().toLowerCase();
  if (slash < 0 || !isToken(type) || !isToken(subtype) || (type === '*' && subtype !== '*')) return undefined;
  const parameters = new Map<string, string>();
  let q = 1;
  for (const raw of rawParameters) {
    const eq = raw.indexOf('=');
    const name = raw.slice(0, eq).trim().toLowerCase();
    const value = raw.slice(eq + 1).trim();
    if (eq < 0 || !isToken(name)) return undefined;
    if (name === 'q') {
      const quality = parseQuality(value);
      if (quality === undefined) return undefined;
      q = quality;
      break; // what follows q are accept-ext parameters, which do not select a media type
    }
    parameters.set(name, unquote(value).toLowerCase());
  }
  return { type, subtype, parameters, q };
}

/**
 * Read an Accept header (RFC 7231 §5.3.2):
 *
 *   Accept      = #( media-range [ accept-params ] )
 *   media-range = ( "*\/*" / ( type "/" "*" ) / ( type "/" subtype ) ) *( OWS ";" OWS parameter )
 *   accept-params = weight *( accept-ext ) ; weight = OWS ";" OWS "q=" qvalue
 *
 * Type, subtype and parameter names are lower-cased, as are parameter values (the ones that
 * matter here, `odata=verbose`, are case-insensitive). Malformed elements are skipped, as
 * browsers and most servers do, rather than failing the request.
 */
export function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const element of splitOutsideQuotes(header, 44 /* , */)) {
    if (element.trim() === '') continue;
    const range = parseRange(element);
    if (range !== undefined) ranges.push(range);
  }
  return ranges;
}

/**
 * Accept headers repeat (a client sends the same one with every request, and `$format` values map
 * to three texts), so the parsed ranges are kept per header text: a Map lookup instead of a parse
 * per request. At most ACCEPT_MEMO_SIZE texts are kept; the memo starts over when it is full, so
 * unusual headers cannot make it grow.
 */
const ACCEPT_MEMO = new Map<string, readonly MediaRange[]>();
const ACCEPT_MEMO_SIZE = 64;

function parsedAccept(header: string): readonly MediaRange[] {
  let ranges = ACCEPT_MEMO.get(header);
  if (ranges === undefined) {
    ranges = Object.freeze(parseAccept(header));
    if (ACCEPT_MEMO.size >= ACCEPT_MEMO_SIZE) ACCEPT_MEMO.clear();
    ACCEPT_MEMO.set(header, ranges);
  }
  return ranges;
}

/** How specifically a range matches a candidate (3 > 2 > 1 > 0), or -1 when it does not match. */
function specificity(range: MediaRange, target: Candidate): number {
  if (range.type === '*') return 0;
  if (range.type !== target.type) return -1;
  if (range.subtype === '*') return 1;
  if (range.subtype !== target.subtype) return -1;
  // A range without parameters contradicts none (the common `application/json`): no loop to set up.
  if (target.parameters !== undefined && range.parameters.size > 0) {
    for (const [name, allowed] of Object.entries(target.parameters)) {
      const given = range.parameters.get(name);
      if (given !== undefined && !allowed.includes(given)) return -1;
    }
  }
  return range.parameters.size > 0 ? 3 : 2;
}

/** Quality of a candidate under a set of ranges: that of the most specific matching range (RFC 7231 §5.3.2). */
function qualityOf(ranges: readonly MediaRange[], target: Candidate): number {
  let best = -1;
  let q = 0;
  for (const range of ranges) {
    const s = specificity(range, target);
    if (s > best) {
      best = s;
      q = range.q;
    }
  }
  return q;
}

/** The best candidate for the ranges, or undefined when none is acceptable (q = 0 everywhere). */
function choose(candidates: readonly Candidate[], ranges: readonly MediaRange[]): Candidate | undefined {
  let chosen: Candidate | undefined;
  let chosenQ = 0;
  for (const target of candidates) {
    const q = qualityOf(ranges, target);
    if (q > chosenQ) {
      chosen = target;
      chosenQ = q;
    }
  }
  return chosen;
}

/**
 * Accept-Charset (RFC 7231 §5.3.3): we write UTF-8 only. Acceptable when absent or empty, when
 * `utf-8` has q > 0, or when `*` has q > 0 and utf-8 is not refused by name.
 */
function acceptsUtf8(header: string | undefined): boolean {
  if (header === undefined || header.trim() === '') return true;
  let star: number | undefined;
  for (const element of header.split(',')) {
    const [name, ...parameters] = element.split(';');
    const charset = name.trim().toLowerCase();
    if (charset === '') continue;
    let q = 1;
    for (const parameter of parameters) {
      const [key, value = ''] = parameter.split('=');
      if (key.trim().toLowerCase() === 'q') q = parseQuality(value.trim()) ?? 0;
    }
    if (charset === 'utf-8') return q > 0;
    if (charset === '*') star = q;
  }
  return star !== undefined && star > 0;
}

function describeCandidates(candidates: readonly Candidate[]): string {
  return candidates.map((c) => `${c.type}/${c.subtype}`).join(', ');
}

/** The Content-Type of a raw value: its own type, with `charset=utf-8` added to text types. */
function rawContentType(mediaType: string | undefined): string {
  const type = mediaType ?? 'application/octet-stream';
  return /^text\//i.test(type) && !/;\s*charset=/i.test(type) ? type + ';charset=utf-8' : type;
}

/** The input of `negotiateFormat`: the request's preferences and what the payload is. */
export interface NegotiationInput {
  /** The Accept header, if any. */
  readonly accept: string | undefined;
  /** The `$format` query option, if any: `atom`, `xml`, `json` or a media type. */
  readonly format: string | undefined;
  readonly acceptCharset: string | undefined;
  readonly kind: PayloadKind;
  /** For `raw`: the value's own media type (a property's MimeType, text/plain, a media resource's type). */
  readonly mediaType?: string;
}

/**
 * Negotiate the response format. `$format` overrides Accept (MS-ODATA §2.2.3.6.1.5); an unknown
 * `$format` value is 400 UNSUPPORTED_FORMAT. No Accept (or an empty one) means the kind's default
 * (Atom / XML, MS-ODATA §2.2.5.1: "the server defaults to the Atom representation"). When nothing
 * acceptable can be written, 406 NOT_ACCEPTABLE, except for the fixed kinds (metadata, count,
 * raw, error), which always get their own type. Accept-Charset without UTF-8 is 406 as well.
 */
export function negotiateFormat(input: NegotiationInput): NegotiatedFormat {
  const { kind } = input;
  const table = KINDS[kind];
  let accept = input.accept;
  if (input.format !== undefined) {
    const value = input.format.trim();
    const shorthand = FORMAT_SHORTHANDS.get(value.toLowerCase());
    if (shorthand === undefined && parseRange(value) === undefined) {
      throw ODataError.fromCode('UNSUPPORTED_FORMAT', { format: input.format });
    }
    accept = shorthand ?? value;
  }
  if (kind !== 'raw' && !acceptsUtf8(input.acceptCharset)) {
    throw ODataError.fromCode('NOT_ACCEPTABLE', { detail: `responses are written in utf-8; Accept-Charset is '${input.acceptCharset ?? ''}'.` });
  }
  if (kind === 'raw') return { format: 'raw', contentType: rawContentType(input.mediaType) };
  const ranges = accept === undefined ? [] : parsedAccept(accept);
  const chosen = ranges.length === 0 ? table.candidates[0] : choose(table.candidates, ranges);
  if (chosen !== undefined) return { format: chosen.format, contentType: chosen.contentType };
  if (table.fixed) return { format: table.candidates[0].format, contentType: table.candidates[0].contentType };
  const source = input.format !== undefined ? `$format is '${input.format}'` : `Accept is '${input.accept ?? ''}'`;
  throw ODataError.fromCode('NOT_ACCEPTABLE', {
    detail: `this resource is available as ${describeCandidates(table.candidates)}, but ${source}.`,
  });
}
