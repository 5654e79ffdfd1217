/**
 * Media resources of media link entries (`m:HasStream`, MS-ODATA §2.2.7.2.4 "RetrieveMediaResource",
 * §2.2.7.3.6 "UpdateMediaResource"): GET streams the bytes with their content type, PUT replaces them.
 */
import type { HandlerOutcome } from '../result';
import type { HandlerContext, ProviderWith } from './context';
import { requireBody } from './body';
import { etagHeaders, preconditionOf, readCondition } from './preconditions';
import { loadEntity } from './query-request';
import { entityKey } from '../provider/keys';
import type { EntityKey, SingleEntityPath } from '../uri/types';
import { keyOf } from './update';

/**
 * GET `Entity/$value` of a media link entry. An If-Match is checked against the entry's ETag
 * (412 when stale), which needs the entry: it is read only when the header is there.
 */
export async function readMediaResource(
  context: HandlerContext<SingleEntityPath<'MediaResource'>>,
  provider: ProviderWith<'readMedia'>,
): Promise<HandlerOutcome> {
  const target = context.path;
  let key: EntityKey;
  if (context.request.headers['if-match'] === undefined) {
    key = await keyOf(context, target);
  } else {
    const entity = await loadEntity(context, target);
    readCondition(context, target.entityType, context.config.etagOf(entity, target.entityType), false);
    key = entityKey(target.entityType, entity);
  }
  const media = await provider.readMedia({ entitySet: target.entitySet, key }, context.request.context);
  return { result: { kind: 'RawValue', contentType: media.contentType, body: media.body } };
}

/** PUT `Entity/$value`: replace the media resource; 204 with the entry's new ETag. */
export async function updateMediaResource(
  context: HandlerContext<SingleEntityPath<'MediaResource'>>,
  provider: ProviderWith<'writeMedia'>,
): Promise<HandlerOutcome> {
  const target = context.path;
  const body = requireBody(context);
  const precondition = preconditionOf(context, target.entityType);
  const key = await keyOf(context, target);
  const contentType = context.request.headers['content-type'] ?? 'application/octet-stream';
  const updated = await provider.writeMedia({ entitySet: target.entitySet, key }, { contentType, body }, precondition, context.request.context);
  return { result: { kind: 'NoContent' }, status: 204, headers: etagHeaders(context, target.entityType, updated) };
}
