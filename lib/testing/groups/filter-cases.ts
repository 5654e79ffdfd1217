/**
 * The machinery of the `$filter` groups: a case sends one filter and compares the keys of the
 * entries it keeps with the fixture rows a plain predicate keeps (the predicate spells out the
 * null semantics of the rule, so the expectation never comes from an evaluator).
 */
import { expectEqual } from '../check';
import { readIds, sortIds } from '../entities';
import type { EntityId, FixtureSet } from '../entities';
import { FIXTURE_ROWS } from '../fixture-data';
import type { EventRow, FixtureRows, ItemRow } from '../fixture-data';
import type { ConformanceRuleId } from '../rules';
import { check } from '../suite';
import type { CaseDefinition } from '../suite';

/** A filter over a set, the rule it checks and the ids of the rows it must keep. */
export function filterCase(set: FixtureSet, filter: string, rule: ConformanceRuleId, expected: readonly EntityId[]): CaseDefinition {
  const want = sortIds(expected);
  return check(`${set}?$filter=${filter}`, rule, async ({ service }) => {
    const ids = await readIds(service, set, set, { $filter: filter });
    expectEqual(sortIds(ids), want, `${set}?$filter=${filter} kept`);
  });
}

/** A filter over Items: the rows `keep` keeps. */
export function itemCase(filter: string, rule: ConformanceRuleId, keep: (item: ItemRow) => boolean): CaseDefinition {
  return filterCase(
    'Items',
    filter,
    rule,
    FIXTURE_ROWS.Items.filter(keep).map((item) => item.ID),
  );
}

/** A filter over Events: the rows `keep` keeps. */
export function eventCase(filter: string, rule: ConformanceRuleId, keep: (event: EventRow) => boolean): CaseDefinition {
  return filterCase(
    'Events',
    filter,
    rule,
    FIXTURE_ROWS.Events.filter(keep).map((event) => event.ID),
  );
}

/** The fixture rows, for predicates over other sets. */
export const ROWS: FixtureRows = FIXTURE_ROWS;

/** An Int64 as a bigint (null stays null). */
export function int64(text: string | null): bigint | null {
  return text === null ? null : BigInt(text);
}

/** The name of an item's category, or null without one (a path through a missing link). */
export function categoryName(item: ItemRow): string | null {
  return ROWS.Categories.find((category) => category.ID === item.Category)?.Name ?? null;
}
