/**
 * PUT, MERGE/PATCH, property and `$value` writes, and DELETE with cascades and refusals. Each case
 * works on entries no other case of the unit touches. A PUT resets what it omits by one rule on
 * every provider: the DefaultValue, else null, else 400 PROPERTY_REQUIRED before anything is
 * written; keys, concurrency tokens and store-generated properties keep their values.
 */
import { expectEqual, fail, isObject, show } from '../check';
import { url } from '../client';
import { orderId } from '../entities';
import { FIXTURE_ROWS } from '../fixture-data';
import { jsonDate } from '../reference';
import { check } from '../suite';
import type { GroupDefinition } from '../suite';
import { bind, create, expectLinks, expectMissing, expectRequired, linked, pick, read, send } from './writing';

const { Items, Customers, Orders, OrderLines } = FIXTURE_ROWS;
const ANY = { 'if-match': '*' };
const item = (id: number) => Items.find((row) => row.ID === id);

const replace = [
  check('PUT Items(11) sets omitted properties to null and keeps its links', 'update.replace', async ({ service }) => {
    await send(service, 'PUT', 'Items(11)', { ID: 11, Name: 'replaced', Created: jsonDate('2021-01-01T00:00:00.000Z', false) }, 204);
    const entry = await read(service, 'Items(11)');
    expectEqual(
      pick(entry, ['Name', 'Note', 'Rank', 'Big', 'Amount', 'Flag']),
      { Name: 'replaced', Note: null, Rank: null, Big: null, Amount: null, Flag: null },
      'GET Items(11) after the PUT',
    );
    await expectLinks(service, 'Items(11)/Category', 'Categories', [item(11)?.Category ?? 0], 'PUT does not reset links');
    await expectLinks(service, 'Items(11)/Tags', 'Tags', item(11)?.Tags ?? [], 'PUT does not reset links');
  }),
  check('PUT Customers(2) gives omitted properties their DefaultValue', 'update.replace', async ({ service }) => {
    await send(service, 'PUT', 'Customers(2)', { ID: 2, Name: 'Reset', Tier: 4 }, 204, ANY);
    expectEqual(
      pick(await read(service, 'Customers(2)'), ['Name', 'Status', 'Tier', 'Credit']),
      { Name: 'Reset', Status: 'new', Tier: 4, Credit: '100.5' },
      'GET Customers(2) after the PUT',
    );
  }),
  check('PUT Customers(140) keeps the store-generated Joined and resets the rest without a type default', 'update.replace', async ({ service }) => {
    const joined = jsonDate('2022-02-02T02:02:02.000Z', true);
    await create(service, 'Customers', { ID: 140, Name: 'Joined', Joined: joined, Status: 'gold', Tier: 3, Address: { Street: 'Kai 1', City: 'Bremen' } });
    const before = await read(service, 'Customers(140)');
    if (before.Joined === null) fail(`GET Customers(140): Joined is null, but the POST sent ${joined}`);
    await send(service, 'PUT', 'Customers(140)', { ID: 140, Name: 'Replaced' }, 204, ANY);
    const after = await read(service, 'Customers(140)');
    expectEqual(
      pick(after, ['Name', 'Address', 'Status', 'Tier', 'Credit', 'Joined']),
      { Name: 'Replaced', Address: null, Status: 'new', Tier: 1, Credit: '100.5', Joined: before.Joined },
      'GET Customers(140) after a PUT without Address, Status, Tier, Credit, Version and Joined',
    );
  }),
  check('PUT Items(14) without a required property is 400 PROPERTY_REQUIRED and changes nothing', 'update.replace', async ({ service }) => {
    await expectRequired(service, 'PUT', 'Items(14)', { ID: 14, Name: 'no Created', Note: 'lost' }, 'Created');
    const row = item(14);
    expectEqual(
      pick(await read(service, 'Items(14)'), ['Name', 'Note']),
      { Name: row?.Name, Note: row?.Note ?? null },
      'GET Items(14) after the refused PUT (nothing written, no zero date stored)',
    );
  }),
  check('PUT Items(999) is 404', 'update.replace', async ({ service }) => {
    await send(service, 'PUT', 'Items(999)', { ID: 999, Name: 'nobody', Created: jsonDate('2021-01-01T00:00:00.000Z', false) }, 404);
  }),
];

const merge = [
  check('MERGE Items(9) changes only what it sends', 'update.merge', async ({ service }) => {
    await send(service, 'MERGE', 'Items(9)', { Note: 'merged', Big: '9223372036854775807', Amount: '0.0000000001' }, 204);
    const before = item(9);
    expectEqual(
      pick(await read(service, 'Items(9)'), ['Name', 'Note', 'Rank', 'Big', 'Amount', 'Ratio', 'Flag']),
      { Name: before?.Name, Note: 'merged', Rank: before?.Rank, Big: '9223372036854775807', Amount: '0.0000000001', Ratio: before?.Ratio, Flag: before?.Flag },
      'GET Items(9) after the MERGE',
    );
  }),
  check('PATCH Items(10) changes only what it sends', 'update.merge', async ({ service }) => {
    await send(service, 'PATCH', 'Items(10)', { Rank: 7 }, 204);
    const before = item(10);
    expectEqual(
      pick(await read(service, 'Items(10)'), ['Name', 'Note', 'Rank']),
      { Name: before?.Name, Note: before?.Note, Rank: 7 },
      'GET Items(10) after the PATCH',
    );
  }),
  check('MERGE Items(12) with a binding links it', 'update.merge', async ({ service }) => {
    await send(service, 'MERGE', 'Items(12)', { Category: bind('Categories(2)') }, 204);
    await expectLinks(service, 'Items(12)/Category', 'Categories', [2], 'the bound category');
  }),
  check('MERGE Items(13) with a Tags binding adds the link', 'update.merge', async ({ service }) => {
    await send(service, 'MERGE', 'Items(13)', { Tags: [bind("Tags('b')")] }, 204);
    await expectLinks(service, 'Items(13)/Tags', 'Tags', [...(item(13)?.Tags ?? []), 'b'], 'the links after the MERGE');
  }),
  check('MERGE Items(2) with Category null removes the link', 'update.merge', async ({ service }) => {
    await send(service, 'MERGE', 'Items(2)', { Category: null }, 204);
    await expectLinks(service, 'Items(2)/Category', 'Categories', [], 'the removed link');
  }),
  check('MERGE of a required to-one link to null is 400 and changes nothing', 'update.merge', async ({ service }) => {
    const order = Orders[0];
    const path = `Orders(Region='${order.Region}',Number=${order.Number}L)`;
    await send(service, 'MERGE', path, { Customer: null, Total: '1' }, 400);
    await expectLinks(service, `${path}/Customer`, 'Customers', [order.Customer], 'the required link stays');
    expectEqual((await read(service, path)).Total, order.Total, `GET ${path}: Total`);
  }),
  check('MERGE Items(999) is 404', 'update.merge', async ({ service }) => {
    await send(service, 'MERGE', 'Items(999)', { Note: 'x' }, 404);
  }),
];

const properties = [
  check('PUT Items(3)/Name replaces the property', 'update.properties', async ({ service }) => {
    await send(service, 'PUT', 'Items(3)/Name', { Name: 'renamed 𝄞' }, 204);
    expectEqual((await read(service, 'Items(3)')).Name, 'renamed 𝄞', 'GET Items(3): Name');
  }),
  check('PUT Items(6)/Amount/$value replaces the value exactly', 'update.properties', async ({ service }) => {
    const answer = await service.send('PUT', url('Items(6)/Amount/$value'), {
      headers: { 'content-type': 'text/plain' },
      body: '-12345678901234567890.1234567891',
    });
    expectEqual(answer.status, 204, 'PUT Items(6)/Amount/$value: status');
    expectEqual((await read(service, 'Items(6)')).Amount, '-12345678901234567890.1234567891', 'GET Items(6): Amount');
  }),
  check('DELETE Items(5)/Note/$value sets it to null', 'update.properties', async ({ service }) => {
    await send(service, 'DELETE', 'Items(5)/Note/$value', undefined, 204);
    expectEqual((await read(service, 'Items(5)')).Note, null, 'GET Items(5): Note');
  }),
  check('PUT then PATCH Customers(4)/Address replaces, then merges the complex value', 'update.properties', async ({ service }) => {
    await send(service, 'PUT', 'Customers(4)/Address', { Address: { Street: 'Weg 1', City: 'Köln' } }, 204, ANY);
    await send(service, 'PATCH', 'Customers(4)/Address', { Address: { City: 'Bonn' } }, 204, ANY);
    const address = (await read(service, 'Customers(4)', { $select: 'Address' })).Address;
    expectEqual(isObject(address) ? pick(address, ['Street', 'City']) : address, { Street: 'Weg 1', City: 'Bonn' }, 'GET Customers(4): Address');
  }),
];

const cascaded = Orders.find((order) => order.Customer === 4);
const cascadedPath = cascaded === undefined ? '' : `Orders(Region='${cascaded.Region}',Number=${cascaded.Number}L)`;
const withOrders = Customers.find((customer) => Orders.some((order) => order.Customer === customer.ID && order !== cascaded));
const withoutOrders = Customers.find((customer) => !Orders.some((order) => order.Customer === customer.ID));

const deletes = [
  check('DELETE Items(7) removes it and its links', 'delete.entries', async ({ service }) => {
    await send(service, 'DELETE', 'Items(7)', undefined, 204);
    await expectMissing(service, 'Items(7)', 'it was deleted');
    const category = item(7)?.Category;
    const sources = [
      ...(item(7)?.Tags ?? []).map((tag) => `Tags('${tag}')/Items`),
      ...(category === null || category === undefined ? [] : [`Categories(${category})/Items`]),
    ];
    for (const path of sources) {
      if ((await linked(service, path, 'Items')).includes(7)) fail(`GET ${path} still lists the deleted Items(7)`);
    }
  }),
  check('DELETE of an Order cascades to its Lines (OnDelete Cascade)', 'delete.entries', async ({ service }) => {
    await send(service, 'DELETE', cascadedPath, undefined, 204);
    await expectMissing(service, cascadedPath, 'it was deleted');
    for (const line of OrderLines.filter((row) => cascaded !== undefined && orderId(row.Order) === orderId(cascaded))) {
      await expectMissing(service, `OrderLines(${line.ID})`, 'the delete of its order cascades');
    }
  }),
  check('DELETE of a Customer that still has Orders is 409 and changes nothing', 'delete.entries', async ({ service }) => {
    const id = withOrders?.ID ?? 0;
    await send(service, 'DELETE', `Customers(${id})`, undefined, 409, ANY);
    expectEqual((await read(service, `Customers(${id})`)).Name, withOrders?.Name, `GET Customers(${id}) after the refused DELETE: Name`);
    const kept = await linked(service, `Customers(${id})/Orders`, 'Orders');
    const lost = Orders.filter((order) => order.Customer === id && !kept.includes(orderId(order))).map(orderId);
    if (lost.length > 0) fail(`the refused DELETE Customers(${id}) lost its orders ${show(lost)}`);
  }),
  check('DELETE of a Customer without Orders removes it', 'delete.entries', async ({ service }) => {
    await send(service, 'DELETE', `Customers(${withoutOrders?.ID ?? 0})`, undefined, 204, ANY);
    await expectMissing(service, `Customers(${withoutOrders?.ID ?? 0})`, 'it was deleted');
  }),
  check('DELETE Items(999) is 404', 'delete.entries', async ({ service }) => {
    await send(service, 'DELETE', 'Items(999)', undefined, 404);
  }),
];

/** Updating and deleting entries. */
export const updateGroups: readonly GroupDefinition[] = [
  { name: 'PUT', cases: replace },
  { name: 'MERGE and PATCH', cases: merge },
  { name: 'property writes', cases: properties },
  { name: 'delete', cases: deletes },
];
