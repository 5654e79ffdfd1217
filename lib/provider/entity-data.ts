/**
 * The data format MemoryProvider loads and `seed` writes into tables (docs/memory-provider.md "Data
 * format"): entity set name to plain entities, links by navigation property or, with a
 * `ForeignKeyMap`, by foreign-key fields. What the format means is decided here, once: how
 * foreign-key fields turn into links, how a row is named in a message, how problems are reported.
 */
import type { EdmEntitySet } from '../edm/model';
import { isPlainObject } from '../edm/primitives';
import { ODataError } from '../errors';
import { describeKey } from './keys';

/** Entity set name to its entities: plain objects of property values and links. */
export type MemoryData = Readonly<Record<string, readonly Readonly<Record<string, unknown>>[]>>;

/**
 * Foreign-key fields per entity set: navigation property name to the field holding the target's
 * key (a single key), or to `{ keyProperty: field }` (a composite key).
 */
export type ForeignKeyMap = Readonly<Record<string, Readonly<Record<string, string | Readonly<Record<string, string>>>>>>;

/** At most this many problems are listed; the rest are counted. */
const MAX_LISTED = 50;

/** MEMORY_DATA_INVALID listing `problems` (the first MAX_LISTED of them). */
export function dataInvalid(problems: readonly string[]): ODataError {
  const listed = problems.slice(0, MAX_LISTED).map((problem) => `- ${problem}`);
  if (problems.length > MAX_LISTED) listed.push(`- ... and ${problems.length - MAX_LISTED} more`);
  return ODataError.fromCode('MEMORY_DATA_INVALID', { errors: listed.join('\n') });
}

/** How the rows of one set turn foreign-key fields into links (see fromForeignKeys). */
interface ForeignKeyReader {
  readonly readers: readonly { readonly navigation: string; readonly fields: string | Readonly<Record<string, string>>; readonly names: readonly string[] }[];
  /** Every foreign-key field of the set. */
  readonly foreign: ReadonlySet<string>;
}

/** A row's converter: the row as the loader reads it (links in place of foreign keys). */
export type RowConverter = (setName: string, row: unknown) => unknown;

/**
 * Check the foreign-key fields of `data` (a link given both ways is a problem, thrown before
 * anything loads) and return the converter that turns one row's fields into links when it is
 * loaded: a converted copy of the whole data set is never held.
 */
export function foreignKeyConverter(data: MemoryData, links: ForeignKeyMap): RowConverter {
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
  if (problems.length > 0) throw dataInvalid(problems);
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
 * property and must never be emitted. An absent field means no link. (`loadEntityData` with
 * `links` does the same one row at a time.)
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

/** How messages name a row: by its key, or by its position when it has none. */
export function rowLabel(entitySet: EdmEntitySet, row: Readonly<Record<string, unknown>>, index: number): string {
  const type = entitySet.entityType;
  const keyed = type.key.every((property) => row[property.name] !== undefined && row[property.name] !== null);
  return keyed ? `${entitySet.name}${describeKey(type, row)}` : `${entitySet.name}[${index}]`;
}
