/**
 * Follow-up reads without N+1: entities the service already holds (a service operation's result)
 * read again with navigation loaded, one provider query per chunk of keys (`ID eq 1 or ID eq 2 …`),
 * never one per entity. A provider expands each query's `$expand` its own way (SqlProvider: one
 * statement per navigation property and level), so the number of reads and statements depends on
 * the `$expand` tree and the chunk count, not on how many entities there are.
 */
import type { EdmEntitySet } from '../edm/model';
import { isPrimitiveValue } from '../edm/primitives';
import { entityKey, keyIdentity } from '../provider/keys';
import { anyOf, keyCondition } from '../provider/nodes';
import type { Entity, QueryRequest } from '../provider/types';
import { withKeyTieBreaker } from '../uri';
import type { EntityKey, SelectExpand } from '../uri/types';
import { mapConcurrently } from '../util';
import type { HandlerContext } from './context';
import { collect, queryProvider } from './query-request';

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
  const keys = new Map<string, EntityKey>();
  const identities = entities.map((entity) => {
    const key = entityKey(entityType, entity);
    const identity = keyIdentity(entityType, key);
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
      // An entity the provider returned without its key cannot be matched (a provider bug): left out.
      if (entityType.key.every((property) => isPrimitiveValue(entity[property.name]))) found.set(keyIdentity(entityType, entity), entity);
    }
  });
  return identities.map((identity) => found.get(identity));
}
