/**
 * Timestamps (docs/conformance.md "Timestamps"): Moments hold Edm.DateTime and Edm.DateTimeOffset
 * values with microseconds, many within one millisecond. Whether the store keeps the microseconds
 * (the setup's `storeExact`) or not, every value reads back cut to milliseconds toward the past and
 * `$filter` compares at milliseconds; `$orderby` sorts by the stored value, then the key, and
 * walking the next links gives every Moment exactly once under ascending, descending and mixed
 * orders. A `$skiptoken` at milliseconds (an earlier release's) continues after its millisecond and
 * key; one with microseconds after that exact value.
 */
import { AssertionError } from 'assert';
import { isInstanceOf } from '../../util';
import { expectEqual, fail, feedOf, show } from '../check';
import { url } from '../client';
import { readIds, sortIds } from '../entities';
import type { EntityId } from '../entities';
import { FIXTURE_ROWS } from '../fixture-data';
import type { MomentRow } from '../fixture-moments';
import { jsonDate, milliseconds, sortRows, ticks } from '../reference';
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

const values = check('GET Moments reads every value cut to milliseconds, toward the past', 'timestamps.precision', async ({ service, exactTimestamps }) => {
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
  return check(`Moments?$filter=${text}`, 'timestamps.precision', async ({ service, exactTimestamps }) => {
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

/** A value as the store under test holds it, in ticks: exact with storeExact, else cut to milliseconds. */
function storedTicks(iso: string | null, exact: boolean): bigint | null {
  if (iso === null) return null;
  return exact ? ticks(iso) : BigInt(milliseconds(iso)) * 10_000n;
}

/** An `$orderby` over Moments: its items as reference sort keys over the stored values. */
interface MomentOrdering {
  readonly orderby: string;
  readonly keys: (exact: boolean) => readonly SortKey<MomentRow>[];
}

const byAt = (exact: boolean, descending = false): SortKey<MomentRow> => ({ value: (moment) => storedTicks(moment.At, exact), descending });
const byAtOffset = (exact: boolean, descending = false): SortKey<MomentRow> => ({ value: (moment) => storedTicks(moment.AtOffset, exact), descending });
const ID_DESC: SortKey<MomentRow> = { value: (moment) => moment.ID, descending: true };

const ORDERINGS: readonly MomentOrdering[] = [
  { orderby: 'At', keys: (exact) => [byAt(exact)] },
  { orderby: 'At desc', keys: (exact) => [byAt(exact, true)] },
  { orderby: 'AtOffset', keys: (exact) => [byAtOffset(exact)] },
  { orderby: 'AtOffset desc', keys: (exact) => [byAtOffset(exact, true)] },
  { orderby: 'At desc,AtOffset', keys: (exact) => [byAt(exact, true), byAtOffset(exact)] },
  { orderby: 'AtOffset desc,At', keys: (exact) => [byAtOffset(exact, true), byAt(exact)] },
  { orderby: 'At,ID desc', keys: (exact) => [byAt(exact), ID_DESC] },
  { orderby: 'AtOffset,ID desc', keys: (exact) => [byAtOffset(exact), ID_DESC] },
];

/** The Moments in an ordering's order, as the store under test holds them. */
function expectedOrder(ordering: MomentOrdering, exact: boolean): EntityId[] {
  return sortRows(Moments, ordering.keys(exact), (moment) => [moment.ID]).map((moment) => moment.ID);
}

/** A wrong order, with the hint when only the order within one millisecond is wrong. */
function judgeOrder(ordering: MomentOrdering, expected: readonly EntityId[], actual: readonly EntityId[], exact: boolean): void {
  if (actual.length === expected.length && actual.every((id, index) => id === expected[index])) return;
  const byId = new Map(Moments.map((moment) => [moment.ID as EntityId, moment]));
  const keys = ordering.keys(false);
  const valuesOf = (ids: readonly EntityId[]): string => show(ids.map((id) => keys.map((key) => String(key.value(byId.get(id) ?? Moments[0])))));
  const within = actual.length === expected.length && valuesOf(actual) === valuesOf(expected);
  const hint = exact
    ? ' (entries within one millisecond are out of order: the store must sort by the stored value, microseconds included, then by key)'
    : ' (entries within one millisecond are not in key order)';
  fail(`GET Moments?$orderby=${ordering.orderby} gave the order: expected ${show(expected)}, got ${show(actual)}${within ? hint : ''}; ${stored(exact)}`);
}

function orderingCase(ordering: MomentOrdering): CaseDefinition {
  return check(`Moments?$orderby=${ordering.orderby} in one response and page by page`, 'timestamps.precision', async ({ service, paged, exactTimestamps }) => {
    const expected = expectedOrder(ordering, exactTimestamps);
    judgeOrder(ordering, expected, await readIds(service, 'Moments', 'Moments', { $orderby: ordering.orderby }), exactTimestamps);
    const what = `walking Moments?$orderby=${ordering.orderby} (${stored(exactTimestamps)})`;
    let ids: EntityId[];
    try {
      ({ ids } = await walk(paged, 'Moments', 'Moments', { $orderby: ordering.orderby, $inlinecount: 'allpages' }, expected.length));
    } catch (error) {
      if (!isInstanceOf(error, AssertionError)) throw error;
      fail(`${what}: ${error.message}`);
    }
    judgeWalk(ids, expected, what);
  });
}

/**
 * A `$skiptoken` a client sends back, on the mount without paging (every entry after the position
 * comes in one response): `value` is the token's date/time text, `id` its key.
 */
interface TokenCase {
  readonly ordering: MomentOrdering;
  readonly property: 'At' | 'AtOffset';
  readonly value: string;
  readonly id: EntityId;
  readonly why: string;
}

/**
 * The Moments after a position in an ordering. A value of three fractional digits or fewer stands
 * for its whole millisecond (the Moments of that millisecond tie with it: by key); one with more
 * digits is compared with the stored value. Nulls sort first ascending, last descending.
 */
function after(token: TokenCase, exact: boolean): EntityId[] {
  const fraction = /\.(\d+)/.exec(token.value)?.[1] ?? '';
  const wholeMillisecond = fraction.length <= 3;
  const bound = wholeMillisecond ? BigInt(milliseconds(token.value)) * 10_000n : ticks(token.value);
  const descending = token.ordering.orderby.endsWith(' desc');
  const kept = Moments.filter((moment) => {
    const text = token.property === 'At' ? moment.At : moment.AtOffset;
    if (text === null) return descending; // null: first ascending (before any value), last descending
    const value = wholeMillisecond ? BigInt(milliseconds(text)) * 10_000n : (storedTicks(text, exact) ?? 0n);
    if (value === bound) return moment.ID > Number(token.id);
    return descending ? value < bound : value > bound;
  }).map((moment) => moment.ID as EntityId);
  return expectedOrder(token.ordering, exact).filter((id) => kept.includes(id));
}

function orderingOf(orderby: string): MomentOrdering {
  const found = ORDERINGS.find((ordering) => ordering.orderby === orderby);
  if (found === undefined) throw new Error(`no Moments ordering ${orderby}`);
  return found;
}

const TOKENS: readonly TokenCase[] = [
  { ordering: orderingOf('At'), property: 'At', value: '2024-05-01T10:00:00.123', id: 6, why: 'a millisecond token, as earlier releases wrote it' },
  { ordering: orderingOf('At desc'), property: 'At', value: '2024-05-01T10:00:00.123', id: 6, why: 'a millisecond token, as earlier releases wrote it' },
  {
    ordering: orderingOf('AtOffset desc'),
    property: 'AtOffset',
    value: '2024-05-01T10:00:00.5Z',
    id: 4,
    why: 'a millisecond token, as earlier releases wrote it',
  },
  { ordering: orderingOf('At'), property: 'At', value: '2024-05-01T10:00:00.123456', id: 1, why: 'a microsecond token: the exact value' },
  { ordering: orderingOf('At desc'), property: 'At', value: '2024-05-01T10:00:00.123456', id: 1, why: 'a microsecond token: the exact value' },
];

function tokenCase(token: TokenCase): CaseDefinition {
  const literal = token.property === 'At' ? `datetime'${token.value}'` : `datetimeoffset'${token.value}'`;
  const query = { $orderby: token.ordering.orderby, $skiptoken: `${literal},${token.id}` };
  return check(
    `Moments?$orderby=${query.$orderby}&$skiptoken=${query.$skiptoken} (${token.why})`,
    'timestamps.precision',
    async ({ service, exactTimestamps }) => {
      const ids = await readIds(service, 'Moments', 'Moments', query);
      expectEqual(ids, after(token, exactTimestamps), `Moments?$orderby=${query.$orderby}&$skiptoken=${query.$skiptoken} gave (${stored(exactTimestamps)})`);
    },
  );
}

/** Timestamps with microseconds: read and filtered at milliseconds, sorted and paged by the stored value. */
export const timestampGroups: readonly GroupDefinition[] = [
  { name: 'timestamps', cases: [values, ...filters, ...ORDERINGS.map(orderingCase), ...TOKENS.map(tokenCase)] },
];
