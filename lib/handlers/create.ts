/**
 * POST to a collection (MS-ODATA §2.2.7.1 "Insert Request Types"): create an entry (with links and
 * an inline tree), through a navigation property (link to the source, whose key fills what the
 * ReferentialConstraint fixes), or a media link entry from a raw media body. Answers 201 with
 * `Location` and the entry.
 */
import { printKeyPredicate } from '../edm';
import { NO_SELECT_EXPAND } from '../uri';
import type { CreateRequest, Entity, MediaContent, NavigationReference } from '../provider/types';
import type { HandlerOutcome } from '../result';
import type { EntityTarget } from './query-request';
import { loadEntity, sourceTarget } from './query-request';
import { describeKey, entityKey } from '../provider/keys';
import { withLinkedValues } from '../provider/linked-values';
import type { CollectionPath } from '../uri/types';
import type { HandlerContext, ProviderWith } from './context';
import { mediaTypeOf } from '../protocol/media-type';
import { readEntryBody, requireBody } from './body';
import { createRequestOf } from './entity-values';
import { assertRequiredSent } from '../provider/sent';
import { readFormUpload } from './form-upload';
import { checkCollectionPreconditions, etagHeaders } from './preconditions';

const ENTRY_MEDIA_TYPES = new Set(['application/json', 'application/atom+xml', 'application/xml']);

/** The source of a POST through navigation (`Categories(1)/Products`), as a reference with its key. */
async function parentOf(context: HandlerContext, target: EntityTarget): Promise<NavigationReference | undefined> {
  const hops = target.path.navigation;
  const last = hops[hops.length - 1];
  const sourcePath = sourceTarget(target);
  if (last === undefined || sourcePath === undefined) return undefined;
  const source = await loadEntity(context, sourcePath);
  return { source: { entitySet: sourcePath.entitySet, key: entityKey(sourcePath.entitySet.entityType, source) }, navigationProperty: last.property };
}

/** A create through navigation with the properties its link to the source fixes (withLinkedValues): `POST Orders(10248)/Lines` gives each line its OrderID. */
function fromParent(request: CreateRequest): CreateRequest {
  const { parent } = request;
  if (parent === undefined) return request;
  const label = `${parent.source.entitySet.name}${describeKey(parent.source.entitySet.entityType, parent.source.key)}`;
  return withLinkedValues(request, parent.navigationProperty, 'other', parent.source.key, label);
}

/** The Location and entry response of a created entity. */
function createdOutcome(context: HandlerContext, target: EntityTarget, entity: Entity): HandlerOutcome {
  const location = `${context.request.serviceRoot}${target.entitySet.name}${printKeyPredicate(target.entityType, entity)}`;
  return {
    status: 201,
    headers: { location, ...etagHeaders(context, target.entityType, entity) },
    result: { kind: 'Entry', entitySet: target.entitySet, entityType: target.entityType, entity, selectExpand: NO_SELECT_EXPAND },
  };
}

/** POST on an entity set or a navigation collection. */
export async function createEntry(
  context: HandlerContext<CollectionPath<'EntitySet' | 'NavigationCollection'>>,
  provider: ProviderWith<'create'>,
): Promise<HandlerOutcome> {
  const target: EntityTarget = context.path;
  checkCollectionPreconditions(context, target.entitySet.name);
  const contentType = context.request.headers['content-type'];
  const media = mediaTypeOf(contentType);
  const parent = await parentOf(context, target);

  if (target.entityType.hasStream && !ENTRY_MEDIA_TYPES.has(media)) {
    const content: MediaContent =
      media === 'multipart/form-data'
        ? await readFormUpload(requireBody(context), contentType ?? '')
        : { contentType: contentType ?? 'application/octet-stream', body: requireBody(context), slug: context.request.headers['slug'] };
    const request: CreateRequest = {
      entitySet: target.entitySet,
      entityType: target.entityType,
      values: {},
      bindings: [],
      inline: [],
      parent,
      media: content,
    };
    const created = await provider.create(fromParent(request), context.request.context);
    return createdOutcome(context, target, created);
  }

  const body = readEntryBody(context, { entitySet: target.entitySet, entityType: target.entityType });
  const request = fromParent({ ...createRequestOf(target.entitySet, body), parent });
  assertRequiredSent(request);
  const created = await provider.create(request, context.request.context);
  return createdOutcome(context, { ...target, entityType: body.entityType }, created);
}
