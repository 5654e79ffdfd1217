/**
 * `$orderby` (MS-ODATA §2.2.3.6.1.6): parsed and type-checked by the expression layer, restricted
 * to primitive-typed items; and the key tie-breaker that makes paging deterministic.
 */
import { ODataError } from '../errors';
import type { EdmEntityType, EdmModel } from '../edm/model';
import { checkExpression, parseOrderBy } from './expr';
import type { MemberNode } from './expr/ast';
import type { OrderByItem } from './types';

/**
 * Parse and type-check a `$orderby` value against the entity type (`maxDepth`: nesting limit, as for `$filter`).
 *
 *   orderbyQueryOp = "$orderby=" orderbyItem *( "," orderbyItem )
 *   orderbyItem    = commonExpression [ WSP ( "asc" / "desc" ) ]
 *
 * Syntax and type errors come from the expression layer (FILTER_*); an item that is not
 * primitive-typed (an entity, a complex value, the `null` literal) is 400 QUERY_INVALID_VALUE.
 */
export function parseOrderByOption(text: string, entityType: EdmEntityType, model: EdmModel, maxDepth?: number): OrderByItem[] {
  const items: OrderByItem[] = [];
  for (const item of parseOrderBy(text, { maxDepth })) {
    const expression = checkExpression(item.expression, entityType, model);
    const type = expression.type;
    if (type === undefined || (type.kind !== 'Primitive' && type.kind !== 'Dynamic')) {
      const start = expression.loc?.start ?? 0;
      const end = expression.loc?.end ?? text.length;
      throw ODataError.fromCode(
        'QUERY_INVALID_VALUE',
        {
          value: text,
          option: '$orderby',
          detail: `'${text.slice(start, end)}' at position ${start} is not of a primitive type and cannot be sorted on`,
        },
        { target: '$orderby', position: start },
      );
    }
    items.push({ expression, direction: item.direction });
  }
  return items;
}

const KEY_ORDER = new WeakMap<EdmEntityType, readonly OrderByItem[]>();

/** Ascending order items on each key property, typed as the checker would type them; built once per type. */
function keyOrder(entityType: EdmEntityType): readonly OrderByItem[] {
  let items = KEY_ORDER.get(entityType);
  if (items === undefined) {
    items = Object.freeze(
      entityType.key.flatMap((property): OrderByItem[] => {
        if (property.type.kind !== 'Primitive') return [];
        const expression: MemberNode = Object.freeze({
          kind: 'Member',
          path: Object.freeze([property.name]),
          steps: Object.freeze([Object.freeze({ kind: 'Property', name: property.name, property })]),
          type: Object.freeze({ kind: 'Primitive', name: property.type.name }),
        } as const);
        return [Object.freeze({ expression, direction: 'asc' })];
      }),
    );
    KEY_ORDER.set(entityType, items);
  }
  return items;
}

function ordersByProperty(item: OrderByItem, name: string): boolean {
  const expression = item.expression;
  return expression.kind === 'Member' && expression.path.length === 1 && expression.path[0] === name;
}

/**
 * The client's `$orderby` followed by every key property it does not already sort on, ascending.
 * A total order makes `$skip`/`$top` pages and `$skiptoken` positions stable (MS-ODATA §2.2.3.6.1.9);
 * WCF Data Services appends the key the same way. Returns `orderBy` itself when nothing is missing.
 */
export function withKeyTieBreaker(orderBy: readonly OrderByItem[], entityType: EdmEntityType): readonly OrderByItem[] {
  const keys = keyOrder(entityType);
  // The common case, no $orderby: the frozen per-type key order itself, no array per request.
  if (orderBy.length === 0) return keys;
  const missing = keys.filter((key) => {
    const name = key.expression.kind === 'Member' ? key.expression.path[0] : '';
    return !orderBy.some((item) => ordersByProperty(item, name));
  });
  return missing.length === 0 ? orderBy : [...orderBy, ...missing];
}
