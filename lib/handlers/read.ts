/**
 * Reads of entities: feeds (entity sets, navigation collections), single entries, and `$count`.
 */
import { isPlainObject } from '../edm/primitives';
import { entityPosition } from '../evaluate/evaluate';
import { pageSizeFor } from '../options';
import type { Entity, QueryResult } from '../provider/types';
import type { HandlerOutcome } from '../result';
import type { CollectionPath, SingleEntityPath, SkipTokenPosition } from '../uri/types';
import type { Handler, HandlerContext } from './context';
import { nextLink, planPage } from './paging';
import { checkCollectionPreconditions, etagHeaders, readCondition } from './preconditions';
import { collect, collectionQuery, type EntityTarget, findEntity, loadEntity, notFound, providerCount, queryProvider, sourceTarget } from './query-request';

/** The path of a feed relative to the service root, for `link rel="self"` and next links. */
function resourcePathText(context: HandlerContext): string {
  return context.request.path.replace(/^\/+/, '');
}

/**
 * Where the last entry of a page stands, for the next link: the provider's position (at its
 * store's precision, see QueryResult.positionOf), else the entry's own values. Those need what
 * `$orderby` reads over navigation (`Category/Name`) on the entry: a provider that does not put it
 * there must give positions, or the next link would hold nulls and the next page start in the
 * wrong place (a TypeError, answered 500, says so instead).
 */
function lastPosition(context: HandlerContext, target: EntityTarget, result: QueryResult, last: Entity): SkipTokenPosition {
  const given = result.positionOf?.(last);
  if (given !== undefined) return given;
  return entityPosition(context.query.orderBy, last, target.entityType, (entity, property) => {
    const related = entity[property.name];
    if (related === undefined) {
      throw new TypeError(
        `The provider gave no position (QueryResult.positionOf) for the last entity of a page of ${target.entitySet.name}, and the entity does not hold '${property.name}', which $orderby reads.`,
      );
    }
    return isPlainObject(related) ? related : null;
  });
}

/** GET on an entity set or a navigation collection. */
export const readFeed: Handler<CollectionPath<'EntitySet' | 'NavigationCollection'>> = async (context) => {
  const target: EntityTarget = context.path;
  checkCollectionPreconditions(context, resourcePathText(context));
  const { query, config, request } = context;
  const plan = planPage(query.top, pageSizeFor(config.options, target.entitySet.name));
  const wantsCount = query.inlineCount === 'allpages';
  const providerRequest = { ...collectionQuery(target, query, wantsCount), top: plan.providerTop };
  const result = await queryProvider(context, providerRequest);
  let entities: readonly Entity[] | AsyncIterable<Entity> = result.entities;
  let next: string | undefined;
  if (plan.pageSize !== undefined) {
    // One more than a page tells whether a next page exists; a streamed result is read no further.
    const page = await collect(entities, plan.pageSize + 1);
    if (page.length > plan.pageSize) {
      entities = page.slice(0, plan.pageSize);
      const position = lastPosition(context, target, result, entities[entities.length - 1]);
      next = nextLink(request.serviceRoot, resourcePathText(context), query, query.orderBy, target.entityType, position, plan.pageSize);
    } else {
      entities = page;
    }
  }
  const lastStep = target.path.navigation[target.path.navigation.length - 1];
  return {
    result: {
      kind: 'Feed',
      entitySet: target.entitySet,
      entityType: target.entityType,
      selfPath: resourcePathText(context),
      title: lastStep === undefined ? target.entitySet.name : lastStep.property.name,
      entities,
      count: wantsCount ? providerCount(result.count) : undefined,
      nextLink: next,
      selectExpand: query.selectExpand,
      continuation: query.skipToken !== undefined,
    },
  };
};

/**
 * A single-valued navigation with no related entity (`Products(1)/Category` of a product without
 * category): 204 No Content, as WCF Data Services answered (the .NET client's LoadProperty then
 * sets null). A missing source entity stays 404, and so does a related entity that `$filter` drops.
 */
async function noRelatedEntity(context: HandlerContext, target: EntityTarget): Promise<HandlerOutcome> {
  const source = sourceTarget(target);
  const filtered = context.query.filter !== undefined && (await findEntity(context, target)) !== undefined;
  if (source === undefined || filtered) throw notFound(target);
  await loadEntity(context, source);
  return { result: { kind: 'NoContent' }, status: 204 };
}

/** GET on one entity (by key, or over a single-valued navigation). If-Match (412) and If-None-Match (304) apply. */
export const readEntry: Handler<SingleEntityPath<'Entity' | 'NavigationEntity'>> = async (context) => {
  const target: EntityTarget = context.path;
  const entity = await findEntity(context, target, context.query);
  if (entity === undefined) {
    if (context.path.kind === 'NavigationEntity') return noRelatedEntity(context, target);
    throw notFound(target);
  }
  const headers = etagHeaders(context, target.entityType, entity);
  if (readCondition(context, target.entityType, headers.etag) === 'not-modified') return { result: { kind: 'NoContent' }, status: 304, headers };
  const outcome: HandlerOutcome = {
    result: { kind: 'Entry', entitySet: target.entitySet, entityType: target.entityType, entity, selectExpand: context.query.selectExpand },
    headers,
  };
  return outcome;
};

/** GET `.../$count` on a collection (`$filter` and `search` apply). */
export const readCount: Handler<CollectionPath<'CollectionCount'>> = async (context) => {
  const target: EntityTarget = context.path;
  checkCollectionPreconditions(context, resourcePathText(context));
  const { provider } = context.config.options;
  const { query } = context;
  let count: number;
  if (provider.count !== undefined) {
    const counted = providerCount(
      await provider.count(
        {
          entitySet: target.entitySet,
          entityType: target.entityType,
          path: target.path,
          filter: query.filter,
          search: query.search,
          customOptions: query.custom,
        },
        context.request.context,
      ),
    );
    if (counted === undefined) throw new TypeError("The provider's count() returned undefined; a count is a non-negative integer.");
    count = counted;
  } else {
    // Without a native count the provider answers a query that asks for the count and no rows.
    const result = await queryProvider(context, { ...collectionQuery(target, query, true), skip: undefined, top: 0 });
    count = providerCount(result.count) ?? (await collect(result.entities)).length;
  }
  // As the V2 servers did: `$skip` and `$top` narrow the counted collection (`Products/$count?$top=2` is 2).
  const afterSkip = Math.max(0, count - (query.skip ?? 0));
  return { result: { kind: 'Count', count: query.top === undefined ? afterSkip : Math.min(afterSkip, query.top) } };
};
