/**
 * The in-memory store behind MemoryProvider: per entity set a Map from canonical key to an
 * immutable record, per association set a link table. Every write is one synchronous step inside a
 * frame of the undo journal, so a precondition check and the write cannot be split by an await, and
 * a failed write, changeset or deep insert leaves the store exactly as before. Knows no URIs or HTTP.
 *
 * This file is the public API and its writes; the reads are in store-reads.ts, transactions that
 * span awaits and the write lock in transactions.ts, the mechanics (tables, journal, required
 * links) in store-core.ts.
 */
import type { EdmEntitySet, EdmModel, EdmNavigationProperty } from '../../edm/model';
import type { PropertyValue } from '../../edm/primitives';
import { ODataError } from '../../errors';
import { systemClock } from '../../util';
import type { Clock } from '../../util';
import type { EntityKey } from '../../uri/types';
import { buildValues } from '../../provider/entry-values';
import type { StoredValues, WriteMode } from '../../provider/entry-values';
import { describeKey, keyIdentity } from '../../provider/keys';
import { entityNotFound } from '../../provider/not-found';
import type { LinkTables } from './link-table';
import type { StoredMedia } from './store-core';
import { StoreReads } from './store-reads';
import { stampTokens } from './tokens';
import { StoreTransactions } from './transactions';
import type { StoreTransaction } from './transactions';

export type { StoredValues } from '../../provider/entry-values';
export type { StoredMedia } from './store-core';

/** @internal Options of the store. */
interface StoreOptions {
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

/**
 * `MemoryProvider.store`: the provider's data, for service operations and setup code that read and
 * write it directly (docs/memory-provider.md). Values objects are the store's own: never mutate
 * them. Every write is atomic; writes of code that runs beside requests go through `exclusive` or
 * `transactionAsync`, so that they never land inside a request's open changeset.
 */
export interface MemoryStore {
  /** The entity with this key, or undefined. */
  get(entitySet: EdmEntitySet, key: EntityKey): StoredValues | undefined;
  /** All entities of a set in insertion order (an array of the stored objects, no copies). */
  all(entitySet: EdmEntitySet): StoredValues[];
  /** Number of entities in a set. */
  size(entitySet: EdmEntitySet): number;
  /** Add an entity (409 ENTITY_EXISTS when the key is taken) with links to existing entities. */
  insert(entitySet: EdmEntitySet, values: Readonly<Record<string, unknown>>, links?: readonly LinkTarget[]): StoredValues;
  /** Replace every property (PUT): those not given get their default or null. */
  replace(entitySet: EdmEntitySet, key: EntityKey, values: Readonly<Record<string, unknown>>, options?: WriteOptions): StoredValues;
  /** Change only the given properties (MERGE / PATCH). */
  merge(entitySet: EdmEntitySet, key: EntityKey, values: Readonly<Record<string, unknown>>, options?: WriteOptions): StoredValues;
  /** Delete an entity, its links, and (per association end `OnDelete="Cascade"`) the entities it owns. */
  delete(entitySet: EdmEntitySet, key: EntityKey, options?: WriteOptions): void;
  /** Link two existing entities; on a single-valued end the previous link is replaced. */
  link(entitySet: EdmEntitySet, key: EntityKey, property: EdmNavigationProperty, targetKey: EntityKey): void;
  /** Remove the link to `targetKey`, or every link over `property` when no target is given. */
  unlink(entitySet: EdmEntitySet, key: EntityKey, property: EdmNavigationProperty, targetKey?: EntityKey): void;
  /** Set the media resource of an existing media link entry. */
  setMedia(entitySet: EdmEntitySet, key: EntityKey, media: StoredMedia): void;
  /** Run a synchronous `fn` atomically: if it throws, or leaves a required link missing, nothing it did remains. */
  transaction<T>(fn: () => T): T;
  /** Run async `work` atomically and exclusively (as a `$batch` changeset runs): undone if it throws. */
  transactionAsync<T>(work: () => Promise<T>, options?: { readonly scope?: object; readonly timeout?: number }): Promise<T>;
  /** Run `work` when no other exclusive work (a write, a changeset) is running. */
  exclusive<T>(work: () => T | Promise<T>, scope?: object): Promise<T>;
}

/**
 * @internal The store: entity records and link tables, with atomic writes and nested transactions.
 * MemoryProvider and its modules use all of it; users see the MemoryStore interface.
 */
export class Store extends StoreReads implements MemoryStore {
  private readonly now: Clock;
  private readonly transactions = new StoreTransactions({ journal: this.journal, commit: () => this.finish(), undo: () => this.undo() });

  constructor(model: EdmModel, options: StoreOptions = {}) {
    super(model);
    this.now = options.now ?? systemClock;
  }

  // --- writes ----------------------------------------------------------------------------------

  /** Add an entity (ENTITY_EXISTS when the key is taken) with links to existing entities. */
  insert(entitySet: EdmEntitySet, given: Readonly<Record<string, unknown>>, links: readonly LinkTarget[] = []): StoredValues {
    return this.atomic(() => {
      const type = entitySet.entityType;
      const values = buildValues(type, given, 'insert', undefined);
      stampTokens(type, values, undefined, this.now);
      const key = keyIdentity(type, values);
      const table = this.table(entitySet);
      if (table.records.has(key)) throw ODataError.fromCode('ENTITY_EXISTS', { key: describeKey(type, values), entitySet: entitySet.name });
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
          throw entityNotFound(binding.target, targetKey, { source: { entitySet, key }, navigationProperty: property });
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
        throw new TypeError('MemoryStore.transaction takes a synchronous function; use transactionAsync around awaits.');
      }
      return result;
    });
  }

  /**
   * Open a transaction that spans awaits. Writes made until it closes join it, whoever makes them:
   * use `transactionAsync` (or `exclusive`) so that writers are serialised while one is open.
   */
  begin(): StoreTransaction {
    return this.transactions.begin();
  }

  /**
   * Run `work` when no other exclusive work is running, or at once when it belongs to the running
   * work: the same `scope` (MemoryProvider passes the request context), or, without a scope, the
   * same async context. Providers route every write through this, so a write from another request
   * can never land inside an open changeset and be undone with it.
   */
  exclusive<T>(work: () => T | Promise<T>, scope?: object): Promise<T> {
    return this.transactions.exclusive(work, scope);
  }

  /** `exclusive` for synchronous work (a single write); work that returns a promise is refused with a TypeError. */
  exclusiveSync<T>(work: () => T, scope?: object): Promise<T> {
    return this.transactions.exclusiveSync(work, scope);
  }

  /**
   * An atomic transaction around async work (a `$batch` changeset, a single write with its
   * response): exclusive, undone if `work` throws. Work that has not settled after
   * `options.timeout` ms (default: none) is abandoned: undone, the lock released, 503
   * PROVIDER_TIMEOUT, and later writes of its scope refused. Nested in the running transaction of
   * the same scope it is a savepoint.
   */
  transactionAsync<T>(work: () => Promise<T>, options: { readonly scope?: object; readonly timeout?: number } = {}): Promise<T> {
    return this.transactions.runAsync(work, options.scope, options.timeout ?? Infinity);
  }

  // --- loading (used by load-data) -------------------------------------------------------------

  /** @internal Store values the data loader checked (defaults and tokens filled) under their key identity `key`. */
  seed(entitySet: EdmEntitySet, key: string, values: Record<string, PropertyValue>): void {
    this.put(this.table(entitySet), key, values);
  }

  /** @internal The link tables, which the data loader fills. */
  get linkTables(): LinkTables {
    return this.links;
  }

  /** @internal The store's clock (the data loader starts DateTime tokens with it). */
  get clock(): Clock {
    return this.now;
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
