/**
 * Navigation paths (collections, single entries, keys after a navigation, properties and raw
 * values through navigation, `$links`) and counts (`$inlinecount`, `/$count`).
 */
import { entryOf, expectEqual, expectStatus, feedOf, fail, isObject, jsonOf, show } from '../check';
import { queryText, url } from '../client';
import { idOfEntry, orderId, readIds, sortIds } from '../entities';
import type { EntityId, FixtureSet } from '../entities';
import { FIXTURE_ROWS } from '../fixture-data';
import { check } from '../suite';
import type { CaseDefinition, GroupDefinition } from '../suite';

const { Items, Customers, Orders, OrderLines } = FIXTURE_ROWS;

function collectionCase(path: string, set: FixtureSet, expected: readonly EntityId[]): CaseDefinition {
  return check(`GET ${path}`, 'navigation.paths', async ({ service }) => {
    expectEqual(sortIds(await readIds(service, set, path)), sortIds(expected), `GET ${path} gave`);
  });
}

function entryCase(path: string, set: FixtureSet, expected: EntityId): CaseDefinition {
  return check(`GET ${path}`, 'navigation.paths', async ({ service }) => {
    const target = url(path);
    expectEqual(idOfEntry(set, entryOf(await service.get(target), `GET ${target}`)), expected, `GET ${target} answered the entry`);
  });
}

function statusCase(path: string, status: number, rule: 'navigation.paths' = 'navigation.paths'): CaseDefinition {
  return check(`GET ${path} is ${status}`, rule, async ({ service }) => {
    const target = url(path);
    expectStatus(await service.get(target), status, `GET ${target}`);
  });
}

const itemsOf = (category: number): number[] => Items.filter((item) => item.Category === category).map((item) => item.ID);
const linesOf = (order: string): number[] => OrderLines.filter((line) => orderId(line.Order) === order).map((line) => line.ID);
const firstLine = OrderLines[0];
const firstOrder = Orders.find((order) => orderId(order) === orderId(firstLine.Order));

const navigation = [
  collectionCase('Categories(1)/Items', 'Items', itemsOf(1)),
  collectionCase('Categories(4)/Items', 'Items', []),
  collectionCase(
    "Tags('α')/Items",
    'Items',
    Items.filter((item) => item.Tags.includes('α')).map((item) => item.ID),
  ),
  collectionCase('Items(5)/Tags', 'Tags', Items[4].Tags),
  collectionCase('Items(3)/Tags', 'Tags', []),
  collectionCase('Items(1)/Category/Items', 'Items', itemsOf(1)),
  collectionCase("Customers(1)/Orders(Region='EU',Number=9007199254740993L)/Lines", 'OrderLines', linesOf('EU/9007199254740993')),
  collectionCase('Customers(2)/Orders', 'Orders', Orders.filter((order) => order.Customer === 2).map(orderId)),
  entryCase('Items(1)/Category', 'Categories', 1),
  entryCase("Items(1)/Tags('b')", 'Tags', 'b'),
  entryCase('OrderLines(1)/Order/Customer', 'Customers', firstOrder?.Customer ?? 0),
  check('GET Items(4)/Category (no link) is empty: 204', 'navigation.paths', async ({ service }) => {
    const answer = await service.get(url('Items(4)/Category'));
    expectStatus(answer, 204, 'GET Items(4)/Category');
  }),
  statusCase("Items(2)/Tags('α')", 404),
  statusCase('Categories(2)/Items(1)', 404),
  check("GET Orders(Region='EU',Number=1L)/Customer/Address/City", 'navigation.paths', async ({ service }) => {
    const target = url("Orders(Region='EU',Number=1L)/Customer/Address/City");
    const answer = await service.get(target);
    expectStatus(answer, 200, `GET ${target}`);
    const customer = Customers.find((row) => row.ID === Orders.find((order) => orderId(order) === 'EU/1')?.Customer);
    expectEqual(jsonOf(answer, `GET ${target}`).d, { City: customer?.Address.City }, `GET ${target}`);
  }),
  check('GET Items(6)/Name/$value is the text, UTF-8', 'navigation.paths', async ({ service }) => {
    const answer = await service.get(url('Items(6)/Name/$value'), { accept: '*/*' });
    expectStatus(answer, 200, 'GET Items(6)/Name/$value');
    expectEqual(answer.text, Items[5].Name, 'GET Items(6)/Name/$value');
  }),
  check('GET Items(5)/$links/Tags lists the linked tags', 'navigation.paths', async ({ service }) => {
    const target = url('Items(5)/$links/Tags');
    const answer = await service.get(target);
    expectStatus(answer, 200, `GET ${target}`);
    const { d } = jsonOf(answer, `GET ${target}`);
    const links = Array.isArray(d) ? d : isObject(d) ? d.results : undefined;
    if (!Array.isArray(links)) fail(`GET ${target} answered ${show(d)}, expected a list of links`);
    const codes = links.map((link: unknown) => {
      const uri = isObject(link) ? link.uri : undefined;
      const match = typeof uri === 'string' ? /Tags\('(.*)'\)$/.exec(decodeURIComponent(uri)) : null;
      if (match === null) fail(`GET ${target}: ${show(link)} is not a link to a Tag`);
      return match[1].replace(/''/g, "'");
    });
    expectEqual(sortIds(codes), sortIds(Items[4].Tags), `GET ${target}: the linked codes`);
  }),
];

function countCase(path: string, query: Readonly<Record<string, string | number>>, expected: number): CaseDefinition {
  const text = queryText(query);
  return check(`GET ${path}${text === '' ? '' : `?${text}`}`, 'query.count', async ({ service }) => {
    const target = url(path, query);
    const answer = await service.get(target, { accept: 'text/plain' });
    expectStatus(answer, 200, `GET ${target}`);
    expectEqual(answer.text, String(expected), `GET ${target}`);
  });
}

function inlineCountCase(path: string, query: Readonly<Record<string, string | number>>, count: number, entries: number): CaseDefinition {
  const text = queryText(query);
  return check(`GET ${path}?$inlinecount=allpages&${text}`, 'query.count', async ({ service }) => {
    const target = url(path, { $inlinecount: 'allpages', ...query });
    const page = feedOf(await service.get(target), `GET ${target}`);
    expectEqual([page.count, page.entries.length], [String(count), entries], `GET ${target}: [__count, entries]`);
  });
}

const count = (keep: (item: (typeof Items)[number]) => boolean): number => Items.filter(keep).length;

const counts = [
  countCase('Items/$count', {}, Items.length),
  countCase(
    'Items/$count',
    { $filter: 'Flag' },
    count((item) => item.Flag === true),
  ),
  countCase(
    'Items/$count',
    { $filter: 'Rank ne 3' },
    count((item) => item.Rank !== 3),
  ),
  countCase('Items/$count', { $skip: 10 }, Items.length - 10),
  countCase('Items/$count', { $top: 3 }, 3),
  countCase('Categories(1)/Items/$count', {}, itemsOf(1).length),
  countCase('Categories(4)/Items/$count', {}, 0),
  countCase(
    "Tags('α')/Items/$count",
    {},
    count((item) => item.Tags.includes('α')),
  ),
  countCase('Customers(1)/Orders/$count', {}, Orders.filter((order) => order.Customer === 1).length),
  inlineCountCase(
    'Items',
    { $filter: 'Rank ne null', $top: 2 },
    count((item) => item.Rank !== null),
    2,
  ),
  inlineCountCase('Items', { $skip: 20 }, Items.length, 0),
  inlineCountCase(
    'Items',
    { $filter: 'Note eq null', $orderby: 'Rank desc', $skip: 1, $top: 2 },
    count((item) => item.Note === null),
    2,
  ),
  inlineCountCase('Categories(2)/Items', { $top: 1 }, itemsOf(2).length, 1),
];

/** Navigation paths and counts. */
export const navigationGroups: readonly GroupDefinition[] = [
  { name: 'navigation', cases: navigation },
  { name: 'counts', cases: counts },
];
