/**
 * Row visibility (capability `rowVisibility`): the setup declares two request contexts, told apart
 * by headers, and the Items and Categories each may see. For each context, a hidden row does not
 * exist: feeds, counts, paging, `$expand`, navigation and key reads (alone and in a `$batch`)
 * show exactly the visible rows; writes to a hidden row are 404, change nothing, and fail their
 * changeset. Expectations come from the fixture rows and the declared keys.
 */
import { sendBatch } from '../batch';
import { entryOf, expectEqual, expectStatus, fail, feedOf, feedValue, show } from '../check';
import type { JsonObject } from '../check';
import type { ServiceClient } from '../client';
import { url } from '../client';
import { readIds, sortIds } from '../entities';
import { FIXTURE_ROWS } from '../fixture-data';
import { check } from '../suite';
import type { CaseContext, CaseDefinition, GroupDefinition } from '../suite';
import type { VisibleRows } from '../types';
import { ORDERINGS } from './orderings';
import { judgeWalk, walk } from './paging';

const NAMES = ['the first context', 'the second context'] as const;

/** The declared contexts, or a failure saying what the setup must return. */
function contextsOf(context: CaseContext): readonly [VisibleRows, VisibleRows] {
  const declared = context.visibility?.contexts;
  if (declared === undefined || declared.length !== 2)
    fail('the setup declares rowVisibility but returns no visibility: { contexts: [{ headers, items, categories }, { headers, items, categories }] }');
  return declared;
}

/** The case for context `index`: its rows, and the service and paged mounts with its headers. */
function forContext(
  index: 0 | 1,
  name: string,
  rule: 'visibility.reads' | 'visibility.writes',
  run: (rows: VisibleRows, service: ServiceClient, paged: ServiceClient, other: VisibleRows) => Promise<void>,
): CaseDefinition {
  return check(`${NAMES[index]}: ${name}`, rule, async (context) => {
    const contexts = contextsOf(context);
    const rows = contexts[index];
    await run(rows, context.service.withHeaders(rows.headers), context.paged.withHeaders(rows.headers), contexts[1 - index]);
  });
}

const ITEM_IDS = FIXTURE_ROWS.Items.map((item) => item.ID);
const CATEGORY_IDS = FIXTURE_ROWS.Categories.map((category) => category.ID);

/** A feed's entries, as JSON objects. */
async function entries(service: ServiceClient, target: string): Promise<readonly JsonObject[]> {
  const answer = await service.get(target);
  expectStatus(answer, 200, `GET ${target}`);
  return feedOf(answer, `GET ${target}`).entries;
}

/** The Items ordered by Name (the reference ordering), for the walk. */
const BY_NAME = (() => {
  const found = ORDERINGS.find((ordering) => ordering.set === 'Items' && ordering.orderby === 'Name');
  if (found === undefined) throw new Error('no ordering Items by Name');
  return found.expected;
})();

const readCases = ([0, 1] as const).flatMap((index) => [
  forContext(index, 'Items and Categories hold exactly the visible entries', 'visibility.reads', async (rows, service) => {
    expectEqual(await readIds(service, 'Items', 'Items'), sortIds(rows.items), 'GET Items: the IDs');
    expectEqual(await readIds(service, 'Categories', 'Categories'), sortIds(rows.categories), 'GET Categories: the IDs');
  }),
  forContext(index, '/$count and $inlinecount count exactly them', 'visibility.reads', async (rows, service) => {
    for (const [target, expected] of [
      ['Items/$count', rows.items.length],
      ['Categories/$count', rows.categories.length],
      [url('Items/$count', { $filter: 'ID le 7' }), rows.items.filter((id) => id <= 7).length],
    ] as const) {
      const answer = await service.get(target);
      expectStatus(answer, 200, `GET ${target}`);
      expectEqual(answer.text, String(expected), `GET ${target}`);
    }
    const target = url('Items', { $inlinecount: 'allpages', $top: 1, $select: 'ID' });
    expectEqual(feedOf(await service.get(target), `GET ${target}`).count, String(rows.items.length), `GET ${target}: __count`);
  }),
  forContext(index, 'following the next links (page size 3) gives exactly them, by key and by Name', 'visibility.reads', async (rows, _service, paged) => {
    const visible = new Set(rows.items);
    judgeWalk((await walk(paged, 'Items', 'Items', {}, rows.items.length)).ids, sortIds(rows.items), 'walking Items');
    const byName = BY_NAME.filter((id) => visible.has(id as number));
    judgeWalk((await walk(paged, 'Items', 'Items', { $orderby: 'Name' }, byName.length)).ids, byName, 'walking Items?$orderby=Name');
  }),
  forContext(index, 'a visible entry reads by key, a hidden one and paths through it are 404', 'visibility.reads', async (rows, service) => {
    const statuses = async (targets: readonly string[]): Promise<number[]> => Promise.all(targets.map(async (target) => (await service.get(target)).status));
    expectEqual(
      await statuses(ITEM_IDS.map((id) => `Items(${id})`)),
      ITEM_IDS.map((id) => (rows.items.includes(id) ? 200 : 404)),
      `GET Items(1) to Items(${ITEM_IDS.length}): the statuses`,
    );
    expectEqual(
      await statuses(CATEGORY_IDS.map((id) => `Categories(${id})/Items`)),
      CATEGORY_IDS.map((id) => (rows.categories.includes(id) ? 200 : 404)),
      'GET Categories(n)/Items: the statuses',
    );
  }),
  forContext(index, '$expand and navigation show only visible entries', 'visibility.reads', async (rows, service) => {
    const items = new Set(rows.items);
    const categories = new Set(rows.categories);
    const expanded = await entries(service, url('Items', { $expand: 'Category', $select: 'ID,Category/ID' }));
    expectEqual(
      expanded.map((entry) => [entry.ID, (entry.Category as JsonObject | null)?.ID ?? null]),
      FIXTURE_ROWS.Items.filter((item) => items.has(item.ID)).map((item) => [
        item.ID,
        item.Category !== null && categories.has(item.Category) ? item.Category : null,
      ]),
      'GET Items?$expand=Category: each item with its category (null when the category is hidden)',
    );
    const members = (category: number): number[] =>
      FIXTURE_ROWS.Items.filter((item) => item.Category === category && items.has(item.ID)).map((item) => item.ID);
    const withItems = await entries(service, url('Categories', { $expand: 'Items', $select: 'ID,Items/ID' }));
    expectEqual(
      withItems.map((entry) => [entry.ID, feedValue(entry.Items, `Categories(${String(entry.ID)})/Items inline`).entries.map((item) => item.ID)]),
      sortIds(rows.categories).map((id) => [id, members(id as number)]),
      'GET Categories?$expand=Items: each category with its visible items',
    );
    for (const category of rows.categories)
      expectEqual(await readIds(service, 'Items', `Categories(${category})/Items`), members(category), `GET Categories(${category})/Items`);
  }),
  forContext(index, 'key reads in one $batch each answer as this context', 'visibility.reads', async (rows, service) => {
    const { parts } = await sendBatch(
      service,
      ITEM_IDS.map((id) => ({ get: `Items(${id})` })),
    );
    expectEqual(
      parts.map((part) => part.statuses),
      ITEM_IDS.map((id) => [rows.items.includes(id) ? 200 : 404]),
      `the statuses of a $batch of GET Items(1) to Items(${ITEM_IDS.length})`,
    );
  }),
]);

/** An Item this context may not see and the other may, or a failure asking the setup for one. */
function hiddenHere(rows: VisibleRows, other: VisibleRows): number {
  const found = other.items.find((id) => !rows.items.includes(id));
  if (found === undefined) fail(`the contexts must each hide an Item the other sees; got ${show(rows.items)} and ${show(other.items)}`);
  return found;
}

/** The Note of an Item as the context that sees it reads it. */
async function noteOf(service: ServiceClient, id: number): Promise<unknown> {
  return entryOf(await service.get(`Items(${id})`), `GET Items(${id})`).Note;
}

const writeCases = ([0, 1] as const).flatMap((index) => [
  forContext(index, 'a hidden Item cannot be changed or deleted (404), and stays as it was', 'visibility.writes', async (rows, service, _paged, other) => {
    const hidden = hiddenHere(rows, other);
    const otherService = service.withHeaders(other.headers);
    const before = await noteOf(otherService, hidden);
    for (const headers of [{}, { 'if-match': '*' }] as readonly Readonly<Record<string, string>>[]) {
      for (const method of ['MERGE', 'PUT']) {
        const answer = await service.sendJson(method, `Items(${hidden})`, { Name: 'hidden', Note: 'changed', Created: '/Date(0)/' }, headers);
        expectStatus(answer, 404, `${method} Items(${hidden}) ${show(headers)}`);
      }
      expectStatus(await service.send('DELETE', `Items(${hidden})`, { headers }), 404, `DELETE Items(${hidden}) ${show(headers)}`);
      expectStatus(
        await service.send('PUT', `Items(${hidden})/Note/$value`, { headers: { ...headers, 'content-type': 'text/plain' }, body: 'changed' }),
        404,
        `PUT Items(${hidden})/Note/$value`,
      );
    }
    expectEqual(await noteOf(otherService, hidden), before, `Items(${hidden})/Note as the context that sees it`);
  }),
  forContext(index, 'a changeset that writes to a hidden Item fails whole', 'visibility.writes', async (rows, service, _paged, other) => {
    const hidden = hiddenHere(rows, other);
    const visible = rows.items[0];
    const before = await noteOf(service, visible);
    const { parts } = await sendBatch(service, [
      {
        changeset: [
          { method: 'MERGE', path: `Items(${visible})`, body: { Note: 'changeset' } },
          { method: 'MERGE', path: `Items(${hidden})`, body: { Note: 'changeset' } },
        ],
      },
    ]);
    expectEqual(parts[0].statuses, [404], 'the changeset');
    expectEqual(await noteOf(service, visible), before, `Items(${visible})/Note after the failed changeset`);
  }),
]);

/** The read cases. */
export const visibilityGroup: GroupDefinition = { name: 'row visibility', cases: readCases };

/** The write cases (a provider with writes). */
export const visibilityWritesGroup: GroupDefinition = { name: 'row visibility writes', cases: writeCases };
