/**
 * The read side of the store: entities by key, sets in insertion or key order, links from both
 * ends and media resources. Reads hand out the store's own immutable values objects, never copies.
 */
import type { EdmEntitySet, EdmNavigationProperty } from '../../edm/model';
import { ODataError } from '../../errors';
import { describeKey, keyIdentity, normalizeKey } from '../../provider/keys';
import type { EntityKey } from '../../uri/types';
import type { StoredValues } from '../../provider/entry-values';
import type { LinkTableBinding } from './link-table';
import { StoreCore } from './store-core';
import type { StoredMedia, StoredRecord } from './store-core';

/** Where a stored values object lives. */
export interface EntityLocation {
  /** The set the record is stored in. */
  readonly entitySet: EdmEntitySet;
  /** The canonical key string within the set. */
  readonly key: string;
}

/** A set's records with their keys in key order (see StoreReads.keyOrdered). */
export interface KeyOrderedRecords {
  /** The records by canonical key; iterating the Map visits them in key order. */
  readonly records: ReadonlyMap<string, StoredRecord>;
  /** The canonical keys in ascending key order, the Map's iteration order. */
  readonly keys: readonly string[];
}

/** @internal The reads of the store; see store.ts for the whole API. */
export class StoreReads extends StoreCore {
  /** The entity with this key, or undefined. The object is the store's own: never mutate it. */
  get(entitySet: EdmEntitySet, key: EntityKey): StoredValues | undefined {
    return this.table(entitySet).records.get(this.keyString(entitySet, key))?.values;
  }

  /**
   * The record with this canonical key string, or undefined; its `key` is the store's own string
   * object, which links should reference rather than an equal copy (one string per key, not one per link).
   *
   * @internal
   */
  recordOf(entitySet: EdmEntitySet, key: string): StoredRecord | undefined {
    return this.table(entitySet).records.get(key);
  }

  /** The entity with this canonical key string, or undefined. */
  getByKeyString(entitySet: EdmEntitySet, key: string): StoredValues | undefined {
    return this.table(entitySet).records.get(key)?.values;
  }

  /** All entities of a set in insertion order: one array of references, no copies. */
  all(entitySet: EdmEntitySet): StoredValues[] {
    return Array.from(this.table(entitySet).records.values(), (record) => record.values);
  }

  /**
   * The records of a set in insertion order, without copying them (`all` copies the references
   * into an array). Do not write to the store while iterating.
   *
   * @internal
   */
  records(entitySet: EdmEntitySet): IterableIterator<StoredRecord> {
    return this.table(entitySet).records.values();
  }

  /**
   * True when the set's records iterate in ascending key order, the order a query without
   * `$orderby` must return (key-order.ts): O(n) after a change that may reorder the set, O(1)
   * otherwise.
   */
  inKeyOrder(entitySet: EdmEntitySet): boolean {
    return this.keyOrdered(entitySet) !== undefined;
  }

  /**
   * The set's records and their canonical keys in key order, when the records iterate in key order
   * (the array and the Map's iteration then agree one to one); undefined otherwise. Do not write
   * to the store while using them.
   *
   * @internal
   */
  keyOrdered(entitySet: EdmEntitySet): KeyOrderedRecords | undefined {
    const table = this.table(entitySet);
    const keys = table.keyOrder.orderedKeys(table);
    return keys === undefined ? undefined : { records: table.records, keys };
  }

  /** Number of entities in a set. */
  size(entitySet: EdmEntitySet): number {
    return this.table(entitySet).records.size;
  }

  /** The set and key of a values object this store handed out, while it is current. */
  locate(values: object): EntityLocation | undefined {
    const record = this.locations.get(values);
    if (record === undefined || record.table.records.get(record.key) !== record) return undefined;
    return { entitySet: record.table.entitySet, key: record.key };
  }

  /** The link table and direction of a navigation property from a set. */
  binding(entitySet: EdmEntitySet, property: EdmNavigationProperty): LinkTableBinding {
    const binding = this.links.bindings.get(entitySet)?.get(property.name);
    if (binding === undefined) throw ODataError.fromCode('RESOURCE_NOT_FOUND', { segment: property.name });
    return binding;
  }

  /** Canonical keys of the entities linked from `key` over `property`. */
  relatedKeys(entitySet: EdmEntitySet, key: string, property: EdmNavigationProperty): ReadonlySet<string> {
    const binding = this.binding(entitySet, property);
    return binding.table.targets(binding.from, key);
  }

  /** The entities linked from `key` over `property`, in insertion order of the target set. */
  related(entitySet: EdmEntitySet, key: string, property: EdmNavigationProperty): StoredValues[] {
    const binding = this.binding(entitySet, property);
    const records = this.table(binding.target).records;
    const found: StoredRecord[] = [];
    for (const target of binding.table.targets(binding.from, key)) {
      const record = records.get(target);
      if (record !== undefined) found.push(record);
    }
    if (found.length > 1) found.sort((a, b) => a.seq - b.seq);
    return found.map((record) => record.values);
  }

  /** The media resource of the entry with this canonical key, or undefined when it has none. */
  media(entitySet: EdmEntitySet, key: string): StoredMedia | undefined {
    return this.table(entitySet).media.get(key);
  }

  /** The canonical key string of a caller's key (a 400 when it does not fit the type). */
  keyString(entitySet: EdmEntitySet, key: EntityKey): string {
    const type = entitySet.entityType;
    const normalized = normalizeKey(type, key);
    if (!normalized.ok) throw ODataError.fromCode('URI_KEY_SYNTAX', { key: describeKey(type, key), type: type.qualifiedName, detail: normalized.detail });
    return keyIdentity(type, normalized.value);
  }
}
