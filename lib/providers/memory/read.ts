/**
 * The read side of MemoryProvider without query options: walking a resource path through key
 * lookups and link tables, and copying stored entities into results (with `$expand`; `$select`
 * is the writers' to apply). Results are always fresh objects, so a caller can never change the store.
 */
import type { EdmEntitySet, EdmNavigationProperty } from '../../edm/model';
import type { Entity } from '../../provider/types';
import type { EntityPath, SelectExpand } from '../../uri/types';
import { keyIdentity } from '../../provider/keys';
import { isKeyedPath, pathNotFound } from '../../provider/not-found';
import type { Store, StoredValues } from './store';
import { cloneValue } from './values';

/** Where a path ends: a whole set, the entities linked over a last collection hop, or at most one entity. */
type PathEnd =
  | { readonly kind: 'set'; readonly entitySet: EdmEntitySet }
  | { readonly kind: 'related'; readonly entitySet: EdmEntitySet; readonly key: string; readonly property: EdmNavigationProperty }
  | { readonly kind: 'entities'; readonly entities: StoredValues[] };

/**
 * Walk a path through key lookups and link tables; a step that does not exist is the kit's 404
 * (`pathNotFound`): a key that matches nothing or is not linked, a single-valued hop with no link
 * before the last. A single-valued last hop with no link gives no entity.
 */
function walkPath(store: Store, path: EntityPath): PathEnd {
  if (!isKeyedPath(path)) return { kind: 'set', entitySet: path.root.entitySet };
  const { entitySet: rootSet, key: rootKey } = path.root;
  let entitySet = rootSet;
  let key = store.keyString(rootSet, rootKey);
  let current = store.getByKeyString(rootSet, key);
  if (current === undefined) throw pathNotFound(path, 0);
  for (let i = 0; i < path.navigation.length; i++) {
    const step = path.navigation[i];
    const targets = store.relatedKeys(entitySet, key, step.property);
    if (step.key !== undefined) {
      const wanted = store.keyString(step.entitySet, step.key);
      // Linked to the source, not merely present in the target set (MS-ODATA §2.2.3.1, navigation with key).
      current = targets.has(wanted) ? store.getByKeyString(step.entitySet, wanted) : undefined;
      if (current === undefined) throw pathNotFound(path, i + 1);
      key = wanted;
    } else if (step.property.isCollection) {
      // A many-valued hop without a key addresses a collection: always the last hop (NavigationStep).
      return { kind: 'related', entitySet, key, property: step.property };
    } else {
      const [only] = targets;
      current = only === undefined ? undefined : store.getByKeyString(step.entitySet, only);
      if (current === undefined) {
        if (i === path.navigation.length - 1) return { kind: 'entities', entities: [] };
        throw pathNotFound(path, i + 1);
      }
      key = only;
    }
    entitySet = step.entitySet;
  }
  return { kind: 'entities', entities: [current] };
}

/** The stored entities a path addresses: the whole set, one entity by key, or what navigation hops reach. */
export function resolvePath(store: Store, path: EntityPath): StoredValues[] {
  const end = walkPath(store, path);
  if (end.kind === 'set') return store.all(end.entitySet);
  if (end.kind === 'related') return store.related(end.entitySet, end.key, end.property);
  return end.entities;
}

/**
 * How many entities a path addresses, without reading them: a set's size, or the number of keys
 * linked over the last hop (every linked key is stored: the store drops an entity's links with it).
 */
export function countPath(store: Store, path: EntityPath): number {
  const end = walkPath(store, path);
  if (end.kind === 'set') return store.size(end.entitySet);
  if (end.kind === 'related') return store.relatedKeys(end.entitySet, end.key, end.property).size;
  return end.entities.length;
}

/**
 * Copy every structural property, declared and dynamic, whatever `$select` says: the writers apply
 * `$select`, and the service needs the whole entity for its ETag and the `$skiptoken` of a next link.
 */
function copyProperties(values: StoredValues): Entity {
  const out: Entity = {};
  // for-in (stored values are plain objects) allocates no key array; primitives need no clone call.
  for (const name in values) {
    const value = values[name];
    out[name] = value === null || typeof value !== 'object' ? value : cloneValue(value);
  }
  return out;
}

/**
 * Expanded entries a query copies at once; past them, expanded feeds are async iterables that copy
 * one entry at a time as the writer reaches it. So `$expand=Products/Supplier/Products` over a big
 * supplier costs what the response writes (which stops at `limits.maxExpandedEntities`), not the
 * whole tree up front, while small expansions stay plain arrays (the writers' fast path).
 */
export const EAGER_EXPANDED = 2000;

/** The expanded entries a query may still copy at once. */
export interface ExpansionAllowance {
  left: number;
}

/**
 * A result entity: a copy of all the stored one's properties and, per expanded navigation
 * property, an array or an async iterable (many-valued) or an entity or null (single-valued),
 * recursively. Navigation properties that are not expanded are left out (the writers emit them as
 * deferred links). `allowance` is shared by the entities of one query (see EAGER_EXPANDED).
 */
export function projectEntity(
  store: Store,
  entitySet: EdmEntitySet,
  values: StoredValues,
  selectExpand: SelectExpand,
  allowance: ExpansionAllowance = { left: EAGER_EXPANDED },
): Entity {
  const type = entitySet.entityType;
  const out = copyProperties(values);
  if (selectExpand.expand.length === 0) return out;
  const key = store.locate(values)?.key ?? keyIdentity(type, values);
  for (const item of selectExpand.expand) {
    const related = store.related(entitySet, key, item.property);
    if (!item.property.isCollection) {
      allowance.left--;
      out[item.property.name] = related.length === 0 ? null : projectEntity(store, item.entitySet, related[0], item, allowance);
    } else if (related.length <= allowance.left) {
      allowance.left -= related.length;
      out[item.property.name] = related.map((child) => projectEntity(store, item.entitySet, child, item, allowance));
    } else {
      // Past the allowance: copied lazily, and so is everything below (the allowance is spent).
      out[item.property.name] = projectLazily(store, item.entitySet, related, item, 0);
    }
  }
  return out;
}

/**
 * The entities of a page copied one at a time as a consumer (the feed writer) asks for them, so a
 * large feed never holds all copies at once. The page holds references to immutable stored values,
 * so each copy shows the entity as it was when the page was selected, with its links as they are
 * when it is copied. Each entity may copy `eager` expanded entries at once.
 */
export async function* projectLazily(
  store: Store,
  entitySet: EdmEntitySet,
  page: readonly StoredValues[],
  selectExpand: SelectExpand,
  eager = EAGER_EXPANDED,
): AsyncIterable<Entity> {
  for (let i = 0; i < page.length; i++) yield projectEntity(store, entitySet, page[i], selectExpand, { left: eager });
}
