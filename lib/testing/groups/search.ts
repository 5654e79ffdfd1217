/**
 * SAP's `search`: the keys a search keeps, compared with the fixture rows a plain predicate keeps
 * (every term, lowered with JavaScript's toLowerCase, contained in one of the set's top-level string
 * properties, keys included); case beyond ASCII, phrases, LIKE wildcards as characters, complex
 * members not searched; combined with `$filter`, `$orderby`, `$skip`/`$top`, counts, navigation
 * and paging through next links.
 */
import { expectEqual, expectStatus, feedOf } from '../check';
import { queryText, url } from '../client';
import { readIds, sortIds } from '../entities';
import type { EntityId, FixtureSet } from '../entities';
import { FIXTURE_ROWS } from '../fixture-data';
import type { CustomerRow, ItemRow, TagRow } from '../fixture-data';
import { check } from '../suite';
import type { CaseDefinition, GroupDefinition } from '../suite';
import { judgeWalk, walk } from './paging';

/** The terms of a search text as the service splits it (whitespace; a quoted phrase is one term). */
function termsOf(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2]).filter((term) => term !== '');
}

/** True when every term is in one of `values`, ignoring case. */
function found(values: readonly (string | null)[], text: string): boolean {
  return termsOf(text).every((term) => values.some((value) => value !== null && value.toLowerCase().includes(term.toLowerCase())));
}

// The searched properties: the top-level Edm.String ones (Items: ID and Code are not strings).
const itemValues = (item: ItemRow): (string | null)[] => [item.Name, item.Note];
const tagValues = (tag: TagRow): (string | null)[] => [tag.Code, tag.Label];
const customerValues = (customer: CustomerRow): (string | null)[] => [customer.Name, customer.Status];

function searchCase(
  set: FixtureSet,
  path: string,
  query: Readonly<Record<string, string | number>>,
  expected: readonly EntityId[],
  ordered = false,
): CaseDefinition {
  return check(`${path}?${queryText(query)}`, 'query.search', async ({ service }) => {
    const ids = await readIds(service, set, path, query);
    expectEqual(ordered ? ids : sortIds(ids), ordered ? [...expected] : sortIds(expected), `${path}?${queryText(query)} kept`);
  });
}

function itemsFound(text: string, keep: (item: ItemRow) => boolean = () => true): number[] {
  return FIXTURE_ROWS.Items.filter((item) => keep(item) && found(itemValues(item), text)).map((item) => item.ID);
}

const itemSearch = (text: string): CaseDefinition => searchCase('Items', 'Items', { search: text }, itemsFound(text));

const terms = [
  // Case ignored, also beyond ASCII (Ä/ä, ẞ/ß, É/é); each term in any searched property.
  itemSearch('apple'),
  itemSearch('APPLE'),
  itemSearch('ÄPFEL'),
  itemSearch('STRAẞE'),
  itemSearch('NAÏVE CAFÉ'),
  itemSearch('red'),
  itemSearch('apple red'),
  itemSearch('𝄞'),
  // A phrase keeps its words together and in order; separate terms need not.
  itemSearch('"100 stars"'),
  itemSearch('stars 100'),
  itemSearch('"stars 100"'),
  // %, _ and \ are characters, never LIKE wildcards or escapes.
  itemSearch('100%'),
  itemSearch('a_c'),
  itemSearch('\\'),
  itemSearch("o'neil"),
  itemSearch('nothing-like-this'),
  // Keys are searched when they are strings; complex members are not (Customers' Address).
  searchCase(
    'Tags',
    'Tags',
    { search: "O'K" },
    FIXTURE_ROWS.Tags.filter((tag) => found(tagValues(tag), "O'K")).map((tag) => tag.Code),
  ),
  searchCase(
    'Tags',
    'Tags',
    { search: 'japan' },
    FIXTURE_ROWS.Tags.filter((tag) => found(tagValues(tag), 'japan')).map((tag) => tag.Code),
  ),
  searchCase(
    'Customers',
    'Customers',
    { search: 'ÇELIK' },
    FIXTURE_ROWS.Customers.filter((row) => found(customerValues(row), 'ÇELIK')).map((row) => row.ID),
  ),
  searchCase('Customers', 'Customers', { search: 'paris' }, []),
];

const byIdDescending = (ids: number[]): number[] => [...ids].sort((a, b) => b - a);

const combined = [
  searchCase(
    'Items',
    'Items',
    { search: 'a', $filter: 'Rank gt 1' },
    itemsFound('a', (item) => item.Rank !== null && item.Rank > 1),
  ),
  searchCase('Items', 'Items', { search: 'a', $orderby: 'ID desc', $skip: 1, $top: 3 }, byIdDescending(itemsFound('a')).slice(1, 4), true),
  searchCase(
    'Items',
    'Categories(1)/Items',
    { search: 'e' },
    itemsFound('e', (item) => item.Category === 1),
  ),
  check('Items/$count?search=a', 'query.search', async ({ service }) => {
    const target = url('Items/$count', { search: 'a' });
    const answer = await service.get(target, { accept: 'text/plain' });
    expectStatus(answer, 200, `GET ${target}`);
    expectEqual(answer.text, String(itemsFound('a').length), `GET ${target}`);
  }),
  check('Items?search=e&$inlinecount=allpages&$top=1', 'query.search', async ({ service }) => {
    const target = url('Items', { search: 'e', $inlinecount: 'allpages', $top: 1, $select: 'ID' });
    const page = feedOf(await service.get(target), `GET ${target}`);
    expectEqual([page.count, page.entries.length], [String(itemsFound('e').length), 1], `GET ${target}: [__count, entries]`);
  }),
  check('Items?search=e&$orderby=Name page by page', 'query.search', async ({ paged }) => {
    const expected = FIXTURE_ROWS.Items.filter((item) => found(itemValues(item), 'e'))
      .sort((a, b) => (a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : a.ID - b.ID))
      .map((item) => item.ID);
    const { ids } = await walk(paged, 'Items', 'Items', { search: 'e', $orderby: 'Name', $inlinecount: 'allpages' }, expected.length);
    judgeWalk(ids, expected, 'walking Items?search=e&$orderby=Name');
  }),
];

/** SAP's `search`. */
export const searchGroups: readonly GroupDefinition[] = [{ name: 'search', cases: [...terms, ...combined] }];
