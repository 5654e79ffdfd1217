/**
 * Follow-up reads without N+1: entities the service already holds (a service operation's result)
 * read again with navigation loaded, one provider query per chunk of keys (`ID eq 1 or ID eq 2 …`),
 * never one per entity. A provider expands each query's `$expand` its own way (SqlProvider: one
 * statement per navigation property and level), so the number of reads and statements depends on
 * the `$expand` tree and the chunk count, not on how many entities there are.
 */
import type { EdmEntitySet } from '../edm/model';
import { printKeyPredicate } from '../edm';
import { anyOf, keyCondition } from '../provider/nodes';
import type { Entity, QueryRequest } from '../provider/types';
import { entityKeyOf, withKeyTieBreaker } from '../uri';
import type { EntityKey, SelectExpand } from '../uri/types';
import { mapConcurrently } from '../util';
import type { HandlerContext } from './context';
import { collect, keyOfEntity, queryProvider } from './query-request';

/**
 * Keys per provider query: a condition of 100 keys nests 7 `or`s deep (a balanced tree) and binds
 * 100 parameters per key property, far inside what filter translators and SQL databases accept.
 */
export const KEYS_PER_READ = 100;

/** The query for the entities of `entitySet` with one of `keys`, with `selectExpand` applied. */
function keysQuery(
  entitySet: EdmEntitySet,
  keys: readonly EntityKey[],
  selectExpand: SelectExpand,
  customOptions: QueryRequest['customOptions'],
): QueryRequest {
  const entityType = entitySet.entityType;
  return {
    entitySet,
    entityType,
    path: { root: { entitySet, key: undefined }, navigation: [] },
    single: false,
    filter: anyOf(keys.map((key) => keyCondition(entityType, key))),
    orderBy: withKeyTieBreaker([], entityType),
    skip: undefined,
    top: undefined,
    skipToken: undefined,
    selectExpand,
    count: false,
    customOptions,
  };
}

/**
 * Each of `entities` (members of `entitySet`) as the provider reads it with `selectExpand`, in
 * the same order: undefined for one the provider does not find. Entities with the same key are
 * read once. Queries of `KEYS_PER_READ` keys run at most `limits.maxConcurrentReads` at a time.
 */
export async function readByKeys(
  context: HandlerContext,
  entitySet: EdmEntitySet,
  entities: readonly Entity[],
  selectExpand: SelectExpand,
): Promise<readonly (Entity | undefined)[]> {
  const { limits } = context.config.options;
  const entityType = entitySet.entityType;
  // The key predicate's text is an entity's identity: the form its URI (the client's identity) has.
  const keys = new Map<string, EntityKey>();
  const identities = entities.map((entity) => {
    const key = keyOfEntity(entityType, entity);
    const identity = printKeyPredicate(entityType, key);
    keys.set(identity, key);
    return identity;
  });
  const unique = [...keys.values()];
  const chunks: EntityKey[][] = [];
  for (let start = 0; start < unique.length; start += KEYS_PER_READ) chunks.push(unique.slice(start, start + KEYS_PER_READ));
  const found = new Map<string, Entity>();
  await mapConcurrently(chunks, limits.maxConcurrentReads, async (chunk) => {
    const result = await queryProvider(context, keysQuery(entitySet, chunk, selectExpand, context.query.custom));
    for (const entity of await collect(result.entities)) {
      const key = entityKeyOf(entityType, entity);
      if (key !== undefined) found.set(printKeyPredicate(entityType, key), entity);
    }
  });
  return identities.map((identity) => found.get(identity));
}
