/**
 * Server-driven paging (MS-ODATA §2.2.3.6.1.9 "Skip Token"): page limits and next links. The next
 * link keeps every other query option, drops `$skip` (already applied), lowers `$top` by what this
 * page returned and adds a `$skiptoken` that encodes the last entry's `$orderby` values and key. The
 * token needs no server memory, so any instance of the service can answer the next request.
 */
import type { EdmEntityType } from '../edm/model';
import { evaluate } from '../provider/evaluate';
import type { Entity } from '../provider/types';
import { encodeSkipToken } from '../uri';
import type { OrderByItem, QueryOptions } from '../uri/types';

/** How many entries to ask the provider for, and the page size that applies (if any). */
export interface PagePlan {
  /** Entries this page shows at most; undefined when paging does not apply. */
  readonly pageSize: number | undefined;
  /** `top` for the provider: one more than a page, to learn whether a next page exists. */
  readonly providerTop: number | undefined;
}

export function planPage(clientTop: number | undefined, pageSize: number | undefined): PagePlan {
  if (pageSize === undefined || (clientTop !== undefined && clientTop <= pageSize)) {
    return { pageSize: undefined, providerTop: clientTop };
  }
  return { pageSize, providerTop: pageSize + 1 };
}

// Characters that are safe in a query value and keep next links readable (`$skiptoken='Milk',1`).
const READABLE = /%(24|27|28|29|2C|2F|3A|40)/g;

/** Encode a decoded query option value for a URI we write. */
export function encodeQueryValue(value: string): string {
  return encodeURIComponent(value).replace(READABLE, (escape) => decodeURIComponent(escape));
}

/** The absolute URI of the next page. */
export function nextLink(
  serviceRoot: string,
  resourcePath: string,
  query: QueryOptions,
  userOrderBy: readonly OrderByItem[],
  entityType: EdmEntityType,
  lastEntity: Entity,
  returned: number,
): string {
  const parts: string[] = [];
  for (const [name, value] of query.raw) {
    if (name === '$skiptoken' || name === '$skip') continue;
    if (name === '$top') {
      const remaining = Number(value) - returned;
      parts.push(`$top=${remaining}`);
      continue;
    }
    parts.push(`${encodeQueryValue(name)}=${encodeQueryValue(value)}`);
  }
  const orderByValues = userOrderBy.map((item) => evaluate(item.expression, lastEntity));
  const key: Record<string, Entity[string]> = {};
  for (const property of entityType.key) key[property.name] = lastEntity[property.name];
  const token = encodeSkipToken(orderByValues, key, entityType, userOrderBy);
  parts.push(`$skiptoken=${encodeQueryValue(token)}`);
  return `${serviceRoot}${resourcePath}?${parts.join('&')}`;
}
