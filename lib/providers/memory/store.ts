/**
 * The in-memory store behind MemoryProvider: per entity set a Map from canonical key to an
 * immutable record, per association set a link table. Every write is one synchronous step inside a
 * frame of the undo journal, so a precondition check and the write cannot be split by an await, and
 * a failed write, changeset or deep insert leaves the store exactly as before. Knows no URIs or HTTP.
 */
import type { EdmEntitySet, EdmEntityType, EdmModel, EdmNavigationProperty } from '../../edm/model';
import type { PropertyValue } from '../../edm/primitives';
import { ODataError } from '../../errors';
import { systemClock } from '../../util';
import type { Clock } from '../../util';
import { compileOrderBy } from '../../provider/evaluate';
import { withKeyTieBreaker } from '../../uri';
import type { EntityKey } from '../../uri/types';
import { buildValues } from './entity-values';
import type { StoredValues, WriteMode } from './entity-values';
import { describeKeyValues, keyOfValues, keyString } from './keys';
import type { LinkTables, NavigationBinding } from './link-table';
import { StoreCore } from './store-core';
import type { SetTable, StoredMedia, StoredRecord } from './store-core';
import { stampTokens } from './tokens';
import { WriteLock } from './write-lock';

export type { StoredValues } from './entity-values';
export type { StoredMedia } from './store-core';

/** Where a stored values object lives. */
export interface EntityLocation {
  /** The set the record is stored in. */
  readonly entitySet: EdmEntitySet;
  /** The canonical key string within the set. */
  readonly key: string;
}

/** Options of the store. */
export interface MemoryStoreOptions {
  /** The clock for DateTime concurrency tokens; tests pin it. Default: the system time. */
  readonly now?: Clock;
}

/** A link to make together with an insert (a deep insert's or a binding's target). */
export interface LinkTarget {
  /** The navigation property of the link. */
  readonly property: EdmNavigationProperty;
  /** The key of the target entity. */
  readonly key: EntityKey;
}

/** Options of an update or delete. */
export interface WriteOptions {
  /**
   * Called with the current entity right before the write, in the same synchronous step: throw
   * (e.g. 412 PRECONDITION_FAILED for an If-Match mismatch) to refuse the write.
   */
  readonly check?: (current: StoredValues) => void;
}

/** A transaction opened with `begin()`; close it exactly once, innermost first. */
export interface StoreTransaction {
  /** Keep the transaction's writes; required links are checked when the outermost one commits. */
  commit(): void;
  /** Undo the transaction's writes, newest first, as if it never ran. */
  rollback(): void;
}

/** Per entity type: the order `$orderby` falls back to (its key, ascending), compiled by the shared evaluator. */
const KEY_COMPARATORS = new WeakMap<EdmEntityType, (a: StoredValues, b: StoredValues) => number>();

function keyComparator(type: EdmEntityType): (a: StoredValues, b: StoredValues) => number {
  let compare = KEY_COMPARATORS.get(type);
  if (compare === undefined) {
    compare = compileOrderBy(withKeyTieBreaker([], type));
    KEY_COMPARATORS.set(type, compare);
  }
  return compare;
}

/** The store: entity records and link tables, with atomic writes and nested transactions. */
export class MemoryStore extends StoreCore {
  private readonly now: Clock;
  /** Per set: whether its records were in key order at the table version checked last. */
  private readonly keyOrder = new WeakMap<SetTable, { readonly version: number; readonly ordered: boolean }>();
  /** Serialises exclusive work (writes, changesets). */
  private readonly lock = new WriteLock();
  /** Transactions opened with `begin()` that are still open, innermost last. */
  private readonly frames: { readonly depth: number; open: boolean }[] = [];

  constructor(model: EdmModel, options: MemoryStoreOptions = {}) {
    super(model);
    this.now = options.now ?? systemClock;
  }

  // --- reads -----------------------------------------------------------------------------------

  /** The entity with this key, or undefined. The object is the store's own: never mutate it. */
  get(entitySet: EdmEntitySet, key: EntityKey): StoredValues | undefined {
    return this.table(entitySet).records.get(keyString(entitySet.entityType, key))?.values;
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
   * `$orderby` must return. Usually true (keys are loaded and generated in ascending order); then
   * a page is the first records of the Map, with no sort. Checked once per change of the set: O(n)
   * after an insert, O(1) for every read in between.
   */
  inKeyOrder(entitySet: EdmEntitySet): boolean {
    const table = this.table(entitySet);
    const known = this.keyOrder.get(table);
    if (known !== undefined && known.version === table.version) return known.ordered;
    const compare = keyComparator(entitySet.entityType);
    let ordered = true;
    let previous: StoredValues | undefined;
    for (const record of table.records.values()) {
      if (previous !== undefined && compare(previous, record.values) >= 0) {
        ordered = false;
        break;
      }
      previous = record.values;
    }
    this.keyOrder.set(table, { version: table.version, ordered });
    return ordered;
  }

  /** Number of entities in a set. */
  size(entitySet: EdmEntitySet): number {
    return this.table(entitySet).records.size;
  }

  /** The set and key of a values object this store handed out, while it is current. */
  locate(values: object): EntityLocation | undefined {
    const location = this.locations.get(values);
    if (location === undefined || location.table.records.get(location.key)?.values !== values) return undefined;
    return { entitySet: location.table.entitySet, key: location.key };
  }

  /** The link table and direction of a navigation property from a set. */
  binding(entitySet: EdmEntitySet, property: EdmNavigationProperty): NavigationBinding {
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
    return keyString(entitySet.entityType, key);
  }

  // --- writes ----------------------------------------------------------------------------------

  /** Add an entity (ENTITY_EXISTS when the key is taken) with links to existing entities. */
  insert(entitySet: EdmEntitySet, given: Readonly<Record<string, unknown>>, links: readonly LinkTarget[] = []): StoredValues {
    return this.atomic(() => {
      const type = entitySet.entityType;
      const values = buildValues(type, given, 'insert', undefined);
      stampTokens(type, values, undefined, this.now);
      const key = keyOfValues(type, values);
      const table = this.table(entitySet);
      if (table.records.has(key)) throw ODataError.fromCode('ENTITY_EXISTS', { key: describeKeyValues(type, values), entitySet: entitySet.name });
      this.put(table, key, values);
      this.touch(entitySet, key);
      for (const link of links) {
        const binding = this.binding(entitySet, link.property);
        const target = this.keyString(binding.target, link.key);
        this.existing(binding.target, target, link.key);
        this.linkKeys(binding, key, target);
      }
      return values;
    });
  }

  /** Replace every property (PUT): those not given get their default or null. */
  replace(entitySet: EdmEntitySet, key: EntityKey, given: Readonly<Record<string, unknown>>, options: WriteOptions = {}): StoredValues {
    return this.update(entitySet, key, given, 'replace', options);
  }

  /** Change only the given properties (MERGE / PATCH). */
  merge(entitySet: EdmEntitySet, key: EntityKey, given: Readonly<Record<string, unknown>>, options: WriteOptions = {}): StoredValues {
    return this.update(entitySet, key, given, 'merge', options);
  }

  /** Delete an entity, its links, and (per association end `OnDelete="Cascade"`) the entities it owns. */
  delete(entitySet: EdmEntitySet, key: EntityKey, options: WriteOptions = {}): void {
    this.atomic(() => {
      const canonical = this.keyString(entitySet, key);
      const current = this.existing(entitySet, canonical, key);
      options.check?.(current);
      this.remove(entitySet, canonical);
    });
  }

  /**
   * Link two existing entities. A single-valued end keeps one partner: the old link is replaced
   * (and an entity left without a required `1` partner fails the write at commit).
   */
  link(entitySet: EdmEntitySet, key: EntityKey, property: EdmNavigationProperty, targetKey: EntityKey): void {
    this.atomic(() => {
      const binding = this.binding(entitySet, property);
      const source = this.keyString(entitySet, key);
      this.existing(entitySet, source, key);
      const target = this.keyString(binding.target, targetKey);
      this.existing(binding.target, target, targetKey);
      this.linkKeys(binding, source, target);
    });
  }

  /** Remove the link to `targetKey`, or every link over `property` when no target is given. */
  unlink(entitySet: EdmEntitySet, key: EntityKey, property: EdmNavigationProperty, targetKey?: EntityKey): void {
    this.atomic(() => {
      const binding = this.binding(entitySet, property);
      const source = this.keyString(entitySet, key);
      this.existing(entitySet, source, key);
      const targets = targetKey === undefined ? [...binding.table.targets(binding.from, source)] : [this.keyString(binding.target, targetKey)];
      for (const target of targets) {
        if (targetKey !== undefined && !binding.table.has(binding.from, source, target)) {
          const path = `${entitySet.name}${describeKeyValues(entitySet.entityType, key)}/${property.name}`;
          throw ODataError.fromCode('ENTITY_NOT_FOUND', { key: describeKeyValues(binding.target.entityType, targetKey), entitySet: path });
        }
        this.unlinkKeys(binding.table, binding.from, source, target);
        this.touch(entitySet, source);
        this.touch(binding.target, target);
      }
    });
  }

  /** Set the media resource of an existing entry (404 when it is missing); undone with its transaction. */
  setMedia(entitySet: EdmEntitySet, key: EntityKey, media: StoredMedia): void {
    this.atomic(() => {
      const canonical = this.keyString(entitySet, key);
      this.existing(entitySet, canonical, key);
      this.putMedia(this.table(entitySet), canonical, media);
    });
  }

  /** Run `fn` atomically: if it throws, or leaves a required link missing, nothing it did remains. */
  transaction<T>(fn: () => T): T {
    return this.atomic(() => {
      const result = fn();
      if (typeof (result as { then?: unknown } | null)?.then === 'function') {
        throw new TypeError('MemoryStore.transaction takes a synchronous function; use begin() around awaits.');
      }
      return result;
    });
  }

  /**
   * Open a transaction that spans awaits. Writes made until it closes join it, whoever makes them:
   * use `transactionAsync` (or `exclusive`) so that writers are serialised while one is open.
   */
  begin(): StoreTransaction {
    this.journal.begin();
    const frame = { depth: this.journal.depth, open: true };
    this.frames.push(frame);
    const close = (): void => {
      if (!frame.open || this.journal.depth !== frame.depth) throw new Error('MemoryStore transactions must be closed once, innermost first.');
      frame.open = false;
      this.frames.pop();
    };
    return {
      commit: () => {
        close();
        this.finish();
      },
      rollback: () => {
        close();
        this.undo();
      },
    };
  }

  /**
   * Run `work` when no other exclusive work is running, or at once when it belongs to the running
   * work: the same `scope` (MemoryProvider passes the request context), or, without a scope, the
   * same async context. Providers route every write through this, so a write from another request
   * can never land inside an open changeset and be undone with it.
   */
  exclusive<T>(work: () => T | Promise<T>, scope?: object): Promise<T> {
    return this.lock.run(work, scope);
  }

  /** `exclusive` for synchronous work (a single write); work that returns a promise is refused with a TypeError. */
  exclusiveSync<T>(work: () => T, scope?: object): Promise<T> {
    return this.lock.runSync(work, scope);
  }

  /**
   * An atomic transaction around async work (a `$batch` changeset, a single write with its
   * response): exclusive, undone if `work` throws. Work that has not settled after
   * `options.timeout` ms (default: none) is abandoned: undone, the lock released, 503
   * PROVIDER_TIMEOUT, and later writes of its scope refused. Nested in the running transaction of
   * the same scope it is a savepoint.
   */
  transactionAsync<T>(work: () => Promise<T>, options: { readonly scope?: object; readonly timeout?: number } = {}): Promise<T> {
    let transaction: StoreTransaction | undefined;
    let depth = 0;
    const run = async (): Promise<T> => {
      transaction = this.begin();
      depth = this.journal.depth;
      let result: T;
      try {
        result = await work();
      } catch (error) {
        transaction.rollback();
        throw error;
      }
      transaction.commit();
      return result;
    };
    // Abandoned: undo every frame from this transaction's up (a nested one may still be open).
    const abandon = (): void => {
      while (this.journal.depth >= depth && depth > 0) {
        const frame = this.frames.pop();
        if (frame !== undefined) frame.open = false;
        this.undo();
      }
    };
    return this.lock.runTransaction(run, options.scope, options.timeout ?? Infinity, abandon);
  }

  // --- loading (used by load-data) -------------------------------------------------------------

  /** @internal Store already-built values as they are (tokens given in the data are kept). */
  seed(entitySet: EdmEntitySet, values: Record<string, PropertyValue>): string {
    stampTokens(entitySet.entityType, values, undefined, this.now, true);
    const key = keyOfValues(entitySet.entityType, values);
    this.put(this.table(entitySet), key, values);
    this.touch(entitySet, key);
    return key;
  }

  /** @internal The link tables, for the loader's cardinality checks. */
  get linkTables(): LinkTables {
    return this.links;
  }

  /** @internal Check required links of everything seeded so far; returns the problems. */
  takeViolations(): string[] {
    const problems = this.violations();
    this.pending.clear();
    return problems;
  }

  // --- internals ---------------------------------------------------------------------------------

  private update(entitySet: EdmEntitySet, key: EntityKey, given: Readonly<Record<string, unknown>>, mode: WriteMode, options: WriteOptions): StoredValues {
    return this.atomic(() => {
      const canonical = this.keyString(entitySet, key);
      const current = this.existing(entitySet, canonical, key);
      options.check?.(current);
      const values = buildValues(entitySet.entityType, given, mode, current);
      stampTokens(entitySet.entityType, values, current, this.now);
      this.put(this.table(entitySet), canonical, values);
      return values;
    });
  }
}
