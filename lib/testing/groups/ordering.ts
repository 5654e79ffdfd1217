/**
 * `$orderby`, `$top` and `$skip`: each ordering read in one response must give the reference
 * order. A wrong order is reported against the most specific rule it breaks: nulls on the wrong
 * end, ties out of key order, or values out of order.
 */
import { fail, show } from '../check';
import { queryText } from '../client';
import { readIds } from '../entities';
import type { EntityId } from '../entities';
import { RuleViolation } from '../failure';
import { FIXTURE_ROWS } from '../fixture-data';
import { check } from '../suite';
import type { CaseDefinition, GroupDefinition } from '../suite';
import { ORDERINGS, orderingName } from './orderings';
import type { Ordering } from './orderings';

function sameIds(a: readonly EntityId[], b: readonly EntityId[]): boolean {
  return a.length === b.length && a.every((id, index) => id === b[index]);
}

/** Fail with the rule the wrong order `actual` breaks. */
export function judgeOrder(ordering: Ordering, actual: readonly EntityId[], what: string): void {
  if (sameIds(actual, ordering.expected)) return;
  const message = `${what}: expected ${show(ordering.expected)}, got ${show(actual)}`;
  if (!sameIds(ordering.nullsFlipped, ordering.expected) && sameIds(actual, ordering.nullsFlipped)) {
    throw new RuleViolation('orderby.nulls', `${message} (the nulls are on the wrong end)`);
  }
  const valuesOf = (ids: readonly EntityId[]): string[] => ids.map(ordering.sortValues);
  if (actual.length === ordering.expected.length && sameIds(valuesOf(actual), valuesOf(ordering.expected))) {
    throw new RuleViolation('orderby.ties', `${message} (entries with equal sort values are not in key order)`);
  }
  fail(message);
}

function orderbyCase(ordering: Ordering): CaseDefinition {
  const rule = ordering.orderby === undefined ? 'orderby.ties' : 'orderby.values';
  return check(orderingName(ordering), rule, async ({ service }) => {
    const ids = await readIds(service, ordering.set, ordering.set, { $orderby: ordering.orderby });
    judgeOrder(ordering, ids, `GET ${orderingName(ordering)} gave the order`);
  });
}

/** The Items ordering `orderby` (undefined: key order), its rows narrowed to those `keep` keeps. */
function itemOrdering(orderby: string | undefined, keep: (id: EntityId) => boolean = () => true): Ordering {
  const found = ORDERINGS.find((ordering) => ordering.set === 'Items' && ordering.orderby === orderby);
  if (found === undefined) throw new Error(`no ordering of Items by ${String(orderby)}`);
  return { ...found, expected: found.expected.filter(keep), nullsFlipped: found.nullsFlipped.filter(keep) };
}

/** `path` with `query`: the ids `ordering` gives from `skip`, at most `top`. */
function slice(query: Readonly<Record<string, string | number>>, ordering: Ordering, path = 'Items'): CaseDefinition {
  const text = queryText(query);
  const skip = Number(query.$skip ?? 0);
  const end = query.$top === undefined ? undefined : skip + Number(query.$top);
  const sliced: Ordering = { ...ordering, expected: ordering.expected.slice(skip, end), nullsFlipped: ordering.nullsFlipped.slice(skip, end) };
  return check(`${path}?${text}`, 'query.top-skip', async ({ service }) => {
    judgeOrder(sliced, await readIds(service, 'Items', path, query), `GET ${path}?${text} gave`);
  });
}

const item = (id: EntityId) => FIXTURE_ROWS.Items.find((row) => row.ID === id);

const topSkip = [
  slice({ $top: 0 }, itemOrdering(undefined)),
  slice({ $top: 3 }, itemOrdering(undefined)),
  slice({ $skip: 12 }, itemOrdering(undefined)),
  slice({ $skip: 100 }, itemOrdering(undefined)),
  slice({ $orderby: 'Rank desc', $skip: 2, $top: 4 }, itemOrdering('Rank desc')),
  slice(
    { $orderby: 'Name', $top: 2 },
    itemOrdering('Name', (id) => item(id)?.Category === 1),
    'Categories(1)/Items',
  ),
  slice(
    { $filter: 'Flag', $orderby: 'Created desc', $skip: 1, $top: 2 },
    itemOrdering('Created desc', (id) => item(id)?.Flag === true),
  ),
];

/** `$orderby` per ordering, and `$top`/`$skip`. */
export const orderingGroups: readonly GroupDefinition[] = [
  { name: '$orderby', cases: ORDERINGS.map(orderbyCase) },
  { name: '$top and $skip', cases: topSkip },
];
