/**
 * Content negotiation (MS-ODATA §2.2.5.1 "Accept", RFC 7231 §5.3): which format a response is
 * written in, from `$format`, `Accept` and `Accept-Charset`. The formats each payload kind can take
 * are a table; the algorithm is RFC 7231's (most specific matching range sets the quality; the
 * highest quality wins; ties go to the server's order, whose first entry is the default).
 */
import { ODataError } from '../errors';
import { parseAccept, parseAcceptCharset, parseMediaRange, readContentType } from './media-type';
import type { MediaRange } from './media-type';

/** What a response carries, which decides the formats it can take. */
export type PayloadKind = 'serviceDocument' | 'metadata' | 'feed' | 'entry' | 'property' | 'links' | 'collection' | 'count' | 'raw' | 'error';

/**
 * The serialization of a response, the one format union from negotiation to the writers: Atom
 * (AtomPub documents), plain XML, verbose JSON, text (`$count`) or the raw bytes of a value.
 */
export type ResponseFormat = 'atom' | 'xml' | 'json' | 'text' | 'raw';

/** The formats an error body takes: `<m:error>` XML or verbose JSON. */
export type ErrorFormat = Extract<ResponseFormat, 'xml' | 'json'>;

/** The outcome of negotiation: the writer and the full Content-Type value. */
export interface NegotiatedFormat {
  readonly format: ResponseFormat;
  readonly contentType: string;
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
  // An error body is `<m:error>` XML or verbose JSON. A client that takes only Atom or text/xml can
  // read the XML one; any JSON range (JSON light too) asks for the JSON one, the nearest we write.
  error: {
    candidates: [
      XML,
      { ...TEXT_XML, format: 'xml', contentType: XML.contentType },
      { ...ATOM, format: 'xml', contentType: XML.contentType },
      { ...ATOMSVC, format: 'xml', contentType: XML.contentType },
      candidate('application/json', 'json', JSON_VERBOSE.contentType),
    ],
    fixed: true,
  },
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

/** The Accept header a `$format` value stands for, or undefined when it is neither a shorthand nor a media type. */
function acceptOfFormat(format: string): string | undefined {
  const value = format.trim();
  return FORMAT_SHORTHANDS.get(value.toLowerCase()) ?? (parseMediaRange(value) === undefined ? undefined : value);
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
 * Accept-Charset (RFC 9110 §12.5.2): we write UTF-8 only. Acceptable when absent or empty, when
 * `utf-8` has q > 0, or when `*` has q > 0 and utf-8 is not refused by name.
 */
function acceptsUtf8(header: string | undefined): boolean {
  if (header === undefined || header.trim() === '') return true;
  let star: number | undefined;
  for (const { charset, q } of parseAcceptCharset(header)) {
    if (charset === 'utf-8') return q > 0;
    if (charset === '*') star = q;
  }
  return star !== undefined && star > 0;
}

function describeCandidates(candidates: readonly Candidate[]): string {
  return candidates.map((c) => `${c.type}/${c.subtype}`).join(', ');
}

/** The Content-Type of a raw value: its own type, with `charset=utf-8` added to text types that name no charset. */
function rawContentType(mediaType: string | undefined): string {
  if (mediaType === undefined) return 'application/octet-stream';
  const parsed = readContentType(mediaType);
  return parsed !== undefined && parsed.essence.startsWith('text/') && !parsed.parameters.has('charset') ? mediaType + ';charset=utf-8' : mediaType;
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
    accept = acceptOfFormat(input.format);
    if (accept === undefined) throw ODataError.fromCode('UNSUPPORTED_FORMAT', { format: input.format });
  }
  if (kind !== 'raw' && !acceptsUtf8(input.acceptCharset)) {
    throw ODataError.fromCode('NOT_ACCEPTABLE', { detail: `responses are written in utf-8; Accept-Charset is '${input.acceptCharset ?? ''}'.` });
  }
  if (kind === 'raw') return { format: 'raw', contentType: rawContentType(input.mediaType) };
  const ranges = accept === undefined ? [] : parseAccept(accept);
  const chosen = ranges.length === 0 ? table.candidates[0] : choose(table.candidates, ranges);
  if (chosen !== undefined) return { format: chosen.format, contentType: chosen.contentType };
  if (table.fixed) return { format: table.candidates[0].format, contentType: table.candidates[0].contentType };
  const source = input.format !== undefined ? `$format is '${input.format}'` : `Accept is '${input.accept ?? ''}'`;
  throw ODataError.fromCode('NOT_ACCEPTABLE', {
    detail: `this resource is available as ${describeCandidates(table.candidates)}, but ${source}.`,
  });
}

/**
 * The format of an error body when the request's own negotiation did not run (it failed first) or
 * chose a format without an error form (`$count`, `$value`): the error kind negotiated from
 * `$format` and Accept, never failing. A `$format` that is no format is passed over for Accept (the
 * error being answered may be that very `$format`); Accept-Charset does not matter (errors are UTF-8).
 */
export function negotiateErrorFormat(accept: string | undefined, format: string | undefined): ErrorFormat {
  const preferences = (format === undefined ? undefined : acceptOfFormat(format)) ?? accept;
  const chosen = preferences === undefined ? undefined : choose(KINDS.error.candidates, parseAccept(preferences));
  return chosen?.format === 'json' ? 'json' : 'xml';
}
