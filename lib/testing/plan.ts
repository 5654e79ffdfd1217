/**
 * Which units and groups run for a provider: all read groups share one provider; each writing
 * unit gets its own; groups for what the provider lacks are replaced by the capability checks.
 */
import { filterFunctionGroups } from './groups/filter-functions';
import { filterValueGroups } from './groups/filter-values';
import { orderingGroups } from './groups/ordering';
import { pagingGroup } from './groups/paging';
import { searchGroups } from './groups/search';
import { navigationGroups } from './groups/navigation';
import { shapeGroups } from './groups/shape';
import { valueGroups } from './groups/values';
import { createGroups } from './groups/create';
import { updateGroups } from './groups/update';
import { linkGroups } from './groups/links';
import { concurrencyGroups } from './groups/concurrency';
import { changesetGroups } from './groups/changesets';
import { omittedGroups } from './groups/omitted';
import { retryGroups } from './groups/retry';
import { timestampGroups } from './groups/timestamps';
import { mediaGroups, openReadGroups, openWriteGroups } from './groups/media-open';
import { capabilityGroups } from './groups/capabilities';
import { visibilityGroup, visibilityWritesGroup } from './groups/visibility';
import type { Capabilities, GroupDefinition, UnitDefinition } from './suite';

function unit(name: string, groups: readonly GroupDefinition[]): UnitDefinition {
  return { name, groups };
}

/** The units to run, keeping only the named groups when `only` is given. */
export function planSuite(capabilities: Capabilities, only: readonly string[] | undefined): UnitDefinition[] {
  const units = [
    unit('reads', [
      ...valueGroups,
      ...filterValueGroups,
      ...filterFunctionGroups,
      ...orderingGroups,
      pagingGroup,
      ...searchGroups,
      ...timestampGroups,
      ...navigationGroups,
      ...shapeGroups,
      ...(capabilities.openTypes ? openReadGroups : []),
    ]),
    ...(capabilities.writes
      ? [
          unit('writes', [...createGroups, ...omittedGroups, ...updateGroups]),
          unit('links', capabilities.links ? linkGroups : []),
          unit('concurrency', concurrencyGroups),
          unit('changesets', [...changesetGroups, ...retryGroups]),
        ]
      : []),
    unit('media and open types', [
      ...(capabilities.media && capabilities.writes ? mediaGroups : []),
      ...(capabilities.openTypes && capabilities.writes ? openWriteGroups : []),
    ]),
    unit('row visibility', capabilities.rowVisibility ? [visibilityGroup, ...(capabilities.writes ? [visibilityWritesGroup] : [])] : []),
    unit('capabilities', capabilityGroups(capabilities)),
  ];
  const wanted = only === undefined ? undefined : new Set(only);
  return units
    .map((planned) => ({ name: planned.name, groups: planned.groups.filter((group) => wanted === undefined || wanted.has(group.name)) }))
    .filter((planned) => planned.groups.length > 0);
}

/** Every group name, for the `groups` option's check: the groups of every capability set. */
export function allGroupNames(): string[] {
  const sets: Capabilities[] = [true, false].flatMap((writes) =>
    [true, false].flatMap((links) =>
      [true, false].flatMap((media) =>
        [true, false].map((openTypes) => ({ writes, links: writes && links, media, openTypes, storeDefaults: false, rowVisibility: true })),
      ),
    ),
  );
  return [...new Set(sets.flatMap((capabilities) => planSuite(capabilities, undefined).flatMap((planned) => planned.groups.map((group) => group.name))))];
}
