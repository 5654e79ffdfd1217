/**
 * PUT, MERGE and PATCH on an entry (MS-ODATA §2.2.7.3 "Update Request Types") and DELETE of an
 * entry (§2.2.7.4). PUT replaces (unlisted properties reset by the kit's rule before the provider
 * is called, links merged), MERGE and PATCH change only what the body lists; neither changes a
 * property marked `sap:updatable="false"` (a body may repeat its stored value). Preconditions
 * travel with the write.
 */
import type { EntityKey, SingleEntityPath } from '../uri/types';
import type { HandlerOutcome } from '../result';
import type { HandlerContext, ProviderWith } from './context';
import { readEntryBody } from './body';
import { listedValues, replaceValues, sentNames, updateBindingsOf, withoutFixed } from './entity-values';
import { etagHeaders, preconditionOf } from './preconditions';
import { type EntityTarget, loadEntity } from './query-request';
import { entityKey } from '../provider/keys';

/** The key of the entity a path addresses: from the URL when it has one, else by loading it. */
export async function keyOf(context: HandlerContext, target: EntityTarget): Promise<EntityKey> {
  const last = target.path.navigation[target.path.navigation.length - 1];
  const urlKey = last === undefined ? target.path.root.key : last.key;
  if (urlKey !== undefined && last === undefined) {
    // Direct addressing needs no read; a missing entity is the provider's 404 inside the write.
    return urlKey;
  }
  return entityKey(target.entityType, await loadEntity(context, target));
}

/** PUT (replace) or MERGE/PATCH (merge) of an entry; 204 with the new ETag. */
export async function updateEntry(
  context: HandlerContext<SingleEntityPath<'Entity' | 'NavigationEntity'>>,
  provider: ProviderWith<'update'>,
): Promise<HandlerOutcome> {
  const target: EntityTarget = context.path;
  const key = await keyOf(context, target);
  const sentBody = readEntryBody(context, { entitySet: target.entitySet, entityType: target.entityType, expectedKey: key });
  const precondition = preconditionOf(context, target.entityType);
  const body = await withoutFixed(sentBody, target.entitySet, () => loadEntity(context, target));
  const mode = context.request.method === 'PUT' ? 'replace' : 'merge';
  const bindings = updateBindingsOf(body);
  const values = mode === 'replace' ? replaceValues(body, key, bindings) : listedValues(body.entityType, body);
  const updated = await provider.update(
    {
      entitySet: target.entitySet,
      entityType: body.entityType,
      key,
      mode,
      values,
      sent: sentNames(body.entityType, body),
      bindings,
      precondition,
    },
    context.request.context,
  );
  return { result: { kind: 'NoContent' }, status: 204, headers: etagHeaders(context, target.entityType, updated) };
}

/**
 * DELETE of an entry (media link entries take their media resource with them): 204 No Content.
 * MS-ODATA §2.2.7.4.1: the response "MUST have a 204 (No Content)" status code; the "200 OK, no
 * body" of the older AtomPub wording breaks pyodata, odata2ts and SAPUI5.
 */
export async function deleteEntry(
  context: HandlerContext<SingleEntityPath<'Entity' | 'NavigationEntity'>>,
  provider: ProviderWith<'delete'>,
): Promise<HandlerOutcome> {
  const target: EntityTarget = context.path;
  const key = await keyOf(context, target);
  const precondition = preconditionOf(context, target.entityType);
  await provider.delete({ entitySet: target.entitySet, entityType: target.entityType, key, precondition }, context.request.context);
  return { result: { kind: 'NoContent' }, status: 204 };
}
