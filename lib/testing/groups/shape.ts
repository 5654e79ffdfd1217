/**
 * `$select` and `$expand`: what each entry keeps, and which related entries are written inline
 * (to-one, to-many, many-to-many, two levels). Inline feeds are compared as sets of keys: their
 * order is not a protocol rule.
 */
import { entryOf, expectEqual, fail, feedOf, feedValue, isObject, show } from '../check';
import type { JsonObject } from '../check';
import { queryText, url } from '../client';
import { idOfEntry, orderId, sortIds } from '../entities';
import type { EntityId, FixtureSet } from '../entities';
import { FIXTURE_ROWS } from '../fixture-data';
import { check } from '../suite';
import type { CaseDefinition, GroupDefinition } from '../suite';

const { Items, Categories, Tags, Customers, Orders, OrderLines } = FIXTURE_ROWS;

/** The names of an entry's members besides `__metadata`. */
function members(entry: JsonObject): string[] {
  return Object.keys(entry)
    .filter((name) => name !== '__metadata')
    .sort();
}

function selectCase(path: string, query: Readonly<Record<string, string>>, expected: Readonly<Record<string, unknown>>): CaseDefinition {
  const text = queryText(query);
  return check(`${path}?${text}`, 'query.select', async ({ service }) => {
    const target = url(path, query);
    const entry = entryOf(await service.get(target), `GET ${target}`);
    expectEqual(members(entry), Object.keys(expected).sort(), `GET ${target}: the properties`);
    for (const [name, value] of Object.entries(expected)) {
      const got = entry[name];
      expectEqual(isObject(got) ? Object.fromEntries(Object.entries(got).filter(([key]) => key !== '__metadata')) : got, value, `GET ${target}: ${name}`);
    }
  });
}

const item1 = Items[0];

const select = [
  selectCase('Items(1)', { $select: 'Name,Big,Amount' }, { Name: item1.Name, Big: item1.Big, Amount: item1.Amount }),
  selectCase('Customers(1)', { $select: 'Address,Credit' }, { Address: { ...Customers[0].Address }, Credit: Customers[0].Credit }),
  check('Items(6)?$select=Name,Category/Name&$expand=Category', 'query.select', async ({ service }) => {
    const target = url('Items(6)', { $select: 'Name,Category/Name', $expand: 'Category' });
    const entry = entryOf(await service.get(target), `GET ${target}`);
    expectEqual(members(entry), ['Category', 'Name'], `GET ${target}: the properties`);
    const category = entry.Category;
    if (!isObject(category)) fail(`GET ${target}: Category is ${show(category)}, expected the expanded entry`);
    expectEqual(
      [entry.Name, members(category), category.Name],
      [Items[5].Name, ['Name'], Categories.find((row) => row.ID === Items[5].Category)?.Name],
      `GET ${target}`,
    );
  }),
  check('Items?$filter=ID le 3&$select=Name keeps Name only', 'query.select', async ({ service }) => {
    const target = url('Items', { $filter: 'ID le 3', $select: 'Name' });
    const entries = feedOf(await service.get(target), `GET ${target}`).entries;
    expectEqual(
      entries.map((entry) => members(entry)),
      [['Name'], ['Name'], ['Name']],
      `GET ${target}: the properties of each entry`,
    );
    expectEqual(
      entries.map((entry) => entry.Name),
      Items.slice(0, 3).map((item) => item.Name),
      `GET ${target}: the names`,
    );
  }),
];

/** Map an expanded answer to `id -> sorted ids` (to-many) or `id -> id | null` (to-one). */
function expandedIds(
  entries: readonly JsonObject[],
  set: FixtureSet,
  property: string,
  target: FixtureSet,
  what: string,
): Map<EntityId, EntityId[] | EntityId | null> {
  const out = new Map<EntityId, EntityId[] | EntityId | null>();
  for (const entry of entries) {
    const value = entry[property];
    const id = idOfEntry(set, entry);
    if (value === null) out.set(id, null);
    else if (isObject(value) && !('results' in value) && !('__deferred' in value)) out.set(id, idOfEntry(target, value));
    else if (Array.isArray(value) || (isObject(value) && 'results' in value))
      out.set(id, sortIds(feedValue(value, `${what}: ${show(id)}/${property}`).entries.map((child) => idOfEntry(target, child))));
    else fail(`${what}: ${set} ${show(id)} has ${property} = ${show(value)}, expected it expanded`);
  }
  return out;
}

function expandCase(
  path: string,
  query: Readonly<Record<string, string>>,
  set: FixtureSet,
  property: string,
  target: FixtureSet,
  expected: Map<EntityId, EntityId[] | EntityId | null>,
): CaseDefinition {
  const text = queryText(query);
  return check(`${path}?${text}`, 'query.expand', async ({ service }) => {
    const request = url(path, query);
    const entries = feedOf(await service.get(request), `GET ${request}`).entries;
    const got = expandedIds(entries, set, property, target, `GET ${request}`);
    expectEqual(Object.fromEntries(got), Object.fromEntries(expected), `GET ${request}: ${property} of each entry`);
  });
}

const itemTags = new Map<EntityId, EntityId[]>(Items.map((item) => [item.ID, sortIds(item.Tags)]));
const tagItems = new Map<EntityId, EntityId[]>(Tags.map((tag) => [tag.Code, Items.filter((item) => item.Tags.includes(tag.Code)).map((item) => item.ID)]));
const categoryItems = new Map<EntityId, EntityId[]>(
  Categories.map((category) => [category.ID, Items.filter((item) => item.Category === category.ID).map((item) => item.ID)]),
);
const customerOrders = new Map<EntityId, EntityId[]>(
  Customers.map((customer) => [customer.ID, sortIds(Orders.filter((order) => order.Customer === customer.ID).map(orderId))]),
);
const orderLines = (id: EntityId): EntityId[] => OrderLines.filter((line) => orderId(line.Order) === id).map((line) => line.ID);

/** Two levels (`Categories?$expand=Items/Tags`): each entry's children and their children, as `{ child: grandchildren }`. */
function twoLevelCase(
  path: string,
  query: Readonly<Record<string, string>>,
  set: FixtureSet,
  [first, firstSet]: readonly [string, FixtureSet],
  [second, secondSet]: readonly [string, FixtureSet],
  expected: (id: EntityId) => Record<string, EntityId[]>,
): CaseDefinition {
  return check(`${path}?$expand=${query.$expand}`, 'query.expand', async ({ service }) => {
    const request = url(path, query);
    for (const entry of feedOf(await service.get(request), `GET ${request}`).entries) {
      const id = idOfEntry(set, entry);
      const got: Record<string, EntityId[]> = {};
      for (const child of feedValue(entry[first], `GET ${request}: ${show(id)}/${first}`).entries) {
        const childId = idOfEntry(firstSet, child);
        got[String(childId)] = sortIds(
          feedValue(child[second], `GET ${request}: ${show(childId)}/${second}`).entries.map((grandchild) => idOfEntry(secondSet, grandchild)),
        );
      }
      expectEqual(got, expected(id), `GET ${request}: ${set} ${show(id)} as { ${first}: ${second} }`);
    }
  });
}

const expand = [
  expandCase(
    'Items',
    { $expand: 'Category', $select: 'ID,Category/ID' },
    'Items',
    'Category',
    'Categories',
    new Map(Items.map((item) => [item.ID, item.Category])),
  ),
  expandCase('Categories', { $expand: 'Items', $select: 'ID,Items/ID' }, 'Categories', 'Items', 'Items', categoryItems),
  expandCase('Items', { $expand: 'Tags', $select: 'ID,Tags/Code' }, 'Items', 'Tags', 'Tags', itemTags),
  expandCase('Tags', { $expand: 'Items', $select: 'Code,Items/ID' }, 'Tags', 'Items', 'Items', tagItems),
  expandCase('Customers', { $expand: 'Orders', $select: 'ID,Orders/Region,Orders/Number' }, 'Customers', 'Orders', 'Orders', customerOrders),
  expandCase(
    'OrderLines',
    { $expand: 'Order', $select: 'ID,Order/Region,Order/Number' },
    'OrderLines',
    'Order',
    'Orders',
    new Map(OrderLines.map((line) => [line.ID, orderId(line.Order)])),
  ),
  expandCase(
    'Items',
    { $filter: 'Rank eq 3', $expand: 'Tags,Category', $select: 'ID,Tags/Code' },
    'Items',
    'Tags',
    'Tags',
    new Map(Items.filter((item) => item.Rank === 3).map((item) => [item.ID, sortIds(item.Tags)])),
  ),
  twoLevelCase('Categories', { $expand: 'Items/Tags', $select: 'ID,Items/ID,Items/Tags/Code' }, 'Categories', ['Items', 'Items'], ['Tags', 'Tags'], (id) =>
    Object.fromEntries((categoryItems.get(id) ?? []).map((item) => [String(item), itemTags.get(item) ?? []])),
  ),
  twoLevelCase(
    'Customers',
    { $expand: 'Orders/Lines', $select: 'ID,Orders/Region,Orders/Number,Orders/Lines/ID' },
    'Customers',
    ['Orders', 'Orders'],
    ['Lines', 'OrderLines'],
    (id) => Object.fromEntries((customerOrders.get(id) ?? []).map((order) => [String(order), orderLines(order)])),
  ),
  check('OrderLines(3)?$expand=Order/Customer', 'query.expand', async ({ service }) => {
    const request = url('OrderLines(3)', { $expand: 'Order/Customer' });
    const entry = entryOf(await service.get(request), `GET ${request}`);
    const order = entry.Order;
    if (!isObject(order)) fail(`GET ${request}: Order is ${show(order)}, expected the order entry`);
    const customer = order.Customer;
    if (!isObject(customer)) fail(`GET ${request}: Order/Customer is ${show(customer)}, expected the customer entry`);
    const line = OrderLines[2];
    const owner = Orders.find((row) => orderId(row) === orderId(line.Order));
    expectEqual(
      [orderId({ Region: String(order.Region), Number: String(order.Number) }), order.Total, customer.ID, customer.Name],
      [orderId(line.Order), owner?.Total, owner?.Customer, Customers.find((c) => c.ID === owner?.Customer)?.Name],
      `GET ${request}`,
    );
  }),
];

/** `$select` and `$expand`. */
export const shapeGroups: readonly GroupDefinition[] = [
  { name: '$select', cases: select },
  { name: '$expand', cases: expand },
];
