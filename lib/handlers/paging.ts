/**
 * Server-driven paging (MS-ODATA §2.2.3.6.1.9 "Skip Token"): page limits and next links. The next
 * link keeps every other query option, drops `$skip` (already applied), lowers `$top` by what this
 * page returned and adds a `$skiptoken` that encodes the last entry's `$orderby` values and key. The
 * token needs no server memory, so any instance of the service can answer the next request.
 */
import type { EdmEntitySet, EdmEntityType, EdmModel } from '../edm/model';
import { encodeSkipToken } from '../uri';
import { toWellFormed } from '../util';
import type { ExprNode } from '../uri/expr/ast';
import type { ExpandItem, OrderByItem, QueryOptions, SelectExpand, SkipTokenPosition } from '../uri/types';
import { navigationExpansion as kitNavigationExpansion } from '../provider/pushdown';

/** How many entries to ask the provider for, and the page size that applies (if any). */
interface PagePlan {
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

/**
 * Encode a decoded query option value for a URI we write. Total: an unpaired surrogate (only a
 * provider's data can hold one; the readers refuse them) becomes U+FFFD instead of a URIError.
 */
export function encodeQueryValue(value: string): string {
  return encodeURIComponent(toWellFormed(value)).replace(READABLE, (escape) => decodeURIComponent(escape));
}

function freezeExpansion(items: readonly ExpandItem[]): readonly ExpandItem[] {
  return Object.freeze(items.map((item) => Object.freeze({ ...item, expand: freezeExpansion(item.expand) })));
}

/** The `$expand` tree of the navigation properties `expressions` read through (the kit's), or undefined when they read none. */
export function navigationExpansion(expressions: readonly (ExprNode | undefined)[], entitySet: EdmEntitySet, model: EdmModel): SelectExpand | undefined {
  const items = kitNavigationExpansion(
    expressions.filter((expression): expression is ExprNode => expression !== undefined),
    entitySet,
    model,
  );
  return items.length === 0 ? undefined : Object.freeze({ select: undefined, expand: freezeExpansion(items) });
}

/**
 * The absolute URI of the next page: its `$skiptoken` is `position` (the last entry's, at the
 * provider's precision) for the client's `$orderby` items.
 */
export function nextLink(
  serviceRoot: string,
  resourcePath: string,
  query: QueryOptions,
  userOrderBy: readonly OrderByItem[],
  entityType: EdmEntityType,
  position: SkipTokenPosition,
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
  const token = encodeSkipToken(position.orderByValues.slice(0, userOrderBy.length), position.key, entityType, userOrderBy);
  parts.push(`$skiptoken=${encodeQueryValue(token)}`);
  return `${serviceRoot}${resourcePath}?${parts.join('&')}`;
}
