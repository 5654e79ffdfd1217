/**
 * The writers' view of the EDM value formatters: key predicates for URIs, and payload text of
 * primitive values. The formatting rules themselves live in `edm` (literals.ts, payload-values.ts);
 * this module only adds what URIs in payloads need (percent-encoding) and name checks.
 */
import { printKeyPredicate } from '../edm/literals';
import type { EdmEntitySet } from '../edm/model';
import type { Entity } from '../provider/types';
import { toWellFormed } from '../util';

// RFC 3986 pchar (unreserved / sub-delims / ":" / "@"); "%" is not in the class, so text given
// here must be raw (unencoded) text.
const NOT_PCHAR = /[^A-Za-z0-9\-._~!$&'()*+,;=:@]/;

/** Percent-encode what is not a URI path character (RFC 3986 §3.3), UTF-8 first; the common all-ASCII key takes the fast path. */
export function encodePathSegment(text: string): string {
  if (!NOT_PCHAR.test(text)) return text;
  let out = '';
  // for-of walks code points; an unpaired surrogate (a model built in code may hold one) becomes U+FFFD.
  for (const char of toWellFormed(text)) out += NOT_PCHAR.test(char) ? encodeURIComponent(char) : char;
  return out;
}

const entryPaths = new WeakMap<EdmEntitySet, (entity: Entity) => string>();

/**
 * The path of an entity relative to the service root (`Products(1)`, `Container.Set(A=1,B='x')`):
 * compiled once per entity set (MS-ODATA §2.2.3.1, "entity sets of a non-default container are qualified").
 */
export function entryPathOf(entitySet: EdmEntitySet): (entity: Entity) => string {
  let compiled = entryPaths.get(entitySet);
  if (compiled === undefined) {
    const prefix = encodePathSegment(entitySet.container.isDefault ? entitySet.name : `${entitySet.container.name}.${entitySet.name}`);
    const type = entitySet.entityType;
    // printKeyPredicate percent-encodes the key literals itself.
    compiled = (entity: Entity): string => prefix + printKeyPredicate(type, entity);
    entryPaths.set(entitySet, compiled);
  }
  return compiled;
}

// OData identifiers (CSDL SimpleIdentifier): a letter or "_" first, then letters, digits, "_".
const IDENTIFIER = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Nd}\p{Mn}\p{Mc}\p{Pc}\p{Cf}]*$/u;

/** True when a dynamic property name can be written as an XML element name and a JSON name. */
export function isWritableName(name: string): boolean {
  return IDENTIFIER.test(name);
}
