/**
 * Preconditions (RFC 7232 §3.1 If-Match, §3.2 If-None-Match, §6 their order; MS-ODATA §2.2.5.5,
 * §3.2.5.1): on writes the If-Match header becomes a Precondition the provider checks atomically
 * with the write; on reads of one entity (its entry, a property, `$value`, its media resource)
 * they are checked against the entity's ETag here. A specific entity tag where no ETag can exist
 * (a type without concurrency token, a collection) is a client error, not a silent no-op; `*`
 * matches any existing entity everywhere (@sap_oss/odata-library sends `If-Match: *` on every write).
 */
import { ODataError } from '../errors';
import type { EdmEntityType } from '../edm/model';
import type { PrimitiveValue } from '../edm/primitives';
import { decodeETag, matchesIfMatch, matchesIfNoneMatch, parseETagList } from '../protocol';
import type { ETagList } from '../protocol';
import type { Entity, Precondition } from '../provider/types';
import type { HandlerContext } from './context';

/** The ETag response header of an entity (none when its type has no ETag and the provider gives none). */
export function etagHeaders(context: HandlerContext, entityType: EdmEntityType, entity: Entity): Record<string, string> {
  const etag = context.config.etagOf(entity, entityType);
  return etag === undefined ? {} : { etag };
}

/**
 * The precondition of a write to an entity of `entityType`, or undefined when none applies.
 * `If-None-Match` on a write is 400; a write without If-Match to an ETag-bearing type is 428 unless
 * the service opted out (`requireIfMatch: false`); a specific tag for a type that has no
 * concurrency token is 400.
 */
export function preconditionOf(context: HandlerContext, entityType: EdmEntityType): Precondition | undefined {
  const { headers } = context.request;
  const ifMatch = headers['if-match'];
  if (headers['if-none-match'] !== undefined) {
    throw ODataError.fromCode('PRECONDITION_INVALID', {
      detail: ifMatch !== undefined ? 'If-Match and If-None-Match cannot be combined.' : 'If-None-Match is not supported on writes.',
    });
  }
  const { etagOf, options } = context.config;
  if (ifMatch === undefined) {
    if (options.requireIfMatch && hasETag(entityType)) throw ODataError.fromCode('PRECONDITION_REQUIRED');
    return undefined;
  }
  const list = parseETagList(ifMatch);
  // A malformed If-Match can match nothing: 412, as for a mismatch.
  if (list === undefined) throw ODataError.fromCode('PRECONDITION_FAILED', { header: 'If-Match' });
  // With a provider `etag` hook any entity may have a tag: only the write can tell.
  if (!hasETag(entityType) && options.provider.etag === undefined && hasSpecificTag(list)) throw noToken('If-Match', entityType);
  const any = list.some((tag) => tag === '*');
  const etags = list.filter((tag) => tag !== '*');
  const concurrencyValues: Readonly<Record<string, PrimitiveValue | null>>[] = [];
  for (const tag of etags) {
    const values = decodeETag(tag, entityType);
    if (values !== undefined) concurrencyValues.push(values);
  }
  return {
    any,
    etags,
    concurrencyValues,
    matches: (current: Entity) => any || matchesIfMatch(list, etagOf(current, entityType)),
  };
}

/** What a read may do after its preconditions: answer, or answer 304 Not Modified. */
type ReadCondition = 'proceed' | 'not-modified';

/**
 * The preconditions of a read of one existing entity whose ETag is `etag` (RFC 7232 §6: If-Match
 * first, then If-None-Match): a stale If-Match is 412, a matching If-None-Match 304. A specific
 * tag where the entity has no ETag is 400. `ifNoneMatch: false` leaves If-None-Match alone (a
 * media resource has no ETag of its own to compare).
 */
export function readCondition(context: HandlerContext, entityType: EdmEntityType, etag: string | undefined, ifNoneMatch = true): ReadCondition {
  const { headers } = context.request;
  const ifMatch = headers['if-match'];
  if (ifMatch !== undefined) {
    const list = parseETagList(ifMatch);
    if (list === undefined) throw ODataError.fromCode('PRECONDITION_FAILED', { header: 'If-Match' });
    if (etag === undefined && hasSpecificTag(list)) throw noToken('If-Match', entityType);
    if (!matchesIfMatch(list, etag)) throw ODataError.fromCode('PRECONDITION_FAILED', { header: 'If-Match' });
  }
  const noneMatch = headers['if-none-match'];
  if (!ifNoneMatch || noneMatch === undefined) return 'proceed';
  const list = parseETagList(noneMatch);
  if (list === undefined) throw ODataError.fromCode('PRECONDITION_INVALID', { detail: `Malformed If-None-Match header '${noneMatch}'.` });
  if (etag === undefined && hasSpecificTag(list)) throw noToken('If-None-Match', entityType);
  return matchesIfNoneMatch(list, etag) ? 'proceed' : 'not-modified';
}

/**
 * If-Match / If-None-Match on a collection (a feed, a count, `$links`, a POST to a set): an entity
 * tag names one entity's state, so a specific tag is 400 (MS-ODATA §3.2.5.1, as WCF answered); `*`
 * is accepted and changes nothing.
 */
export function checkCollectionPreconditions(context: HandlerContext, resource: string): void {
  for (const header of ['if-match', 'if-none-match'] as const) {
    const value = context.request.headers[header];
    if (value === undefined) continue;
    const list = parseETagList(value);
    if (list !== undefined && !hasSpecificTag(list)) continue;
    const name = header === 'if-match' ? 'If-Match' : 'If-None-Match';
    throw ODataError.fromCode('PRECONDITION_INVALID', {
      detail: `${name} applies to a single entity; '${resource}' is a collection, so ${name} can only be '*' here.`,
    });
  }
}

/** Does an entity type carry an ETag (a `ConcurrencyMode="Fixed"` property, in it or a base type)? */
function hasETag(entityType: EdmEntityType): boolean {
  return entityType.concurrencyProperties.length > 0;
}

function hasSpecificTag(list: ETagList): boolean {
  return list.some((tag) => tag !== '*');
}

function noToken(header: 'If-Match' | 'If-None-Match', entityType: EdmEntityType): ODataError {
  return ODataError.fromCode('PRECONDITION_INVALID', {
    detail: `The entity type '${entityType.qualifiedName}' has no concurrency token (no property with ConcurrencyMode="Fixed"), so its entities have no ETag; ${header} can only be '*'.`,
  });
}
