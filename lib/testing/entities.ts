/**
 * Entities by key, the way the cases compare them: an Item is its ID, a Tag its code, an Order
 * `Region/Number`, a Delivery `Region/Number/Seq`. Reads the keys of feed answers and of fixture rows alike.
 */
import { expectStatus, feedOf, show, fail } from './check';
import type { JsonObject } from './check';
import type { ServiceClient } from './client';
import { url } from './client';
import type { OrderKey } from './fixture-data';

/** An entity's key as the cases compare it. */
export type EntityId = number | string;

/** The entity sets of the fixture. */
export type FixtureSet = 'Items' | 'Categories' | 'Tags' | 'Customers' | 'Orders' | 'OrderLines' | 'Deliveries' | 'Events' | 'Moments' | 'Photos' | 'Notes';

/** `$select` of the key properties of a set. */
export function keySelect(set: FixtureSet): string {
  return set === 'Tags' ? 'Code' : set === 'Orders' ? 'Region,Number' : set === 'Deliveries' ? 'Region,Number,Seq' : 'ID';
}

/** An Order's id: `Region/Number`. */
export function orderId(key: OrderKey): string {
  return `${key.Region}/${key.Number}`;
}

/** The id of an entry of `set` in a JSON answer. */
export function idOfEntry(set: FixtureSet, entry: JsonObject): EntityId {
  const value = set === 'Tags' ? entry.Code : set === 'Orders' ? orderIdOf(entry) : set === 'Deliveries' ? deliveryIdOf(entry) : entry.ID;
  if (typeof value !== 'number' && typeof value !== 'string') fail(`an entry of ${set} without its key: ${show(entry)}`);
  return value;
}

function orderIdOf(entry: JsonObject): string | undefined {
  return typeof entry.Region === 'string' && typeof entry.Number === 'string' ? orderId({ Region: entry.Region, Number: entry.Number }) : undefined;
}

/** A Delivery's id: `Region/Number/Seq`. */
function deliveryIdOf(entry: JsonObject): string | undefined {
  const order = orderIdOf(entry);
  return order === undefined || typeof entry.Seq !== 'number' ? undefined : `${order}/${entry.Seq}`;
}

/** Ids sorted: numbers numerically, strings by UTF-16 code units. */
export function sortIds(ids: readonly EntityId[]): EntityId[] {
  return [...ids].sort((a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0));
}

/** The ids of a feed read (`path` with `query`), in the order the service answered. */
export async function readIds(
  service: ServiceClient,
  set: FixtureSet,
  path: string,
  query: Readonly<Record<string, string | number | undefined>> = {},
): Promise<EntityId[]> {
  const target = url(path, { $select: keySelect(set), ...query });
  const answer = await service.get(target);
  expectStatus(answer, 200, `GET ${target}`);
  return feedOf(answer, `GET ${target}`).entries.map((entry) => idOfEntry(set, entry));
}
