/**
 * The orderings the `$orderby` and paging cases use, each with its reference sort keys: every
 * primitive type with nulls and duplicates, mixed directions, paths through complex and navigation
 * properties, function calls, composite and string keys, and date/time ties.
 */
import { orderId } from '../entities';
import type { EntityId, FixtureSet } from '../entities';
import { FIXTURE_ROWS } from '../fixture-data';
import type { CustomerRow, EventRow, ItemRow, NoteRow, OrderRow, TagRow } from '../fixture-data';
import { base64Hex, decimalKey, durationTicks, sortRows, ticks } from '../reference';
import type { Comparable, SortKey } from '../reference';
import { categoryName } from './filter-cases';

/** An `$orderby` over a set and the order of ids it must give (and the order a store with flipped nulls gives). */
export interface Ordering {
  readonly set: FixtureSet;
  /** The `$orderby` text; undefined for the default (key) order. */
  readonly orderby: string | undefined;
  /** The ids in the order the rule gives. */
  readonly expected: readonly EntityId[];
  /** The ids with nulls on the wrong end; equal to `expected` when no sort value is null. */
  readonly nullsFlipped: readonly EntityId[];
  /** The sort values of an id (to tell a wrong tie order from a wrong value order). */
  readonly sortValues: (id: EntityId) => string;
}

function ordering<R>(
  set: FixtureSet,
  orderby: string | undefined,
  rows: readonly R[],
  keys: readonly SortKey<R>[],
  keyOf: (row: R) => readonly Comparable[],
  idOf: (row: R) => EntityId,
): Ordering {
  const values = new Map(rows.map((row) => [idOf(row), JSON.stringify(keys.map((key) => String(key.value(row))))]));
  return {
    set,
    orderby,
    expected: sortRows(rows, keys, keyOf).map(idOf),
    nullsFlipped: sortRows(rows, keys, keyOf, true).map(idOf),
    sortValues: (id) => values.get(id) ?? '?',
  };
}

const asc = <R>(value: (row: R) => Comparable | null): SortKey<R> => ({ value });
const desc = <R>(value: (row: R) => Comparable | null): SortKey<R> => ({ value, descending: true });

const { Items, Customers, Orders, Events, Tags, Notes } = FIXTURE_ROWS;

function items(orderby: string | undefined, ...keys: SortKey<ItemRow>[]): Ordering {
  return ordering(
    'Items',
    orderby,
    Items,
    keys,
    (item) => [item.ID],
    (item) => item.ID,
  );
}

function customers(orderby: string, ...keys: SortKey<CustomerRow>[]): Ordering {
  return ordering(
    'Customers',
    orderby,
    Customers,
    keys,
    (customer) => [customer.ID],
    (customer) => customer.ID,
  );
}

function orders(orderby: string | undefined, ...keys: SortKey<OrderRow>[]): Ordering {
  return ordering('Orders', orderby, Orders, keys, (order) => [order.Region, BigInt(order.Number)], orderId);
}

function events(orderby: string, ...keys: SortKey<EventRow>[]): Ordering {
  return ordering(
    'Events',
    orderby,
    Events,
    keys,
    (event) => [event.ID],
    (event) => event.ID,
  );
}

function tags(orderby: string | undefined, ...keys: SortKey<TagRow>[]): Ordering {
  return ordering(
    'Tags',
    orderby,
    Tags,
    keys,
    (tag) => [tag.Code],
    (tag) => tag.Code,
  );
}

const bigint = (text: string | null): bigint | null => (text === null ? null : BigInt(text));
const instant = (text: string | null): bigint | null => (text === null ? null : ticks(text));
const customerName = (order: OrderRow): string | null => Customers.find((customer) => customer.ID === order.Customer)?.Name ?? null;

/** Every ordering the suite sorts and pages by. */
export const ORDERINGS: readonly Ordering[] = [
  items(undefined),
  items(
    'Name',
    asc((item) => item.Name),
  ),
  items(
    'Name desc',
    desc((item) => item.Name),
  ),
  items(
    'Rank',
    asc((item) => item.Rank),
  ),
  items(
    'Rank desc',
    desc((item) => item.Rank),
  ),
  items(
    'Rank desc,Name',
    desc((item) => item.Rank),
    asc((item) => item.Name),
  ),
  items(
    'Rank,Note desc',
    asc((item) => item.Rank),
    desc((item) => item.Note),
  ),
  items(
    'Big',
    asc((item) => bigint(item.Big)),
  ),
  items(
    'Amount desc',
    desc((item) => (item.Amount === null ? null : decimalKey(item.Amount))),
  ),
  items(
    'Ratio',
    asc((item) => item.Ratio),
  ),
  items(
    'Flag desc,Rank',
    desc((item) => item.Flag),
    asc((item) => item.Rank),
  ),
  items(
    'Created desc',
    desc((item) => ticks(item.Created)),
  ),
  items(
    'Created,ID desc',
    asc((item) => ticks(item.Created)),
    desc((item) => item.ID),
  ),
  items(
    'Updated',
    asc((item) => instant(item.Updated)),
  ),
  items(
    'Code desc',
    desc((item) => item.Code),
  ),
  items(
    'Note',
    asc((item) => item.Note),
  ),
  items(
    'Category/Name,Name desc',
    asc(categoryName),
    desc((item) => item.Name),
  ),
  items(
    'length(Name) desc',
    desc((item) => item.Name.length),
  ),
  items(
    'tolower(Name)',
    asc((item) => item.Name.toLowerCase()),
  ),
  customers(
    'Address/City',
    asc((customer) => customer.Address.City),
  ),
  customers(
    'Address/City desc',
    desc((customer) => customer.Address.City),
  ),
  orders(undefined),
  orders(
    'Total desc',
    desc((order) => decimalKey(order.Total)),
  ),
  orders(
    'Placed',
    asc((order) => instant(order.Placed)),
  ),
  orders('Customer/Name desc', desc(customerName)),
  events(
    'At',
    asc((event) => ticks(event.At)),
  ),
  events(
    'At desc',
    desc((event) => ticks(event.At)),
  ),
  events(
    'AtOffset',
    asc((event) => instant(event.AtOffset)),
  ),
  events(
    'AtOffset desc,Label',
    desc((event) => instant(event.AtOffset)),
    asc((event) => event.Label),
  ),
  events(
    'Duration desc',
    desc((event) => (event.Duration === null ? null : durationTicks(event.Duration))),
  ),
  events(
    'Payload',
    asc((event) => (event.Payload === null ? null : base64Hex(event.Payload))),
  ),
  tags(undefined),
  tags(
    'Label desc',
    desc((tag) => tag.Label),
  ),
];

const dynamicValue = (note: NoteRow, name: string): Comparable | null => {
  const value = name in note ? note[name] : null;
  return value === undefined ? null : value;
};

/** An ordering by a dynamic property of the open type (absent is null); for providers with open types only. */
export const NOTES_BY_MOOD: Ordering = ordering(
  'Notes',
  'Mood,ID desc',
  Notes,
  [asc((note: NoteRow) => dynamicValue(note, 'Mood')), desc((note: NoteRow) => note.ID)],
  (note) => [note.ID],
  (note) => note.ID,
);

/** An ordering by two dynamic properties of different types (Boolean, then Int32). */
export const NOTES_BY_PINNED: Ordering = ordering(
  'Notes',
  'Pinned,Stars desc',
  Notes,
  [asc((note: NoteRow) => dynamicValue(note, 'Pinned')), desc((note: NoteRow) => dynamicValue(note, 'Stars'))],
  (note) => [note.ID],
  (note) => note.ID,
);

/** `Items?$orderby=Rank desc`, or `Items` for the default order. */
export function orderingName(ordering: Ordering): string {
  return ordering.orderby === undefined ? `${ordering.set} (key order)` : `${ordering.set}?$orderby=${ordering.orderby}`;
}
