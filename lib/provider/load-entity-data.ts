/**
 * Loading data in the MemoryProvider format (entity-data.ts) into an empty store, checked against
 * the model: every problem (unknown set or property, bad value, duplicate key, dangling link, too
 * many links for a `0..1` end, a missing required link) is collected and thrown as one
 * MEMORY_DATA_INVALID error naming the set, key and property. The store is a target with a few
 * primitives (MemoryProvider's tables, or `EntityDataCollection` for `seed`), so both load the
 * same data the same way and report the same problems.
 */
import type { EdmAssociationSet, EdmEntitySet, EdmModel } from '../edm/model';
import { isPlainObject, type PropertyValue } from '../edm/primitives';
import { isODataError } from '../errors';
import { didYouMean, systemClock, type Clock } from '../util';
import { dataInvalid, foreignKeyConverter, rowLabel, type ForeignKeyMap, type MemoryData, type RowConverter } from './entity-data';
import { buildValues } from './entry-values';
import { describeKey, keyIdentity, normalizeKey } from './keys';
import { requiredLinkLabel, requiredLinkProblem } from './required-links';
import { navigationBindings, otherEnd, type EndIndex, type NavigationBinding } from './navigation-bindings';
import { managedTokenRule, nextToken } from './tokens';

/**
 * Where `loadEntityData` puts what it checked, as it goes: an empty store. Entities are named by
 * their key identity (`keyIdentity`); a link joins end `from`'s entity to the other end's.
 */
export interface EntityDataTarget {
  /** The stored key identity equal to `key` (the store may hand back its own string, to share it), or undefined. */
  stored(entitySet: EdmEntitySet, key: string): string | undefined;
  /** Store a new entity's checked values (defaults and concurrency tokens filled) under `key`. */
  store(entitySet: EdmEntitySet, key: string, values: Record<string, PropertyValue>): void;
  /** Whether `source` at end `from` is linked to `target` at the other end. */
  linked(associationSet: EdmAssociationSet, from: EndIndex, source: string, target: string): boolean;
  /** How many entities at the other end `key` at end `from` is linked to. */
  partnerCount(associationSet: EdmAssociationSet, from: EndIndex, key: string): number;
  /** Link `source` at end `from` to `target` at the other end. */
  link(associationSet: EdmAssociationSet, from: EndIndex, source: string, target: string): void;
}

/** Options of `loadEntityData`. */
export interface LoadEntityDataOptions {
  /** Foreign-key fields that stand for links. */
  readonly links?: ForeignKeyMap | undefined;
  /** The clock a DateTime concurrency token the data leaves out starts at. */
  readonly now?: Clock | undefined;
}

/** A loaded set: its rows and, per row, the stored key (undefined for a row that failed). */
interface LoadedSet {
  readonly setName: string;
  readonly entitySet: EdmEntitySet;
  readonly rows: readonly unknown[];
  readonly sources: readonly (string | undefined)[];
  /** The values of each stored entity, kept only for a set some of whose links are required. */
  readonly values: (Readonly<Record<string, PropertyValue>> | undefined)[];
}

/**
 * Load `data` into `target` (empty), with `options.links` turning foreign-key fields into links
 * row by row; throws MEMORY_DATA_INVALID listing every problem found. Entities first, then (once
 * every set is there) the links, read again from the rows rather than held as a list of pending
 * links; last, every entity that must be linked to exactly one other (the far end's multiplicity
 * is `1`) is checked.
 */
export function loadEntityData(model: EdmModel, data: MemoryData, target: EntityDataTarget, options: LoadEntityDataOptions = {}): void {
  const { links, now = systemClock } = options;
  const convert: RowConverter = links === undefined ? (_setName, row) => row : foreignKeyConverter(data, links);
  const bindings = navigationBindings(model);
  const problems: string[] = [];
  const loaded: LoadedSet[] = [];
  for (const setName of Object.keys(data)) {
    const entitySet = model.entitySets.get(setName);
    if (entitySet === undefined) {
      problems.push(`Unknown entity set '${setName}'.${didYouMean(setName, model.entitySets.keys())}`);
      continue;
    }
    const rows: unknown = data[setName];
    if (!Array.isArray(rows)) {
      problems.push(`${setName}: expected an array of entities.`);
      continue;
    }
    const keep = requiredEnds(model, entitySet).length > 0;
    const values: LoadedSet['values'] = [];
    const setBindings = bindings.get(entitySet) ?? new Map<string, NavigationBinding>();
    const sources = rows.map((row: unknown, index) => {
      const stored = loadRow(target, entitySet, setBindings, convert(setName, row), index, problems, now);
      if (keep) values.push(stored?.values);
      return stored?.key;
    });
    loaded.push({ setName, entitySet, rows, sources, values });
  }
  for (const { setName, entitySet, rows, sources } of loaded) {
    const setBindings = bindings.get(entitySet);
    sources.forEach((source, index) => {
      if (source === undefined || setBindings === undefined) return;
      const row = convert(setName, rows[index]) as Readonly<Record<string, unknown>>;
      for (const name of Object.keys(row)) {
        const binding = setBindings.get(name);
        const value = row[name];
        if (binding !== undefined && value !== null && value !== undefined) addLink(target, { binding, source, row, index, value }, problems);
      }
    });
  }
  for (const set of loaded) problems.push(...requiredLinkProblems(model, target, set));
  if (problems.length > 0) throw dataInvalid(problems);
}

/** Store one row's entity; its key and values, or undefined (with the problem noted) when it cannot be stored. */
function loadRow(
  target: EntityDataTarget,
  entitySet: EdmEntitySet,
  bindings: ReadonlyMap<string, NavigationBinding>,
  row: unknown,
  index: number,
  problems: string[],
  now: Clock,
): { key: string; values: Record<string, PropertyValue> } | undefined {
  const type = entitySet.entityType;
  if (!isPlainObject(row)) {
    problems.push(`${entitySet.name}[${index}]: expected an object.`);
    return undefined;
  }
  const properties: Record<string, unknown> = {};
  const unbound: string[] = [];
  for (const name of Object.keys(row)) {
    if (type.navigationPropertiesByName.has(name)) {
      // Links are added once every set is loaded; a navigation property without an association set is reported now.
      if (!bindings.has(name)) unbound.push(name);
    } else if (type.propertiesByName.has(name) || type.openType) {
      properties[name] = row[name];
    } else {
      const suggestion = didYouMean(name, [...type.propertiesByName.keys(), ...type.navigationPropertiesByName.keys()]);
      problems.push(`${rowLabel(entitySet, row, index)}: unknown property '${name}' (${type.qualifiedName} is not an open type).${suggestion}`);
      return undefined;
    }
  }
  let values;
  try {
    values = buildValues(type, properties, 'insert', undefined);
  } catch (error) {
    if (!isODataError(error)) throw error;
    problems.push(`${rowLabel(entitySet, row, index)}: ${error.message}`);
    return undefined;
  }
  const key = keyIdentity(type, values);
  if (target.stored(entitySet, key) !== undefined) {
    problems.push(`${rowLabel(entitySet, row, index)}: duplicate key in '${entitySet.name}' (entry ${index}).`);
    return undefined;
  }
  for (const name of unbound) problems.push(`${rowLabel(entitySet, row, index)}: navigation property '${name}' has no association set in the container.`);
  // A token the data leaves out starts as the kit's rule says; one it gives is kept.
  for (const property of type.concurrencyProperties) {
    if (values[property.name] !== null || managedTokenRule(property) === undefined || property.type.kind !== 'Primitive') continue;
    values[property.name] = nextToken(property.type.name, undefined, now) ?? null;
  }
  target.store(entitySet, key, values);
  return { key, values };
}

/** A link as a row gives it, read when every set is loaded. */
interface GivenLink {
  readonly binding: NavigationBinding;
  /** The stored key of the row's entity. */
  readonly source: string;
  /** The row that gives the link and its position, to name it in a message (made only for a problem). */
  readonly row: Readonly<Record<string, unknown>>;
  readonly index: number;
  readonly value: unknown;
}

function addLink(target: EntityDataTarget, link: GivenLink, problems: string[]): void {
  const { binding } = link;
  const label = (): string => rowLabel(binding.source, link.row, link.index);
  const name = binding.property.name;
  if (binding.property.isCollection !== Array.isArray(link.value)) {
    const expected = binding.property.isCollection ? 'an array of keys' : 'one key (or null)';
    problems.push(`${label()}: navigation property '${name}' must hold ${expected}.`);
    return;
  }
  const targets: readonly unknown[] = Array.isArray(link.value) ? link.value : [link.value];
  const targetType = binding.target.entityType;
  for (const given of targets) {
    const keyName = targetType.key.length === 1 ? targetType.key[0].name : undefined;
    const keyObject = isPlainObject(given) || keyName === undefined ? given : { [keyName]: given };
    const normalized = isPlainObject(keyObject) ? normalizeKey(targetType, keyObject) : { ok: false as const, detail: 'expected an object of key properties' };
    if (!normalized.ok) {
      problems.push(`${label()}: navigation property '${name}' has a bad target key: ${normalized.detail}.`);
      continue;
    }
    const values = normalized.value;
    const targetLabel = (): string => `${binding.target.name}${describeKey(targetType, values)}`;
    const stored = target.stored(binding.target, keyIdentity(targetType, values));
    if (stored === undefined) {
      problems.push(`${label()}: navigation property '${name}' links to ${targetLabel()}, which does not exist.`);
      continue;
    }
    const problem = linkProblem(target, binding, link.source, stored, label, targetLabel);
    if (problem !== undefined) problems.push(problem);
  }
}

/** Add a pair unless it breaks a `0..1`/`1` end; the same link given from both sides is fine. Labels are made for a problem only. */
function linkProblem(
  target: EntityDataTarget,
  binding: NavigationBinding,
  source: string,
  other: string,
  label: () => string,
  targetLabel: () => string,
): string | undefined {
  const { associationSet, from } = binding;
  const to = otherEnd(from);
  const ends = associationSet.ends;
  if (target.linked(associationSet, from, source, other)) return undefined;
  if (ends[to].end.multiplicity !== '*' && target.partnerCount(associationSet, from, source) > 0) {
    return `${label()}: '${binding.property.name}' links to more than one entity of '${binding.target.name}' (also ${targetLabel()}), but its end allows one.`;
  }
  if (ends[from].end.multiplicity !== '*' && target.partnerCount(associationSet, to, other) > 0) {
    return `${targetLabel()}: linked from more than one entity of '${binding.source.name}' (also ${label()}) over '${associationSet.name}', but that end allows one.`;
  }
  target.link(associationSet, from, source, other);
  return undefined;
}

/** The association-set ends `entitySet` fills whose far end has multiplicity `1`: each of its entities must have exactly one link there. */
function requiredEnds(model: EdmModel, entitySet: EdmEntitySet): { associationSet: EdmAssociationSet; end: EndIndex }[] {
  const ends: { associationSet: EdmAssociationSet; end: EndIndex }[] = [];
  for (const associationSet of model.defaultContainer.associationSets) {
    for (const end of [0, 1] as const) {
      if (associationSet.ends[end].entitySet === entitySet && associationSet.ends[otherEnd(end)].end.multiplicity === '1') ends.push({ associationSet, end });
    }
  }
  return ends;
}

/** The required links (a far end of multiplicity `1`) each stored entity of a loaded set lacks or has too many of. */
function requiredLinkProblems(model: EdmModel, target: EntityDataTarget, set: LoadedSet): string[] {
  const problems: string[] = [];
  const ends = requiredEnds(model, set.entitySet);
  if (ends.length === 0) return problems;
  set.sources.forEach((key, index) => {
    const values = set.values[index];
    if (key === undefined || values === undefined) return;
    for (const { associationSet, end } of ends) {
      const count = target.partnerCount(associationSet, end, key);
      if (count === 1) continue;
      problems.push(requiredLinkProblem(set.entitySet, values, associationSet.ends[otherEnd(end)].entitySet, requiredLinkLabel(associationSet, end), count));
    }
  });
  return problems;
}
