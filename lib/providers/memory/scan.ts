/**
 * The fast read of a whole entity set: when a query asks for key order (no `$orderby`, so only the
 * key tie-breaker) and the store already iterates the set in key order, a page is read straight
 * from the stored records, with no copy of the set and no sort: a `$skiptoken` position by binary
 * search over the keys in key order, then record after record until the page is full. The
 * semantics are those of the shared `applyQuery` (filter, count, skiptoken, skip, top).
 */
import type { EdmEntityType } from '../../edm/model';
import { compileFilter, compileSkipTokenFilter } from '../../evaluate/evaluate';
import type { NavigationAccess, QueryPart } from '../../evaluate/evaluate';
import { withKeyTieBreaker } from '../../uri';
import type { OrderByItem } from '../../uri/types';
import type { StoredValues } from '../../provider/entry-values';
import type { KeyOrderedRecords } from './store-reads';

/** A page of stored values (references, not copies) and the count when it was asked for. */
export interface StoredPage {
  readonly page: StoredValues[];
  readonly count: number | undefined;
}

/**
 * True when `orderBy` is exactly the key tie-breaker alone (the request had no `$orderby`): the
 * items `withKeyTieBreaker` appends are shared objects per type, so identity is the test.
 */
export function ordersByKeyOnly(orderBy: readonly OrderByItem[], entityType: EdmEntityType): boolean {
  const keyItems = withKeyTieBreaker([], entityType);
  if (orderBy.length !== keyItems.length) return false;
  for (let i = 0; i < orderBy.length; i++) if (orderBy[i] !== keyItems[i]) return false;
  return true;
}

/**
 * True when `orderBy` sorts exactly as the key order: the key tie-breaker alone, or the client's
 * `$orderby` naming the key properties in key order, ascending (`$orderby=ID`), which sorts the
 * same and whose `$skiptoken` positions compare the same. Such pages are read from the stored order.
 */
export function ordersByKey(orderBy: readonly OrderByItem[], entityType: EdmEntityType): boolean {
  if (ordersByKeyOnly(orderBy, entityType)) return true;
  const key = entityType.key;
  if (orderBy.length !== key.length) return false;
  return orderBy.every(({ expression, direction }, index) => {
    if (direction !== 'asc' || expression.kind !== 'Member' || expression.base !== undefined) return false;
    return expression.path.length === 1 && expression.path[0] === key[index].name;
  });
}

/**
 * The index in `keys` of the first record strictly after the `$skiptoken` position: a binary search
 * (about log2(n) comparisons) with the shared evaluator's position test, which is monotone over
 * records in key order (false up to the position's entity, true after it).
 */
function seek(ordered: KeyOrderedRecords, after: (values: StoredValues) => boolean): number {
  const { records, keys } = ordered;
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const record = records.get(keys[middle]);
    // Unreachable for a consistent store (every key of the array is in the Map); treated as before the position.
    if (record === undefined || !after(record.values)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * A page of a set stored in key order, when `part.orderBy` is the key order: `$filter`, the count
 * (after filtering, before paging: MS-ODATA §2.2.3.6.1.10), the `$skiptoken` position, `$skip` and
 * `$top`. The position is found by binary search; the page is read from there and stops when
 * full. Without a filter the count is the set's size; only a filtered count reads every record.
 */
export function scanPage(ordered: KeyOrderedRecords, part: QueryPart, navigate: NavigationAccess): StoredPage {
  const { records, keys } = ordered;
  const keep = part.filter === undefined ? undefined : compileFilter(part.filter, navigate);
  const start = part.skipToken === undefined ? 0 : seek(ordered, compileSkipTokenFilter(part.orderBy, part.skipToken, navigate));
  let toSkip = Math.max(0, part.skip ?? 0);
  const top = part.top === undefined ? Infinity : Math.max(0, part.top);
  const page: StoredValues[] = [];
  if (!part.count || keep === undefined) {
    if (top > 0) {
      for (let index = start; index < keys.length; index++) {
        const record = records.get(keys[index]);
        if (record === undefined) continue;
        const values = record.values;
        if (keep !== undefined && !keep(values)) continue;
        if (toSkip > 0) {
          toSkip--;
          continue;
        }
        page.push(values);
        if (page.length >= top) break;
      }
    }
    return { page, count: part.count ? records.size : undefined };
  }
  // A filtered count needs every record: one pass over the Map, whose order is the keys' order.
  let matched = 0;
  let index = 0;
  for (const record of records.values()) {
    const position = index++;
    const values = record.values;
    if (!keep(values)) continue;
    matched++;
    if (position < start || page.length >= top) continue;
    if (toSkip > 0) {
      toSkip--;
      continue;
    }
    page.push(values);
  }
  return { page, count: matched };
}
