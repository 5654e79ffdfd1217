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
import { buildValues } from '../../provider/entry-values';
import { describeKey, keyIdentity, normalizeKey } from '../../provider/keys';
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

/** How the rows of one set turn foreign-key fields into links (see fromForeignKeys). */
interface ForeignKeyReader {
  readonly readers: readonly { readonly navigation: string; readonly fields: string | Readonly<Record<string, string>>; readonly names: readonly string[] }[];
  /** Every foreign-key field of the set. */
  readonly foreign: ReadonlySet<string>;
}

/** A row's converter: the row as loadData reads it (links in place of foreign keys). */
type RowConverter = (setName: string, row: unknown) => unknown;

/**
 * Check the foreign-key fields of `data` (a link given both ways is a problem, thrown before
 * anything loads) and return the converter that turns one row's fields into links when it is
 * loaded: a converted copy of the whole data set is never held.
 */
function foreignKeyConverter(data: MemoryData, links: ForeignKeyMap): RowConverter {
  const problems: string[] = [];
  const bySet = new Map<string, ForeignKeyReader>();
  for (const [setName, mapping] of Object.entries(links)) {
    const rows = data[setName];
    if (!Array.isArray(rows)) continue;
    // Once per set, not per row: which fields each navigation property reads, and all of them.
    const readers = Object.entries(mapping).map(([navigation, fields]) => ({
      navigation,
      fields,
      names: typeof fields === 'string' ? [fields] : Object.values(fields),
    }));
    bySet.set(setName, { readers, foreign: new Set(readers.flatMap((reader) => reader.names)) });
    rows.forEach((row: unknown, index) => {
      if (!isPlainObject(row)) return;
      for (const { navigation, names } of readers) {
        if (row[navigation] !== undefined && names.some((name) => row[name] !== undefined)) {
          problems.push(`${setName}[${index}]: '${navigation}' is given both as a link and by the foreign key ${names.join(', ')}.`);
        }
      }
    });
  }
  if (problems.length > 0) fail(problems);
  return (setName, row) => {
    const reader = bySet.get(setName);
    return reader === undefined || !isPlainObject(row) ? row : withLinks(row, reader);
  };
}

/** A copy of `row` with its foreign-key fields turned into links (an absent field means no link). */
function withLinks(row: Readonly<Record<string, unknown>>, { readers, foreign }: ForeignKeyReader): Record<string, unknown> {
  // Built rather than copied and deleted from (`delete` would turn every copy into a slow
  // dictionary object); a `__proto__` field stays an own property (and an unknown one).
  const copy: Record<string, unknown> = {};
  for (const name of Object.keys(row)) {
    if (foreign.has(name)) continue;
    if (name === '__proto__') Object.defineProperty(copy, name, { value: row[name], enumerable: true, writable: true, configurable: true });
    else copy[name] = row[name];
  }
  for (const { navigation, fields, names } of readers) {
    if (names.every((name) => row[name] === undefined)) continue;
    if (typeof fields === 'string') copy[navigation] = row[fields];
    else if (names.every((name) => row[name] === null)) copy[navigation] = null;
    else copy[navigation] = Object.fromEntries(Object.entries(fields).map(([keyName, field]) => [keyName, row[field]]));
  }
  return copy;
}

/**
 * Turn foreign-key fields into links: `{ Products: { Category: 'CategoryID' } }` reads each
 * product's `CategoryID` as the key of its `Category` and drops the field, which is not a model
 * property and must never be emitted. An absent field means no link. (`loadData` with `links`
 * does the same one row at a time.)
 */
export function fromForeignKeys(data: MemoryData, links: ForeignKeyMap): MemoryData {
  const convert = foreignKeyConverter(data, links);
  const out: Record<string, readonly Readonly<Record<string, unknown>>[]> = { ...data };
  for (const setName of Object.keys(links)) {
    const rows = data[setName];
    if (Array.isArray(rows)) out[setName] = rows.map((row: unknown) => convert(setName, row) as Readonly<Record<string, unknown>>);
  }
  return out;
}

/** A loaded set: its rows and, per row, the stored key (undefined for a row that failed). */
interface LoadedSet {
  readonly setName: string;
  readonly entitySet: EdmEntitySet;
  readonly rows: readonly unknown[];
  readonly sources: readonly (string | undefined)[];
}

/** How messages name a row: by its key, or by its position when it has none. */
function labelOf(entitySet: EdmEntitySet, row: Readonly<Record<string, unknown>>, index: number): string {
  const type = entitySet.entityType;
  const keyed = type.key.every((property) => row[property.name] !== undefined && row[property.name] !== null);
  return keyed ? `${entitySet.name}${describeKey(type, row)}` : `${entitySet.name}[${index}]`;
}

/**
 * Load `data` into an empty store, with `links` turning foreign-key fields into links row by row;
 * throws MEMORY_DATA_INVALID listing every problem found. Entities first, then (once every set is
 * there) the links, read again from the rows rather than held as a list of a million pending links.
 */
export function loadData(store: Store, data: MemoryData, links?: ForeignKeyMap): void {
  const convert: RowConverter = links === undefined ? (_setName, row) => row : foreignKeyConverter(data, links);
  const problems: string[] = [];
  const loaded: LoadedSet[] = [];
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
    const sources = rows.map((row: unknown, index) => loadRow(store, entitySet, convert(setName, row), index, problems));
    loaded.push({ setName, entitySet, rows, sources });
  }
  for (const { setName, entitySet, rows, sources } of loaded) {
    const bindings = store.linkTables.bindings.get(entitySet);
    sources.forEach((source, index) => {
      if (source === undefined || bindings === undefined) return;
      const row = convert(setName, rows[index]) as Readonly<Record<string, unknown>>;
      for (const name of Object.keys(row)) {
        const binding = bindings.get(name);
        const value = row[name];
        if (binding !== undefined && value !== null && value !== undefined) addLink(store, { binding, source, row, index, value }, problems);
      }
    });
  }
  problems.push(...store.takeViolations());
  if (problems.length > 0) fail(problems);
}

/** Store one row's entity; returns its key, or undefined (with the problem noted) when it cannot be stored. */
function loadRow(store: Store, entitySet: EdmEntitySet, row: unknown, index: number, problems: string[]): string | undefined {
  const type = entitySet.entityType;
  if (!isPlainObject(row)) {
    problems.push(`${entitySet.name}[${index}]: expected an object.`);
    return undefined;
  }
  const properties: Record<string, unknown> = {};
  const unbound: string[] = [];
  for (const name of Object.keys(row)) {
    if (type.navigationPropertiesByName.has(name)) {
      // Links are added once every set is loaded (loadData); a navigation property without an association set is reported now.
      if (store.linkTables.bindings.get(entitySet)?.get(name) === undefined) unbound.push(name);
    } else if (type.propertiesByName.has(name) || type.openType) {
      properties[name] = row[name];
    } else {
      const suggestion = didYouMean(name, [...type.propertiesByName.keys(), ...type.navigationPropertiesByName.keys()]);
      problems.push(`${labelOf(entitySet, row, index)}: unknown property '${name}' (${type.qualifiedName} is not an open type).${suggestion}`);
      return undefined;
    }
  }
  let values;
  try {
    values = buildValues(type, properties, 'insert', undefined);
  } catch (error) {
    if (!isODataError(error)) throw error;
    problems.push(`${labelOf(entitySet, row, index)}: ${error.message}`);
    return undefined;
  }
  const key = keyIdentity(type, values);
  if (store.getByKeyString(entitySet, key) !== undefined) {
    problems.push(`${labelOf(entitySet, row, index)}: duplicate key in '${entitySet.name}' (entry ${index}).`);
    return undefined;
  }
  for (const name of unbound) problems.push(`${labelOf(entitySet, row, index)}: navigation property '${name}' has no association set in the container.`);
  return store.seed(entitySet, values);
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

function addLink(store: Store, link: GivenLink, problems: string[]): void {
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
    const targetKey = keyIdentity(targetType, normalized.value);
    const values = normalized.value;
    const targetLabel = (): string => `${binding.target.name}${describeKey(targetType, values)}`;
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
  if (ends[to].end.multiplicity !== '*' && table.partnerCount(from, source) > 0) {
    return `${label()}: '${binding.property.name}' links to more than one entity of '${binding.target.name}' (also ${targetLabel()}), but its end allows one.`;
  }
  if (ends[from].end.multiplicity !== '*' && table.partnerCount(to, target) > 0) {
    return `${targetLabel()}: linked from more than one entity of '${binding.source.name}' (also ${label()}) over '${table.associationSet.name}', but that end allows one.`;
  }
  table.add(from, source, target);
  return undefined;
}
