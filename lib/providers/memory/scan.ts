/**
 * The fast read of a whole entity set: when a query asks for key order (no `$orderby`, so only the
 * key tie-breaker) and the store already iterates the set in key order, a page is found in one pass
 * over the stored records, with no copy of the set, no sort and an early stop once the page is full.
 * The semantics are those of the shared `applyQuery` (filter, count, skiptoken, skip, top).
 */
import type { EdmEntityType } from '../../edm/model';
import { compileFilter, compileSkipTokenFilter } from '../../provider/evaluate';
import type { NavigationAccess, QueryPart } from '../../provider/evaluate';
import { withKeyTieBreaker } from '../../uri';
import type { OrderByItem } from '../../uri/types';
import type { StoredValues } from './entity-values';
import type { StoredRecord } from './store-core';

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
 * One pass over `records`, which must be in `part.orderBy` order (the key order): `$filter`, the
 * count (after filtering, before paging: MS-ODATA §2.2.3.6.1.10), the `$skiptoken` position,
 * `$skip` and `$top`. Without a filter the count is `size`, so the pass stops at the page's end.
 */
export function scanPage(records: Iterable<StoredRecord>, size: number, part: QueryPart, navigate: NavigationAccess): StoredPage {
  const keep = part.filter === undefined ? undefined : compileFilter(part.filter, navigate);
  const after = part.skipToken === undefined ? undefined : compileSkipTokenFilter(part.orderBy, part.skipToken, navigate);
  let toSkip = Math.max(0, part.skip ?? 0);
  const top = part.top === undefined ? Infinity : Math.max(0, part.top);
  // Only a filtered count needs the whole pass.
  const countAll = part.count && keep !== undefined;
  const page: StoredValues[] = [];
  let matched = 0;
  if (top === 0 && !countAll) return { page, count: part.count ? size : undefined };
  for (const record of records) {
    const values = record.values;
    if (keep !== undefined && !keep(values)) continue;
    matched++;
    if (page.length >= top) continue;
    if (after !== undefined && !after(values)) continue;
    if (toSkip > 0) {
      toSkip--;
      continue;
    }
    page.push(values);
    if (page.length >= top && !countAll) break;
  }
  return { page, count: part.count ? (keep === undefined ? size : matched) : undefined };
}
