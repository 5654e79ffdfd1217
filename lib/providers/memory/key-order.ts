/**
 * Whether a set's records iterate in ascending key order, the order a query without `$orderby`
 * must return. Usually they do (keys are loaded and generated in ascending order); then a page is
 * the first records of the Map, with no sort. The answer is cached per table and version: checked
 * in O(n) once after a change of the set, answered in O(1) for every read in between.
 */
import type { EdmEntityType } from '../../edm/model';
import { compileOrderBy } from '../../provider/evaluate';
import { withKeyTieBreaker } from '../../uri';
import type { StoredValues } from './entity-values';
import type { SetTable } from './store-core';

type Comparator = (a: StoredValues, b: StoredValues) => number;

/** Per entity type: the order `$orderby` falls back to (its key, ascending), compiled by the shared evaluator. */
const KEY_COMPARATORS = new WeakMap<EdmEntityType, Comparator>();

function keyComparator(type: EdmEntityType): Comparator {
  let compare = KEY_COMPARATORS.get(type);
  if (compare === undefined) {
    compare = compileOrderBy(withKeyTieBreaker([], type));
    KEY_COMPARATORS.set(type, compare);
  }
  return compare;
}

/** One store's answers, per table: whether its records were in key order at the version checked last. */
export class KeyOrderCache {
  private readonly known = new WeakMap<SetTable, { readonly version: number; readonly ordered: boolean }>();

  /** True when the table's records iterate in ascending key order. */
  inKeyOrder(table: SetTable): boolean {
    const known = this.known.get(table);
    if (known !== undefined && known.version === table.version) return known.ordered;
    const compare = keyComparator(table.entitySet.entityType);
    let ordered = true;
    let previous: StoredValues | undefined;
    for (const record of table.records.values()) {
      if (previous !== undefined && compare(previous, record.values) >= 0) {
        ordered = false;
        break;
      }
      previous = record.values;
    }
    this.known.set(table, { version: table.version, ordered });
    return ordered;
  }
}
