/**
 * Whether a set's records iterate in ascending key order, the order a query without `$orderby`
 * must return, and if so its keys as an array in that order. Usually they do (keys are loaded and
 * generated in ascending order); then a page is read straight from the Map with no sort, and a
 * `$skiptoken` position is found by binary search over the array, in O(log n) (scan.ts).
 *
 * The answer is found in O(n) once and then kept up to date by the store's changes: appending a
 * key after the last one (the usual insert) is O(1), deleting a key from an ordered set is a binary
 * search and an array splice; a change that may reorder the set (an insert before the last key, a
 * rollback that puts a deleted record back) forgets the answer until the next read asks again.
 */
import type { EdmEntityType } from '../../edm/model';
import { compileOrderBy } from '../../evaluate/evaluate';
import { withKeyTieBreaker } from '../../uri';
import type { StoredValues } from '../../provider/entry-values';

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

/** What KeyOrder reads: a set's records by canonical key, in the Map's (insertion) order. */
interface RecordsOf {
  readonly records: ReadonlyMap<string, { readonly values: StoredValues }>;
}

/**
 * One set's key order. `keys` holds the canonical keys in key order while the records are known to
 * iterate in key order; `false` means known not to; undefined means not known since the last change.
 */
export class KeyOrder {
  private readonly compare: Comparator;
  private known: string[] | false | undefined;

  constructor(entityType: EdmEntityType) {
    this.compare = keyComparator(entityType);
  }

  /**
   * The canonical keys in key order when `table`'s records iterate in key order (then the array and
   * the Map's iteration agree one to one), else undefined. O(n) after a reordering change, O(1) otherwise.
   */
  orderedKeys(table: RecordsOf): readonly string[] | undefined {
    if (this.known === undefined) this.known = this.check(table);
    return this.known === false ? undefined : this.known;
  }

  /** A record was added at the end of the Map: still in order when its key comes after the last one. */
  appended(table: RecordsOf, key: string, values: StoredValues): void {
    const keys = this.known;
    if (keys === false || keys === undefined) return; // out of order stays out of order; unknown stays unknown
    const last = keys.length === 0 ? undefined : table.records.get(keys[keys.length - 1]);
    if (last === undefined || this.compare(last.values, values) < 0) keys.push(key);
    else this.known = false;
  }

  /**
   * The record with `values` (already gone from the Map) was deleted: an ordered set stays ordered
   * and loses the key. A set out of order may now be in order: it is checked again when read.
   */
  removed(table: RecordsOf, key: string, values: StoredValues): void {
    const keys = this.known;
    if (keys === false || keys === undefined) {
      this.known = undefined;
      return;
    }
    // The first index whose record does not come before the removed one: the removed key itself.
    let low = 0;
    let high = keys.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const record = keys[middle] === key ? undefined : table.records.get(keys[middle]);
      if (record !== undefined && this.compare(record.values, values) < 0) low = middle + 1;
      else high = middle;
    }
    if (keys[low] === key) keys.splice(low, 1);
    else this.known = undefined; // not where it should be: forget rather than guess
  }

  /** The Map's order may have changed in any way (a rollback reinserted records): check again on the next read. */
  forget(): void {
    this.known = undefined;
  }

  private check(table: RecordsOf): string[] | false {
    const keys = new Array<string>(table.records.size);
    let index = 0;
    let previous: StoredValues | undefined;
    for (const [key, record] of table.records) {
      if (previous !== undefined && this.compare(previous, record.values) >= 0) return false;
      keys[index++] = key;
      previous = record.values;
    }
    return keys;
  }
}
