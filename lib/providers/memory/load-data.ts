/**
 * MemoryProvider's store as the target of the kit's data loader (`loadEntityData`, which checks
 * the data and reports every problem): entities go into the set tables, links into the link
 * tables, sharing the stored key strings.
 */
import type { EdmAssociationSet } from '../../edm/model';
import type { ForeignKeyMap, MemoryData } from '../../provider/entity-data';
import { loadEntityData, type EntityDataTarget } from '../../provider/load-entity-data';
import type { LinkTable } from './link-table';
import type { Store } from './store';

/** Load `data` into an empty store, with `links` turning foreign-key fields into links row by row; throws MEMORY_DATA_INVALID listing every problem found. */
export function loadData(store: Store, data: MemoryData, links?: ForeignKeyMap): void {
  const tables = store.linkTables.tables;
  const table = (associationSet: EdmAssociationSet): LinkTable => {
    const found = tables.get(associationSet);
    if (found === undefined) throw new TypeError(`The store has no link table for '${associationSet.name}'.`);
    return found;
  };
  const target: EntityDataTarget = {
    stored: (entitySet, key) => store.recordOf(entitySet, key)?.key,
    store: (entitySet, key, values) => store.seed(entitySet, key, values),
    linked: (associationSet, from, source, other) => table(associationSet).has(from, source, other),
    partnerCount: (associationSet, from, key) => table(associationSet).partnerCount(from, key),
    link: (associationSet, from, source, other) => {
      table(associationSet).add(from, source, other);
    },
  };
  loadEntityData(store.model, data, target, { links, now: store.clock });
}
