/**
 * Building provider requests from a resolved path and query options, and walking to the single
 * entity a path addresses. Shared by the read, property, links and write handlers.
 */
import { ODataError } from '../errors';
import type { EdmEntitySet, EdmEntityType } from '../edm/model';
import { finishQuery } from '../evaluate/evaluate';
import { isKeyedPath } from '../provider/not-found';
import type { Entity, QueryRequest, QueryResult } from '../provider/types';
import { NO_SELECT_EXPAND, withKeyTieBreaker } from '../uri';
import type { EntityPath, QueryOptions } from '../uri/types';
import { isReadonlyArray } from '../util';
import type { HandlerContext } from './context';

/** A target made of entities: the part of a ResourcePath the provider needs. */
export interface EntityTarget {
  readonly path: EntityPath;
  readonly entitySet: EdmEntitySet;
  readonly entityType: EdmEntityType;
}

/** The QueryRequest for a collection or entity read with all of the request's query options. */
export function collectionQuery(target: EntityTarget, query: QueryOptions, count: boolean): QueryRequest {
  return {
    entitySet: target.entitySet,
    entityType: target.entityType,
    path: target.path,
    single: false,
    filter: query.filter,
    orderBy: withKeyTieBreaker(query.orderBy, target.entityType),
    skip: query.skip,
    top: query.top,
    skipToken: query.skipToken,
    selectExpand: query.selectExpand,
    count,
    search: query.search,
    customOptions: query.custom,
  };
}

/** The QueryRequest for one entity; `$filter` applies to it (MS-ODATA allows `$filter` on a single entity). */
export function entityQuery(target: EntityTarget, query: QueryOptions | undefined): QueryRequest {
  return {
    entitySet: target.entitySet,
    entityType: target.entityType,
    path: target.path,
    single: true,
    filter: query?.filter,
    orderBy: [],
    skip: undefined,
    top: undefined,
    skipToken: undefined,
    selectExpand: query?.selectExpand ?? NO_SELECT_EXPAND,
    count: false,
    customOptions: query?.custom ?? {},
  };
}

/**
 * Read a provider result into an array (single entities and small pages only). With `limit`, an
 * async iterable is read no further than that (its iterator is closed), so a provider that yields
 * more than the `top` it was asked for cannot make a page hold the whole feed.
 */
export async function collect(entities: readonly Entity[] | AsyncIterable<Entity>, limit = Infinity): Promise<readonly Entity[]> {
  if (isReadonlyArray(entities)) return entities;
  const list: Entity[] = [];
  if (limit <= 0) return list;
  for await (const entity of entities) {
    list.push(entity);
    if (list.length >= limit) break;
  }
  return list;
}

/**
 * Ask the provider, then finish with the evaluator what its result says it left undone
 * (`QueryResult.applied`: a residual filter, the order, the skiptoken, skip/top, the count), so
 * every handler sees a fully applied result. Every read of the service goes through here.
 */
export async function queryProvider(context: HandlerContext, request: QueryRequest): Promise<QueryResult> {
  const result = await context.config.options.provider.query(request, context.request.context);
  return result.applied === undefined ? result : finishQuery(request, result);
}

/** The one entity a path addresses, or undefined when there is none. */
export async function findEntity(context: HandlerContext, target: EntityTarget, query?: QueryOptions): Promise<Entity | undefined> {
  const result = await queryProvider(context, entityQuery(target, query));
  // An array (the usual answer) is read without an await: one promise and microtask less per entity read.
  const entities = result.entities;
  const [entity] = Array.isArray(entities) ? (entities as readonly Entity[]) : await collect(entities);
  return entity;
}

/** The one entity a path addresses, or a 404 naming the last segment. */
export async function loadEntity(context: HandlerContext, target: EntityTarget, query?: QueryOptions): Promise<Entity> {
  const entity = await findEntity(context, target, query);
  if (entity === undefined) throw notFound(target);
  return entity;
}

/** The entity a navigation path starts from: the path without its last hop (`Products(1)` of `Products(1)/Category`). */
export function sourceTarget(target: EntityTarget): EntityTarget | undefined {
  const { path } = target;
  if (!isKeyedPath(path) || path.navigation.length === 0) return undefined;
  const navigation = path.navigation.slice(0, -1);
  const previous = navigation[navigation.length - 1];
  const entitySet = previous === undefined ? path.root.entitySet : previous.entitySet;
  const entityType = previous === undefined ? entitySet.entityType : previous.property.target;
  return { path: { root: path.root, navigation }, entitySet, entityType };
}

/**
 * A count a provider returned, checked: a non-negative safe integer. Anything else (NaN, `'12'`,
 * a fraction) is a provider bug: a TypeError (logged, answered 500), never `"__count":"NaN"`.
 * Undefined stays undefined (a provider that did not count).
 */
export function providerCount(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  const shown =
    typeof value === 'string'
      ? `the string '${value.slice(0, 40)}'`
      : typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean' || value === null
        ? String(value)
        : `a value of type ${Array.isArray(value) ? 'array' : typeof value}`;
  throw new TypeError(`The provider returned ${shown} as a count; a count is a non-negative integer.`);
}

/** 404 for a path whose entity does not exist. */
export function notFound(target: EntityTarget): ODataError {
  const last = target.path.navigation[target.path.navigation.length - 1];
  const segment = last === undefined ? target.path.root.entitySet.name : last.property.name;
  return ODataError.fromCode('RESOURCE_NOT_FOUND', { segment });
}
