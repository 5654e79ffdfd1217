/**
 * `$links` writes within the association multiplicities: add and remove on many-to-many, replace
 * and remove on 0..1, replace but never remove on a required end, a moved to-one link, and targets
 * that do not exist or are in the wrong set. Each case works on its own entries.
 */
import { fail, show } from '../check';
import { FIXTURE_ROWS } from '../fixture-data';
import { check } from '../suite';
import type { GroupDefinition } from '../suite';
import { expectLinks, linked, send } from './writing';

const { Items, OrderLines } = FIXTURE_ROWS;
const item = (id: number) => Items.find((row) => row.ID === id);
const taggedWith = (tag: string) => Items.filter((row) => row.Tags.includes(tag)).map((row) => row.ID);
const uri = (path: string) => ({ uri: path });

/** Fail unless `path` still links `id` (a refused write must change nothing). */
async function expectStillLinked(service: Parameters<typeof linked>[0], path: string, set: Parameters<typeof linked>[2], id: string | number): Promise<void> {
  const ids = await linked(service, path, set);
  if (!ids.includes(id)) fail(`GET ${path} gave ${show(ids)}: the refused write must leave ${show(id)} linked`);
}

const links = [
  check('POST Items(3)/$links/Tags adds a many-to-many link, seen from both sides', 'links.writes', async ({ service }) => {
    await send(service, 'POST', 'Items(3)/$links/Tags', uri("Tags('日本')"), 204);
    await expectLinks(service, 'Items(3)/Tags', 'Tags', [...(item(3)?.Tags ?? []), '日本'], 'the added link');
    await expectLinks(service, "Tags('日本')/Items", 'Items', [...taggedWith('日本'), 3], 'the added link from the other side');
  }),
  check("DELETE Items(5)/$links/Tags('α') removes one link", 'links.writes', async ({ service }) => {
    await send(service, 'DELETE', "Items(5)/$links/Tags('α')", undefined, 204);
    await expectLinks(
      service,
      'Items(5)/Tags',
      'Tags',
      (item(5)?.Tags ?? []).filter((tag) => tag !== 'α'),
      'the other links stay',
    );
    await expectLinks(
      service,
      "Tags('α')/Items",
      'Items',
      taggedWith('α').filter((id) => id !== 5),
      'the removed link from the other side',
    );
  }),
  check('PUT Items(1)/$links/Category replaces the 0..1 link', 'links.writes', async ({ service }) => {
    await send(service, 'PUT', 'Items(1)/$links/Category', uri('Categories(3)'), 204);
    await expectLinks(service, 'Items(1)/Category', 'Categories', [3], 'the new link');
    const old = `Categories(${item(1)?.Category ?? 0})/Items`;
    if ((await linked(service, old, 'Items')).includes(1)) fail(`GET ${old} still lists Items(1): the replaced link is not gone`);
  }),
  check('PUT Items(4)/$links/Category sets a link where there was none', 'links.writes', async ({ service }) => {
    await send(service, 'PUT', 'Items(4)/$links/Category', uri('Categories(4)'), 204);
    await expectLinks(service, 'Items(4)/Category', 'Categories', [4], 'the new link');
  }),
  check('DELETE Items(2)/$links/Category removes the 0..1 link', 'links.writes', async ({ service }) => {
    await send(service, 'DELETE', 'Items(2)/$links/Category', undefined, 204);
    await expectLinks(service, 'Items(2)/Category', 'Categories', [], 'the removed link');
  }),
  check('POST Categories(2)/$links/Items moves the item from its old category', 'links.writes', async ({ service }) => {
    await send(service, 'POST', 'Categories(2)/$links/Items', uri('Items(14)'), 204);
    await expectLinks(service, 'Items(14)/Category', 'Categories', [2], 'the item has one category (0..1)');
  }),
  check('PUT OrderLines(2)/$links/Order replaces a required link', 'links.writes', async ({ service }) => {
    await send(service, 'PUT', 'OrderLines(2)/$links/Order', uri("Orders(Region='US',Number=1L)"), 204);
    await expectLinks(service, 'OrderLines(2)/Order', 'Orders', ['US/1'], 'the new link');
  }),
  check('DELETE OrderLines(1)/$links/Order (a required end) is refused and changes nothing', 'links.writes', async ({ service }) => {
    await send(service, 'DELETE', 'OrderLines(1)/$links/Order', undefined, [400, 409]);
    const order = OrderLines[0].Order;
    await expectLinks(service, 'OrderLines(1)/Order', 'Orders', [`${order.Region}/${order.Number}`], 'the required link stays');
  }),
  check('POST Customers(3)/$links/Orders moves an order to another customer', 'links.writes', async ({ service }) => {
    await send(service, 'POST', 'Customers(3)/$links/Orders', uri("Orders(Region='Ö''st',Number=2L)"), 204);
    await expectLinks(service, "Orders(Region='Ö''st',Number=2L)/Customer", 'Customers', [3], 'an order has one customer');
    const left = await linked(service, 'Customers(2)/Orders', 'Orders');
    if (left.includes("Ö'st/2")) fail(`GET Customers(2)/Orders still lists the moved order: ${show(left)}`);
  }),
  check("DELETE Customers(1)/$links/Orders(...) (the order's required end) is refused", 'links.writes', async ({ service }) => {
    await send(service, 'DELETE', "Customers(1)/$links/Orders(Region='EU',Number=1L)", undefined, [400, 409]);
    await expectStillLinked(service, 'Customers(1)/Orders', 'Orders', 'EU/1');
  }),
  check('POST Items(8)/$links/Tags to a tag that does not exist is 404', 'links.writes', async ({ service }) => {
    await send(service, 'POST', 'Items(8)/$links/Tags', uri("Tags('nope')"), 404);
    await expectLinks(service, 'Items(8)/Tags', 'Tags', item(8)?.Tags ?? [], 'nothing changed');
  }),
  check('POST Items(8)/$links/Tags to an entry of another set is 400', 'links.writes', async ({ service }) => {
    await send(service, 'POST', 'Items(8)/$links/Tags', uri('Categories(1)'), 400);
    await expectLinks(service, 'Items(8)/Tags', 'Tags', item(8)?.Tags ?? [], 'nothing changed');
  }),
];

/** `$links` writes. */
export const linkGroups: readonly GroupDefinition[] = [{ name: '$links', cases: links }];
