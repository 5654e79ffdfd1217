/**
 * Preconditions for writes (RFC 7232 §3.1, MS-ODATA §2.2.5.5 "If-Match"): the If-Match header
 * becomes a Precondition the provider checks atomically with the write.
 */
import { ODataError } from '../errors';
import type { EdmEntityType } from '../edm/model';
import { matchesIfMatch, parseETagList } from '../protocol';
import type { Entity, Precondition } from '../provider/types';
import type { HandlerContext } from './context';

/**
 * The precondition of a write to an entity of `entityType`, or undefined when none applies.
 * `If-None-Match` on a write is 400; a write without If-Match to an ETag-bearing type is 428 unless
 * the service opted out (`requireIfMatch: false`).
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
  const any = list.some((tag) => tag === '*');
  return {
    any,
    etags: list.filter((tag) => tag !== '*'),
    matches: (current: Entity) => any || matchesIfMatch(list, etagOf(current, entityType)),
  };
}

/** Does an entity type carry an ETag (a `ConcurrencyMode="Fixed"` property, in it or a base type)? */
export function hasETag(entityType: EdmEntityType): boolean {
  return entityType.concurrencyProperties.length > 0;
}
