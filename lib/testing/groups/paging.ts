/**
 * Server-driven paging: every ordering walked page by page through the `/paged/` mount (page size
 * PAGE_SIZE) must give each entry exactly once and in order, with the count on every page; also
 * with `$filter`, `$top`, `$skip`, `$expand` and over a navigation collection.
 */
import { fail, feedOf, isObject, show } from '../check';
import type { JsonObject } from '../check';
import type { ServiceClient } from '../client';
import { url } from '../client';
import { idOfEntry, keySelect } from '../entities';
import type { EntityId, FixtureSet } from '../entities';
import { RuleViolation } from '../failure';
import { FIXTURE_ROWS } from '../fixture-data';
import { PAGE_SIZE } from '../harness';
import { check } from '../suite';
import type { CaseDefinition, GroupDefinition } from '../suite';
import { ORDERINGS, orderingName } from './orderings';
import type { Ordering } from './orderings';

/** What a walk saw: the ids in order, and each page's entries. */
interface Walk {
  readonly ids: EntityId[];
  readonly pages: (readonly JsonObject[])[];
}

/** Follow the next links from `path?query` until a page has none. */
export async function walk(
  paged: ServiceClient,
  set: FixtureSet,
  path: string,
  query: Readonly<Record<string, string | number | undefined>>,
  total: number,
): Promise<Walk> {
  let target: string | undefined = url(path, { $select: keySelect(set), ...query });
  const ids: EntityId[] = [];
  const pages: (readonly JsonObject[])[] = [];
  while (target !== undefined) {
    // A correct walk takes ceil(total / PAGE_SIZE) pages; a looping one is stopped well after.
    if (pages.length > total + 2) {
      const repeated = [...new Set(ids.filter((id, index) => ids.indexOf(id) !== index))];
      fail(`the next links never end: ${pages.length} pages for ${total} entries (repeated ${show(repeated)}), last next link ${target}`);
    }
    const page = feedOf(await paged.get(target), `GET ${target}`);
    if (page.entries.length > PAGE_SIZE) fail(`GET ${target} returned ${page.entries.length} entries, more than the page size ${PAGE_SIZE}`);
    if (query.$inlinecount === 'allpages' && page.count !== String(total)) {
      throw new RuleViolation('query.count', `GET ${target} counted ${show(page.count)}, expected "${total}" on every page`);
    }
    pages.push(page.entries);
    ids.push(...page.entries.map((entry) => idOfEntry(set, entry)));
    target = page.next;
  }
  return { ids, pages };
}

/** Fail naming what the walk lost, repeated or misordered. */
export function judgeWalk(ids: readonly EntityId[], expected: readonly EntityId[], what: string): void {
  if (ids.length === expected.length && ids.every((id, index) => id === expected[index])) return;
  const missing = expected.filter((id) => !ids.includes(id));
  const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
  const problems = [missing.length > 0 ? `missing ${show(missing)}` : '', repeated.length > 0 ? `repeated ${show(repeated)}` : ''].filter(
    (text) => text !== '',
  );
  fail(`${what}: expected ${show(expected)}, the pages gave ${show(ids)}${problems.length > 0 ? ` (${problems.join(', ')})` : ' (out of order)'}`);
}

function walkCase(ordering: Ordering): CaseDefinition {
  return check(`${orderingName(ordering)} page by page`, 'paging.skiptoken', async ({ paged }) => {
    const { ids } = await walk(paged, ordering.set, ordering.set, { $orderby: ordering.orderby, $inlinecount: 'allpages' }, ordering.expected.length);
    judgeWalk(ids, ordering.expected, `walking ${orderingName(ordering)}`);
  });
}

function orderingOf(orderby: string): Ordering {
  const found = ORDERINGS.find((ordering) => ordering.set === 'Items' && ordering.orderby === orderby);
  if (found === undefined) throw new Error(`no ordering ${orderby}`);
  return found;
}

const item = (id: EntityId) => FIXTURE_ROWS.Items.find((row) => row.ID === id);

const variants: CaseDefinition[] = [
  check('Items?$filter=Rank ne 3&$orderby=Rank desc page by page', 'paging.skiptoken', async ({ paged }) => {
    const expected = orderingOf('Rank desc').expected.filter((id) => item(id)?.Rank !== 3);
    judgeWalk(
      (await walk(paged, 'Items', 'Items', { $filter: 'Rank ne 3', $orderby: 'Rank desc', $inlinecount: 'allpages' }, expected.length)).ids,
      expected,
      'walking Items?$filter=Rank ne 3&$orderby=Rank desc',
    );
  }),
  check('Items?$orderby=Name&$top=7 page by page stops after 7', 'paging.skiptoken', async ({ paged }) => {
    const expected = orderingOf('Name').expected.slice(0, 7);
    judgeWalk((await walk(paged, 'Items', 'Items', { $orderby: 'Name', $top: 7 }, expected.length)).ids, expected, 'walking Items?$orderby=Name&$top=7');
  }),
  check('Items?$orderby=Rank,Note desc&$skip=2 page by page', 'paging.skiptoken', async ({ paged }) => {
    const expected = orderingOf('Rank,Note desc').expected.slice(2);
    judgeWalk(
      (await walk(paged, 'Items', 'Items', { $orderby: 'Rank,Note desc', $skip: 2 }, expected.length)).ids,
      expected,
      'walking Items?$orderby=Rank,Note desc&$skip=2',
    );
  }),
  check('Items?$orderby=Created desc&$expand=Category page by page keeps the expansion', 'paging.skiptoken', async ({ paged }) => {
    const expected = orderingOf('Created desc').expected;
    const { ids, pages } = await walk(paged, 'Items', 'Items', { $orderby: 'Created desc', $expand: 'Category', $select: 'ID,Category/ID' }, expected.length);
    judgeWalk(ids, expected, 'walking Items?$orderby=Created desc&$expand=Category');
    for (const entry of pages.flat()) {
      const category = item(idOfEntry('Items', entry))?.Category ?? null;
      const inline = entry.Category;
      const got = isObject(inline) ? inline.ID : inline;
      if (got !== category)
        fail(`Items(${show(entry.ID)}) on a later page: expanded Category ${show(inline)}, expected ${category === null ? 'null' : `Categories(${category})`}`);
    }
  }),
  check('Categories(1)/Items?$orderby=Rank desc page by page', 'paging.skiptoken', async ({ paged }) => {
    const expected = orderingOf('Rank desc').expected.filter((id) => item(id)?.Category === 1);
    judgeWalk(
      (await walk(paged, 'Items', 'Categories(1)/Items', { $orderby: 'Rank desc' }, expected.length)).ids,
      expected,
      'walking Categories(1)/Items?$orderby=Rank desc',
    );
  }),
];

/** Paging through every ordering, and paging combined with other options. */
export const pagingGroup: GroupDefinition = { name: 'paging', cases: [...ORDERINGS.map(walkCase), ...variants] };
