/**
 * Creating entries: sent values stored exactly, omitted ones defaulted, taken keys refused,
 * bindings and POST through navigation linked, required links enforced, deep inserts created
 * whole or not at all. Every case creates entries of its own keys (100 and up).
 */
import { expectEqual, fail, show } from '../check';
import { encodePath } from '../client';
import { FIXTURE_ROWS } from '../fixture-data';
import { jsonDate } from '../reference';
import { check } from '../suite';
import type { GroupDefinition } from '../suite';
import { bind, create, expectLinks, expectMissing, pick, read, send } from './writing';

const NEW_ITEM = {
  ID: 101,
  Name: 'Neu 𝄞 ß',
  Note: '100% _new_',
  Rank: -2147483648,
  Big: '-9223372036854775808',
  Amount: '-99999999999999999999.9999999999',
  Ratio: -1.5e-300,
  Flag: false,
  Created: jsonDate('2001-02-03T04:05:06.789Z', false),
  Updated: jsonDate('2001-02-03T04:05:06.789Z', true),
  Code: '12345678-9abc-def0-1234-56789abcdef0',
};
const ITEM_PROPERTIES = Object.keys(NEW_ITEM);
const created = { Created: jsonDate('2020-01-01T00:00:00.000Z', false) };

const values = [
  check('POST Items with every property sent stores each value exactly', 'create.values', async ({ service }) => {
    const { entry, location } = await create(service, 'Items', NEW_ITEM);
    if (!decodeURIComponent(location).endsWith('/Items(101)')) fail(`POST Items answered Location ${location}, expected .../Items(101)`);
    expectEqual(pick(entry, ITEM_PROPERTIES), NEW_ITEM, 'POST Items answered the entry');
    expectEqual(pick(await read(service, 'Items(101)'), ITEM_PROPERTIES), NEW_ITEM, 'GET Items(101) after the POST');
  }),
  check('POST Items leaves omitted nullable properties null', 'create.values', async ({ service }) => {
    const { entry } = await create(service, 'Items', { ID: 102, Name: 'only the required', ...created });
    const nulls = { Note: null, Rank: null, Big: null, Amount: null, Ratio: null, Flag: null, Updated: null, Code: null };
    expectEqual(pick(entry, Object.keys(nulls)), nulls, 'POST Items answered');
    expectEqual(pick(await read(service, 'Items(102)'), Object.keys(nulls)), nulls, 'GET Items(102) after the POST');
  }),
  check('POST Customers gives omitted properties their DefaultValue', 'create.values', async ({ service }) => {
    const { entry } = await create(service, 'Customers', { ID: 101, Name: 'Defaults' });
    const defaults = { Status: 'new', Tier: 1, Credit: '100.5' };
    expectEqual(pick(entry, Object.keys(defaults)), defaults, 'POST Customers answered');
    expectEqual(pick(await read(service, 'Customers(101)'), Object.keys(defaults)), defaults, 'GET Customers(101) after the POST');
  }),
  check(
    'a deep insert and a POST through navigation give the omitted properties of each new entry their DefaultValue',
    'create.values',
    async ({ service }) => {
      await create(service, 'Customers', { ID: 103, Name: 'Deep defaults', Orders: [{ Region: 'DEF', Number: '1' }] });
      await create(service, 'Customers(103)/Orders', { Region: 'DEF', Number: '2', Placed: null });
      expectEqual(pick(await read(service, 'Customers(103)'), ['Status', 'Tier', 'Credit']), { Status: 'new', Tier: 1, Credit: '100.5' }, 'GET Customers(103)');
      for (const number of [1, 2]) {
        const path = `Orders(Region='DEF',Number=${number}L)`;
        expectEqual(pick(await read(service, path), ['Total', 'Placed']), { Total: '0', Placed: null }, `GET ${path}`);
      }
    },
  ),
  check('POST Customers keeps sent values over defaults, and a sent null', 'create.values', async ({ service }) => {
    const sent = { Status: 'vip', Tier: 5, Credit: null };
    await create(service, 'Customers', { ID: 102, Name: 'Sent', ...sent });
    expectEqual(pick(await read(service, 'Customers(102)'), Object.keys(sent)), sent, 'GET Customers(102) after the POST');
  }),
  check('POST Orders with a composite Int64 key answers its Location', 'create.values', async ({ service }) => {
    const { entry, location } = await create(service, 'Orders', { Region: "a'b", Number: '9223372036854775806', Customer: bind('Customers(1)') });
    const path = "Orders(Region='a''b',Number=9223372036854775806L)";
    if (decodeURIComponent(location).slice(-path.length) !== path) fail(`POST Orders answered Location ${location}, expected .../${encodePath(path)}`);
    expectEqual(
      pick(entry, ['Region', 'Number', 'Total', 'Placed']),
      { Region: "a'b", Number: '9223372036854775806', Total: '0', Placed: null },
      'POST Orders answered',
    );
    expectEqual(pick(await read(service, path), ['Region', 'Number']), { Region: "a'b", Number: '9223372036854775806' }, `GET ${path}`);
  }),
  check('POST Items with a taken key is 409 and changes nothing', 'create.values', async ({ service }) => {
    await send(service, 'POST', 'Items', { ...NEW_ITEM, ID: 1, Name: 'duplicate' }, 409);
    expectEqual((await read(service, 'Items(1)')).Name, FIXTURE_ROWS.Items[0].Name, 'GET Items(1) after the refused POST: Name');
  }),
];

const links = [
  check('POST Items with bindings links the new entry', 'create.links', async ({ service }) => {
    await create(service, 'Items', { ID: 110, Name: 'bound', ...created, Category: bind('Categories(2)'), Tags: [bind("Tags('b')"), bind("Tags('日本')")] });
    await expectLinks(service, 'Items(110)/Category', 'Categories', [2], 'the bound category');
    await expectLinks(service, 'Items(110)/Tags', 'Tags', ['b', '日本'], 'the bound tags');
    const tagged = FIXTURE_ROWS.Items.filter((item) => item.Tags.includes('日本')).map((item) => item.ID);
    await expectLinks(service, "Tags('日本')/Items", 'Items', [...tagged, 110], 'the link read from the other side');
  }),
  check('POST Categories(3)/Items links the new entry to its source', 'create.links', async ({ service }) => {
    await create(service, 'Categories(3)/Items', { ID: 111, Name: 'through navigation', ...created });
    await expectLinks(service, 'Items(111)/Category', 'Categories', [3], 'the source of the POST');
  }),
  check("POST Tags('z z')/Items links through a many-to-many navigation", 'create.links', async ({ service }) => {
    await create(service, "Tags('z z')/Items", { ID: 112, Name: 'tagged', ...created });
    await expectLinks(service, 'Items(112)/Tags', 'Tags', ['z z'], 'the source of the POST');
  }),
  check('POST Customers(4)/Orders satisfies the required end with the source', 'create.links', async ({ service }) => {
    await create(service, 'Customers(4)/Orders', { Region: 'NAV', Number: '1' });
    await expectLinks(service, "Orders(Region='NAV',Number=1L)/Customer", 'Customers', [4], 'the source of the POST');
  }),
  check('POST Items binding an entry that does not exist is 400 and creates nothing', 'create.links', async ({ service }) => {
    await send(service, 'POST', 'Items', { ID: 113, Name: 'dangling', ...created, Category: bind('Categories(99)') }, 400);
    await expectMissing(service, 'Items(113)', 'the refused POST must not create it');
  }),
];

const required = [
  check('POST Orders without its required Customer is refused and creates nothing', 'create.required-link', async ({ service }) => {
    await send(service, 'POST', 'Orders', { Region: 'REQ', Number: '1' }, [400, 409]);
    await expectMissing(service, "Orders(Region='REQ',Number=1L)", 'the refused POST must not create it');
  }),
  check('POST OrderLines without its required Order is refused and creates nothing', 'create.required-link', async ({ service }) => {
    await send(service, 'POST', 'OrderLines', { ID: 100, Product: 'orphan', Quantity: 1 }, [400, 409]);
    await expectMissing(service, 'OrderLines(100)', 'the refused POST must not create it');
  }),
];

const deep = [
  check('POST Customers with inline Orders and their Lines creates the tree', 'create.deep', async ({ service }) => {
    await create(service, 'Customers', {
      ID: 110,
      Name: 'Deep',
      Orders: [
        {
          Region: 'DEEP',
          Number: '1',
          Total: '12.5',
          Lines: [
            { ID: 110, Product: 'a', Quantity: 1 },
            { ID: 111, Product: 'b', Quantity: 2 },
          ],
        },
        { Region: 'DEEP', Number: '2' },
      ],
    });
    await expectLinks(service, 'Customers(110)/Orders', 'Orders', ['DEEP/1', 'DEEP/2'], 'the inline orders');
    await expectLinks(service, "Orders(Region='DEEP',Number=1L)/Lines", 'OrderLines', [110, 111], 'the inline lines');
    await expectLinks(service, 'OrderLines(111)/Order', 'Orders', ['DEEP/1'], 'the line linked back to its order');
    expectEqual((await read(service, "Orders(Region='DEEP',Number=1L)")).Total, '12.5', "GET Orders(Region='DEEP',Number=1L): Total");
  }),
  check('POST Items with an inline new Category creates and links it', 'create.deep', async ({ service }) => {
    await create(service, 'Items', { ID: 114, Name: 'with inline category', ...created, Category: { ID: 50, Name: 'Inline' } });
    await expectLinks(service, 'Items(114)/Category', 'Categories', [50], 'the inline category');
    expectEqual((await read(service, 'Categories(50)')).Name, 'Inline', 'GET Categories(50): Name');
  }),
  check('POST Categories with inline Items that bind existing Tags links both', 'create.deep', async ({ service }) => {
    await create(service, 'Categories', {
      ID: 60,
      Name: 'deep with bindings',
      Items: [{ ID: 120, Name: 'inline, bound', ...created, Tags: [bind("Tags('b')"), bind("Tags('o''k')")] }],
    });
    await expectLinks(service, 'Items(120)/Category', 'Categories', [60], 'the inline item linked to its new category');
    await expectLinks(service, 'Items(120)/Tags', 'Tags', ['b', "o'k"], 'the bindings inside the inline item');
  }),
  check('a deep insert whose last entry fails creates nothing', 'create.deep', async ({ service }) => {
    const answer = await service.sendJson('POST', 'Customers', {
      ID: 111,
      Name: 'Half',
      Orders: [
        {
          Region: 'HALF',
          Number: '1',
          Lines: [
            { ID: 112, Product: 'ok', Quantity: 1 },
            { ID: 1, Product: 'taken key', Quantity: 1 },
          ],
        },
      ],
    });
    if (answer.status < 400 || answer.status >= 500)
      fail(`POST Customers with a taken line key answered ${answer.status}, expected 4xx: ${show(answer.text.slice(0, 200))}`);
    await expectMissing(service, 'Customers(111)', 'the failed deep insert must not create its root');
    await expectMissing(service, "Orders(Region='HALF',Number=1L)", 'the failed deep insert must not create the inline order');
    await expectMissing(service, 'OrderLines(112)', 'the failed deep insert must not create the inline line');
  }),
];

const ORDER = "Orders(Region='US',Number=1L)";
const deliveryOf = (region: string, number: string, seq: number): string => `Deliveries(Region='${region}',Number=${number}L,Seq=${seq})`;
const DELIVERY = ['Region', 'Number', 'Seq', 'Carrier'];

const parentKeys = [
  check(`POST ${ORDER}/Deliveries takes the order's key into the delivery's`, 'create.parent-keys', async ({ service }) => {
    const { entry, location } = await create(service, `${ORDER}/Deliveries`, { Seq: 1, Carrier: 'DHL' });
    expectEqual(pick(entry, DELIVERY), { Region: 'US', Number: '1', Seq: 1, Carrier: 'DHL' }, `POST ${ORDER}/Deliveries answered`);
    if (!decodeURIComponent(location).endsWith(deliveryOf('US', '1', 1))) fail(`POST ${ORDER}/Deliveries answered Location ${location}`);
    await expectLinks(service, `${ORDER}/Deliveries`, 'Deliveries', ['US/1/1'], 'the delivery created through its order');
  }),
  check(`POST ${ORDER}/Deliveries may repeat the order's key; a different one is 400 and creates nothing`, 'create.parent-keys', async ({ service }) => {
    await create(service, `${ORDER}/Deliveries`, { Region: 'US', Number: '1', Seq: 2 });
    expectEqual(pick(await read(service, deliveryOf('US', '1', 2)), ['Region', 'Number']), { Region: 'US', Number: '1' }, `GET ${deliveryOf('US', '1', 2)}`);
    await send(service, 'POST', `${ORDER}/Deliveries`, { Region: 'EU', Seq: 3 }, 400);
    await expectMissing(service, deliveryOf('EU', '1', 3), 'the refused POST must not create it');
    await expectMissing(service, deliveryOf('US', '1', 3), 'the refused POST must not create it');
  }),
  check('POST Deliveries binding its Order takes the order’s key', 'create.parent-keys', async ({ service }) => {
    await create(service, 'Deliveries', { Seq: 4, Order: bind(ORDER) });
    await expectLinks(service, `${deliveryOf('US', '1', 4)}/Order`, 'Orders', ['US/1'], 'the bound order');
  }),
  check('POST Orders with inline Deliveries gives each the new order’s key', 'create.parent-keys', async ({ service }) => {
    await create(service, 'Orders', { Region: 'DLV', Number: '1', Customer: bind('Customers(1)'), Deliveries: [{ Seq: 1 }, { Seq: 2, Carrier: 'UPS' }] });
    await expectLinks(service, "Orders(Region='DLV',Number=1L)/Deliveries", 'Deliveries', ['DLV/1/1', 'DLV/1/2'], 'the inline deliveries');
    expectEqual((await read(service, deliveryOf('DLV', '1', 2))).Carrier, 'UPS', `GET ${deliveryOf('DLV', '1', 2)}: Carrier`);
  }),
  check('POST Customers with an inline Order and its inline Deliveries keys them two levels down', 'create.parent-keys', async ({ service }) => {
    await create(service, 'Customers', { ID: 150, Name: 'Parents', Orders: [{ Region: 'DLV', Number: '2', Deliveries: [{ Seq: 1 }] }] });
    await expectLinks(service, "Orders(Region='DLV',Number=2L)/Deliveries", 'Deliveries', ['DLV/2/1'], 'the inline delivery of the inline order');
  }),
  check('a deep insert whose inline Delivery contradicts its Order is 400 and creates nothing', 'create.parent-keys', async ({ service }) => {
    const body = { Region: 'DLV', Number: '3', Customer: bind('Customers(1)'), Deliveries: [{ Seq: 1 }, { Region: 'XX', Seq: 2 }] };
    await send(service, 'POST', 'Orders', body, 400);
    await expectMissing(service, "Orders(Region='DLV',Number=3L)", 'the refused deep insert must not create its root');
    await expectMissing(service, deliveryOf('DLV', '3', 1), 'the refused deep insert must not create its first delivery');
  }),
];

/** Creating entries. */
export const createGroups: readonly GroupDefinition[] = [
  { name: 'create', cases: values },
  { name: 'create with links', cases: [...links, ...required, ...parentKeys] },
  { name: 'deep insert', cases: deep },
];
