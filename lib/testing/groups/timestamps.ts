/**
 * Timestamps at milliseconds (docs/conformance.md "Timestamps"): Moments hold Edm.DateTime and
 * Edm.DateTimeOffset values with microseconds, many within one millisecond. Whether the store keeps
 * the microseconds (the setup's `storeExact`) or not, every value reads back cut to milliseconds
 * toward the past, `$filter` compares at milliseconds, `$orderby` treats values within one
 * millisecond as equal (ties by key), and walking the next links, whose `$skiptoken` carries
 * milliseconds, gives every Moment exactly once under ascending, descending and mixed orders.
 */
import { AssertionError } from 'assert';
import { expectEqual, fail, feedOf, show } from '../check';
import { url } from '../client';
import { readIds, sortIds } from '../entities';
import type { EntityId } from '../entities';
import { FIXTURE_ROWS } from '../fixture-data';
import type { MomentRow } from '../fixture-moments';
import { jsonDate, milliseconds, sortRows } from '../reference';
import type { SortKey } from '../reference';
import { check } from '../suite';
import type { CaseDefinition, GroupDefinition } from '../suite';
import { judgeWalk, walk } from './paging';

const { Moments } = FIXTURE_ROWS;

/** What the failure says about the data the provider holds. */
function stored(exact: boolean): string {
  return exact
    ? 'the setup stored the values with microseconds (storeExact)'
    : 'the setup has no storeExact, so the provider holds the values cut to milliseconds';
}

const at = (moment: MomentRow): number => milliseconds(moment.At);
const atOffset = (moment: MomentRow): number | null => (moment.AtOffset === null ? null : milliseconds(moment.AtOffset));

const values = check('GET Moments reads every value cut to milliseconds, toward the past', 'timestamps.milliseconds', async ({ service, exactTimestamps }) => {
  const target = url('Moments', { $select: 'ID,At,AtOffset' });
  const entries = feedOf(await service.get(target), `GET ${target}`).entries;
  const got = sortIds(entries.map((entry) => entry.ID as EntityId)).map((id) => {
    const entry = entries.find((candidate) => candidate.ID === id);
    return { ID: id, At: entry?.At, AtOffset: entry?.AtOffset };
  });
  const expected = Moments.map((moment) => ({
    ID: moment.ID,
    At: jsonDate(moment.At, false),
    AtOffset: moment.AtOffset === null ? null : jsonDate(moment.AtOffset, true),
  }));
  expectEqual(got, expected, `GET Moments (${stored(exactTimestamps)})`);
});

type Operator = 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge';

function compare(value: number | null, operator: Operator, bound: number): boolean {
  if (value === null) return operator === 'ne';
  switch (operator) {
    case 'eq':
      return value === bound;
    case 'ne':
      return value !== bound;
    case 'lt':
      return value < bound;
    case 'le':
      return value <= bound;
    case 'gt':
      return value > bound;
    case 'ge':
      return value >= bound;
  }
}

/** `property operator literal` keeps the Moments whose millisecond value satisfies it. */
function filterCase(property: 'At' | 'AtOffset', operator: Operator, literal: string): CaseDefinition {
  const text = property === 'At' ? `At ${operator} datetime'${literal}'` : `AtOffset ${operator} datetimeoffset'${literal}'`;
  const bound = milliseconds(literal);
  const value = property === 'At' ? at : atOffset;
  const expected = sortIds(Moments.filter((moment) => compare(value(moment), operator, bound)).map((moment) => moment.ID));
  return check(`Moments?$filter=${text}`, 'timestamps.milliseconds', async ({ service, exactTimestamps }) => {
    const ids = sortIds(await readIds(service, 'Moments', 'Moments', { $filter: text }));
    expectEqual(ids, expected, `Moments?$filter=${text} kept (compared at milliseconds; ${stored(exactTimestamps)})`);
  });
}

const filters = [
  ...(['eq', 'ne', 'lt', 'le', 'gt', 'ge'] as const).map((operator) => filterCase('At', operator, '2024-05-01T10:00:00.123')),
  filterCase('At', 'lt', '1970-01-01T00:00:00'),
  filterCase('At', 'eq', '1969-12-31T23:59:59.999'),
  filterCase('AtOffset', 'eq', '2024-05-01T10:00:00.5Z'),
  filterCase('AtOffset', 'gt', '2024-05-01T12:00:00.5+02:00'),
  filterCase('AtOffset', 'le', '2024-05-01T10:00:00.499Z'),
];

/** An `$orderby` over Moments: its items as reference sort keys over millisecond values. */
interface MomentOrdering {
  readonly orderby: string;
  readonly keys: readonly SortKey<MomentRow>[];
}

const ID_DESC: SortKey<MomentRow> = { value: (moment) => moment.ID, descending: true };

const ORDERINGS: readonly MomentOrdering[] = [
  { orderby: 'At', keys: [{ value: at }] },
  { orderby: 'At desc', keys: [{ value: at, descending: true }] },
  { orderby: 'AtOffset', keys: [{ value: atOffset }] },
  { orderby: 'AtOffset desc', keys: [{ value: atOffset, descending: true }] },
  { orderby: 'At desc,AtOffset', keys: [{ value: at, descending: true }, { value: atOffset }] },
  { orderby: 'AtOffset desc,At', keys: [{ value: atOffset, descending: true }, { value: at }] },
  { orderby: 'At,ID desc', keys: [{ value: at }, ID_DESC] },
  { orderby: 'AtOffset,ID desc', keys: [{ value: atOffset }, ID_DESC] },
];

/** A wrong order, with the hint when only the order within one millisecond is wrong. */
function judgeOrder(ordering: MomentOrdering, expected: readonly EntityId[], actual: readonly EntityId[], exact: boolean): void {
  if (actual.length === expected.length && actual.every((id, index) => id === expected[index])) return;
  const byId = new Map(Moments.map((moment) => [moment.ID as EntityId, moment]));
  const valuesOf = (ids: readonly EntityId[]): string => show(ids.map((id) => ordering.keys.map((key) => String(key.value(byId.get(id) ?? Moments[0])))));
  const within = actual.length === expected.length && valuesOf(actual) === valuesOf(expected);
  fail(
    `GET Moments?$orderby=${ordering.orderby} gave the order: expected ${show(expected)}, got ${show(actual)}${within ? ' (entries within one millisecond are not in key order: the store sorts by more than milliseconds)' : ''}; ${stored(exact)}`,
  );
}

function orderingCase(ordering: MomentOrdering): CaseDefinition {
  const expected = sortRows(Moments, ordering.keys, (moment) => [moment.ID]).map((moment) => moment.ID);
  return check(
    `Moments?$orderby=${ordering.orderby} in one response and page by page`,
    'timestamps.milliseconds',
    async ({ service, paged, exactTimestamps }) => {
      judgeOrder(ordering, expected, await readIds(service, 'Moments', 'Moments', { $orderby: ordering.orderby }), exactTimestamps);
      const what = `walking Moments?$orderby=${ordering.orderby} (${stored(exactTimestamps)})`;
      let ids: EntityId[];
      try {
        ({ ids } = await walk(paged, 'Moments', 'Moments', { $orderby: ordering.orderby, $inlinecount: 'allpages' }, expected.length));
      } catch (error) {
        if (!(error instanceof AssertionError)) throw error;
        fail(`${what}: ${error.message}`);
      }
      judgeWalk(ids, expected, what);
    },
  );
}

/** Timestamps with microseconds, compared, sorted and paged at milliseconds. */
export const timestampGroups: readonly GroupDefinition[] = [{ name: 'timestamps', cases: [values, ...filters, ...ORDERINGS.map(orderingCase)] }];
