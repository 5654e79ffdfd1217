/**
 * Loads plain JSON-like data into the store, checking it against the model: every problem
 * (unknown set or property, bad value, duplicate key, dangling link, too many links for a `0..1`
 * end, a missing required link) is collected and thrown as one MEMORY_DATA_INVALID error that
 * names the set, key and property. Links are given by navigation property (see docs/memory-provider.md).
 */
import type { EdmEntitySet } from '../../edm/model';
import { isPlainObject } from '../../edm/primitives';
import { ODataError, isODataError } from '../../errors';
import { didYouMean } from '../../util';
import { buildValues } from './entity-values';
import { describeKeyValues, keyOfValues, normalizeKey } from './keys';
import { otherEnd } from './link-table';
import type { NavigationBinding } from './link-table';
import type { Store } from './store';

/** Entity set name to its entities: plain objects of property values and links. */
export type MemoryData = Readonly<Record<string, readonly Readonly<Record<string, unknown>>[]>>;

/**
 * Foreign-key fields per entity set: navigation property name to the field holding the target's
 * key (a single key), or to `{ keyProperty: field }` (a composite key).
 */
export type ForeignKeyMap = Readonly<Record<string, Readonly<Record<string, string | Readonly<Record<string, string>>>>>>;

/** At most this many problems are listed; the rest are counted. */
const MAX_LISTED = 50;

function fail(problems: readonly string[]): never {
  const listed = problems.slice(0, MAX_LISTED).map((problem) => `- ${problem}`);
  if (problems.length > MAX_LISTED) listed.push(`- ... and ${problems.length - MAX_LISTED} more`);
  throw ODataError.fromCode('MEMORY_DATA_INVALID', { errors: listed.join('\n') });
}

/**
 * Turn foreign-key fields into links: `{ Products: { Category: 'CategoryID' } }` reads each
 * product's `CategoryID` as the key of its `Category` and drops the field, which is not a model
 * property and must never be emitted. An absent field means no link.
 */
export function fromForeignKeys(data: MemoryData, links: ForeignKeyMap): MemoryData {
  const problems: string[] = [];
  const out: Record<string, readonly Readonly<Record<string, unknown>>[]> = { ...data };
  for (const [setName, mapping] of Object.entries(links)) {
    const rows = data[setName];
    if (!Array.isArray(rows)) continue;
    out[setName] = rows.map((row: unknown, index) => {
      if (!isPlainObject(row)) return row as Readonly<Record<string, unknown>>;
      const copy: Record<string, unknown> = { ...row };
      for (const [navigation, fields] of Object.entries(mapping)) {
        const names = typeof fields === 'string' ? [fields] : Object.values(fields);
        for (const name of names) delete copy[name];
        if (names.every((name) => row[name] === undefined)) continue;
        if (row[navigation] !== undefined) {
          problems.push(`${setName}[${index}]: '${navigation}' is given both as a link and by the foreign key ${names.join(', ')}.`);
          continue;
        }
        if (typeof fields === 'string') copy[navigation] = row[fields];
        else if (names.every((name) => row[name] === null)) copy[navigation] = null;
        else copy[navigation] = Object.fromEntries(Object.entries(fields).map(([keyName, field]) => [keyName, row[field]]));
      }
      return copy;
    });
  }
  if (problems.length > 0) fail(problems);
  return out;
}

/** A link as the data gives it, waiting for every set to be loaded. */
interface PendingLink {
  readonly binding: NavigationBinding;
  readonly source: string;
  /** The row that gives the link and its position, to name it in a message (made only for a problem). */
  readonly row: Readonly<Record<string, unknown>>;
  readonly index: number;
  readonly value: unknown;
}

/** How messages name a row: by its key, or by its position when it has none. */
function labelOf(entitySet: EdmEntitySet, row: Readonly<Record<string, unknown>>, index: number): string {
  const type = entitySet.entityType;
  const keyed = type.key.every((property) => row[property.name] !== undefined && row[property.name] !== null);
  return keyed ? `${entitySet.name}${describeKeyValues(type, row)}` : `${entitySet.name}[${index}]`;
}

/** Load `data` into an empty store; throws MEMORY_DATA_INVALID listing every problem found. */
export function loadData(store: Store, data: MemoryData): void {
  const problems: string[] = [];
  const links: PendingLink[] = [];
  const model = store.model;
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
    rows.forEach((row: unknown, index) => loadRow(store, entitySet, row, index, problems, links));
  }
  for (const link of links) addLink(store, link, problems);
  problems.push(...store.takeViolations());
  if (problems.length > 0) fail(problems);
}

function loadRow(store: Store, entitySet: EdmEntitySet, row: unknown, index: number, problems: string[], links: PendingLink[]): void {
  const type = entitySet.entityType;
  if (!isPlainObject(row)) {
    problems.push(`${entitySet.name}[${index}]: expected an object.`);
    return;
  }
  const properties: Record<string, unknown> = {};
  const navigation: [NavigationBinding | undefined, string, unknown][] = [];
  for (const name of Object.keys(row)) {
    if (type.navigationPropertiesByName.has(name)) {
      navigation.push([store.linkTables.bindings.get(entitySet)?.get(name), name, row[name]]);
    } else if (type.propertiesByName.has(name) || type.openType) {
      properties[name] = row[name];
    } else {
      const suggestion = didYouMean(name, [...type.propertiesByName.keys(), ...type.navigationPropertiesByName.keys()]);
      problems.push(`${labelOf(entitySet, row, index)}: unknown property '${name}' (${type.qualifiedName} is not an open type).${suggestion}`);
      return;
    }
  }
  let values;
  try {
    values = buildValues(type, properties, 'insert', undefined);
  } catch (error) {
    if (!isODataError(error)) throw error;
    problems.push(`${labelOf(entitySet, row, index)}: ${error.message}`);
    return;
  }
  const key = keyOfValues(type, values);
  if (store.getByKeyString(entitySet, key) !== undefined) {
    problems.push(`${labelOf(entitySet, row, index)}: duplicate key in '${entitySet.name}' (entry ${index}).`);
    return;
  }
  const source = store.seed(entitySet, values);
  for (const [binding, name, value] of navigation) {
    if (binding === undefined) problems.push(`${labelOf(entitySet, row, index)}: navigation property '${name}' has no association set in the container.`);
    else if (value !== null && value !== undefined) links.push({ binding, source, row, index, value });
  }
}

function addLink(store: Store, link: PendingLink, problems: string[]): void {
  const { binding } = link;
  const label = (): string => labelOf(binding.source, link.row, link.index);
  const name = binding.property.name;
  if (binding.property.isCollection !== Array.isArray(link.value)) {
    const expected = binding.property.isCollection ? 'an array of keys' : 'one key (or null)';
    problems.push(`${label()}: navigation property '${name}' must hold ${expected}.`);
    return;
  }
  const targets: readonly unknown[] = Array.isArray(link.value) ? link.value : [link.value];
  const targetType = binding.target.entityType;
  for (const target of targets) {
    const keyName = targetType.key.length === 1 ? targetType.key[0].name : undefined;
    const given = isPlainObject(target) || keyName === undefined ? target : { [keyName]: target };
    const normalized = isPlainObject(given) ? normalizeKey(targetType, given) : { ok: false as const, detail: 'expected an object of key properties' };
    if (!normalized.ok) {
      problems.push(`${label()}: navigation property '${name}' has a bad target key: ${normalized.detail}.`);
      continue;
    }
    const targetKey = keyOfValues(targetType, normalized.values);
    const values = normalized.values;
    const targetLabel = (): string => `${binding.target.name}${describeKeyValues(targetType, values)}`;
    const stored = store.recordOf(binding.target, targetKey);
    if (stored === undefined) {
      problems.push(`${label()}: navigation property '${name}' links to ${targetLabel()}, which does not exist.`);
      continue;
    }
    const problem = seedLink(binding, link.source, stored.key, label, targetLabel);
    if (problem !== undefined) problems.push(problem);
  }
}

/** Add a pair unless it breaks a `0..1`/`1` end; the same link given from both sides is fine. Labels are made for a problem only. */
function seedLink(binding: NavigationBinding, source: string, target: string, label: () => string, targetLabel: () => string): string | undefined {
  const { table, from } = binding;
  const to = otherEnd(from);
  const ends = table.associationSet.ends;
  if (table.has(from, source, target)) return undefined;
  if (ends[to].end.multiplicity !== '*' && table.targets(from, source).size > 0) {
    return `${label()}: '${binding.property.name}' links to more than one entity of '${binding.target.name}' (also ${targetLabel()}), but its end allows one.`;
  }
  if (ends[from].end.multiplicity !== '*' && table.targets(to, target).size > 0) {
    return `${targetLabel()}: linked from more than one entity of '${binding.source.name}' (also ${label()}) over '${table.associationSet.name}', but that end allows one.`;
  }
  table.add(from, source, target);
  return undefined;
}
