/**
 * Entity tags (MS-ODATA §2.2.5.4 "ETag", RFC 7232): computing an entity's weak ETag from its
 * `ConcurrencyMode="Fixed"` properties, reading If-Match / If-None-Match lists, and comparing.
 */
import { convertLiteral, parseLiteral, printLiteral, scanLiteral } from '../edm/literals';
import type { EdmEntityType } from '../edm/model';
import type { PrimitiveValue } from '../edm/primitives';
import { toWellFormed } from '../util';

/** An entity as far as ETags care: property values by name. */
type ETagSource = Readonly<Record<string, unknown>>;

type ETagFunction = (entity: ETagSource) => string | undefined;

const COMPILED = new WeakMap<EdmEntityType, ETagFunction>();

/**
 * Characters outside RFC 7232 etagc (`%x21 / %x23-7E`), plus `%` so that the encoding is
 * unambiguous: a string concurrency value with a quote or a space still yields a valid header.
 */
const NOT_ETAGC = /[^\x21\x23\x24\x26-\x7e]+/g;

function etagText(literal: string): string {
  return literal.replace(NOT_ETAGC, (run) => encodeURIComponent(toWellFormed(run)));
}

function compile(entityType: EdmEntityType): ETagFunction {
  const parts = entityType.concurrencyProperties.map((property) => {
    if (property.type.kind !== 'Primitive') {
      throw new TypeError(`Concurrency property '${property.name}' of '${entityType.qualifiedName}' is not primitive.`);
    }
    return { name: property.name, type: property.type.name };
  });
  if (parts.length === 0) return () => undefined;
  return (entity) => {
    let text = 'W/"';
    for (let i = 0; i < parts.length; i++) {
      const value = entity[parts[i].name];
      if (i > 0) text += ',';
      // As in WCF: the URI literal of each value, joined with commas; a missing value is `null`.
      text += value === null || value === undefined ? 'null' : etagText(printLiteral(parts[i].type, value as PrimitiveValue));
    }
    return text + '"';
  };
}

/**
 * The weak ETag of an entity: `W/"<literal>,<literal>..."` over its ConcurrencyMode="Fixed"
 * properties in declaration order (a Supplier with Concurrency 0 -> `W/"0"`); undefined when the
 * type has none. Compiled once per entity type.
 */
export function encodeETag(entity: Readonly<Record<string, unknown>>, entityType: EdmEntityType): string | undefined {
  let compute = COMPILED.get(entityType);
  if (compute === undefined) {
    compute = compile(entityType);
    COMPILED.set(entityType, compute);
  }
  return compute(entity);
}

/**
 * The inverse of `encodeETag`: the values of the `ConcurrencyMode="Fixed"` properties (typed as
 * the model says, `null` for a null value) that an entity tag of `entityType` stands for, or
 * undefined when the tag is not one the service wrote for that type (a wrong number of values, a
 * literal that is not of the property's type, a type without concurrency token, a spelling
 * `encodeETag` would not write such as `W/"03"`). Weak and strong
 * forms decode alike (If-Match compares weakly). Decodes the service's own encoding only: a
 * provider with an `etag` override decodes its tags itself.
 */
export function decodeETag(tag: string, entityType: EdmEntityType): Readonly<Record<string, PrimitiveValue | null>> | undefined {
  const properties = entityType.concurrencyProperties;
  const quoted = opaque(tag);
  if (properties.length === 0 || quoted.length < 2 || !quoted.startsWith('"') || !quoted.endsWith('"')) return undefined;
  let text: string;
  try {
    // encodeETag percent-encodes `%` and every character outside etagc, so this restores the literals.
    text = decodeURIComponent(quoted.slice(1, -1));
  } catch {
    return undefined;
  }
  const values: Record<string, PrimitiveValue | null> = {};
  let start = 0;
  for (let i = 0; i < properties.length; i++) {
    const property = properties[i];
    const end = scanLiteral(text, start);
    if (end < 0 || property.type.kind !== 'Primitive') return undefined;
    const last = i === properties.length - 1;
    if (last ? end !== text.length : text.charCodeAt(end) !== 44 /* , */) return undefined;
    let value: PrimitiveValue | null | undefined;
    try {
      value = convertLiteral(parseLiteral(text.slice(start, end)), property.type.name);
    } catch {
      return undefined;
    }
    if (value === undefined) return undefined;
    values[property.name] = value;
    start = end + 1;
  }
  // Only the tag the service writes for these values (`W/"03"` is not `W/"3"`): so a record is
  // decoded exactly when `matches` could accept the tag, which compares opaque tags as text.
  const canonical = encodeETag(values, entityType);
  return canonical !== undefined && opaque(canonical) === quoted ? values : undefined;
}

/** An If-Match / If-None-Match value: `*` or entity tags exactly as sent (`W/"3"`, `"abc"`). */
export type ETagList = readonly string[];

function isOws(code: number): boolean {
  return code === 32 || code === 9;
}

/** etagc = %x21 / %x23-7E / obs-text (RFC 7232 §2.3). */
function isEtagc(code: number): boolean {
  return code === 0x21 || (code >= 0x23 && code <= 0x7e) || (code >= 0x80 && code <= 0xff);
}

/**
 * Read an If-Match or If-None-Match header (RFC 7232 §3.1, §3.2):
 *
 *   If-Match    = "*" / 1#entity-tag
 *   entity-tag  = [ weak ] opaque-tag ; weak = %x57.2F "W/"
 *   opaque-tag  = DQUOTE *etagc DQUOTE
 *
 * Empty list elements are skipped (RFC 7230 §7); a lower-case `w/` is read as `W/`; a `*` is
 * kept wherever it stands. Undefined when the header is malformed (no element, an unquoted tag,
 * a bad character): callers answer 412 for If-Match and 400 for If-None-Match.
 */
export function parseETagList(header: string): ETagList | undefined {
  const tags: string[] = [];
  let i = 0;
  const n = header.length;
  while (i < n) {
    const code = header.charCodeAt(i);
    if (isOws(code) || code === 44 /* , */) {
      i++;
      continue;
    }
    if (code === 42 /* * */) {
      tags.push('*');
      i++;
    } else {
      let weak = false;
      if ((code === 87 || code === 119) && header.charCodeAt(i + 1) === 47 /* / */) {
        weak = true;
        i += 2;
      }
      if (header.charCodeAt(i) !== 34 /* " */) return undefined;
      const start = i;
      i++;
      while (i < n && header.charCodeAt(i) !== 34) {
        if (!isEtagc(header.charCodeAt(i))) return undefined;
        i++;
      }
      if (i >= n) return undefined;
      i++;
      tags.push((weak ? 'W/' : '') + header.slice(start, i));
    }
    while (i < n && isOws(header.charCodeAt(i))) i++;
    if (i < n && header.charCodeAt(i) !== 44) return undefined;
  }
  return tags.length > 0 ? tags : undefined;
}

/** The opaque tag: what weak comparison looks at (RFC 7232 §2.3.2). */
function opaque(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}

function anyMatches(list: ETagList, current: string | undefined): boolean {
  if (list.includes('*')) return true;
  if (current === undefined) return false;
  const target = opaque(current);
  return list.some((tag) => opaque(tag) === target);
}

/**
 * Does an existing entity with ETag `current` satisfy If-Match? `*` matches any existing entity;
 * otherwise one tag must match by weak comparison (RFC 7232 §2.3.2): OData ETags are weak, and
 * strong comparison would never let a weak tag match. An entity without ETag matches only `*`.
 */
export function matchesIfMatch(list: ETagList, current: string | undefined): boolean {
  return anyMatches(list, current);
}

/**
 * Does an existing entity with ETag `current` satisfy If-None-Match, i.e. may the request
 * proceed? False when `*` or any tag matches by weak comparison (RFC 7232 §3.2): a GET then
 * answers 304 Not Modified, a write 412.
 */
export function matchesIfNoneMatch(list: ETagList, current: string | undefined): boolean {
  return !anyMatches(list, current);
}
