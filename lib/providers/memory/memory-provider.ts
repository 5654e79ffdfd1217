/**
 * MemoryProvider: the embedded default DataProvider. Plain data in, full query semantics out: the
 * path is walked through the store, `$filter` and SAP's `search` (as one condition, the kit's
 * `requestFilter`), `$orderby`, paging and count run through the shared evaluator (with navigation
 * resolved over the link tables), and `$expand`/`$select` are applied while copying. Writes are synchronous store steps (write.ts) run through `store.exclusiveSync`, so a
 * precondition is checked in the same step as its write and no write lands inside another
 * request's open transaction (a request's own writes are recognised by its context).
 */
import type { EdmEntitySet, EdmEntityType, EdmModel, EdmNavigationProperty } from '../../edm/model';
import { isPrimitiveValue } from '../../edm/primitives';
import { applyQuery, compileFilter, entityPosition } from '../../evaluate/evaluate';
import type { NavigationAccess, QueryPart } from '../../evaluate/evaluate';
import type {
  CountRequest,
  CreateRequest,
  DataProvider,
  DeleteRequest,
  Entity,
  EntityReference,
  LinkRequest,
  MediaContent,
  OperationHandler,
  Precondition,
  QueryRequest,
  QueryResult,
  UpdateRequest,
} from '../../provider/types';
import type { RequestContext } from '../../protocol/message';
import type { Clock } from '../../util';
import type { SkipTokenPosition } from '../../uri/types';
import { NO_SELECT_EXPAND } from '../../uri/expand-select';
import { derivesFrom } from '../../uri/expr/typecheck';
import { entityKey, keyIdentity } from '../../provider/keys';
import { entityNotFound, isKeyedPath, mediaResourceNotFound } from '../../provider/not-found';
import { keysOfCondition } from '../../provider/nodes';
import { requestFilter } from '../../provider/search';
import { loadData } from './load-data';
import type { ForeignKeyMap, MemoryData } from '../../provider/entity-data';
import { EAGER_EXPANDED, countPath, projectEntity, projectLazily, resolvePath } from './read';
import { ordersByKey, scanPage } from './scan';
import type { StoredPage } from './scan';
import { Store } from './store';
import type { MemoryStore, StoredValues } from './store';
import { createEntry, deleteEntry, updateEntry, writeLink, writeMedia } from './write';

/** A written entity is returned with all its properties and nothing expanded. */

/** Options of `new MemoryProvider(model, data, options)`. */
export interface MemoryProviderOptions {
  /** The clock for `Edm.DateTime` concurrency tokens; tests pin it. Default: the system time. */
  readonly now?: Clock;
  /**
   * Foreign-key fields that stand for links, per entity set: `{ Products: { Category: 'CategoryID' } }`.
   * The fields are dropped after loading (they are not model properties).
   */
  readonly links?: ForeignKeyMap;
  /** Service-operation handlers by function-import name. */
  readonly operations?: Readonly<Record<string, OperationHandler>>;
  /**
   * Pages with more entities than this are returned as an async iterable that copies one entity at
   * a time while the response is written (streaming); smaller pages as an array. Default 1,000.
   */
  readonly streamAbove?: number;
  /**
   * Milliseconds a transaction (a write with its answer, a `$batch` changeset) may hold the store
   * before it is abandoned: rolled back, answered 503 PROVIDER_TIMEOUT, and the next writer let
   * in. Default 30,000; `Infinity` waits for ever.
   */
  readonly transactionTimeout?: number;
}

/** Default of `streamAbove`: a page up to this size is copied at once and written as one string. */
const STREAM_ABOVE = 1000;

/** Default of `transactionTimeout`: far above any in-memory changeset, short enough that a hung one frees the store. */
const TRANSACTION_TIMEOUT = 30_000;

/** An in-memory DataProvider over plain data, checked against the model on construction. */
export class MemoryProvider implements DataProvider {
  /** The model the data was checked against; the service it serves must use the same one. */
  readonly model: EdmModel;
  /** The provider's data, for service operations and setup code (docs/memory-provider.md). */
  readonly store: MemoryStore;
  /** The same store with what the provider's own modules use (key order, links, media, loading). */
  private readonly data: Store;
  /** Service-operation handlers given in the options. */
  readonly operations: Readonly<Record<string, OperationHandler>> | undefined;
  private readonly streamAbove: number;
  private readonly transactionTimeout: number;
  /** Single-valued navigation inside `$filter`/`$orderby` member paths (`Category/Name`). */
  private readonly navigate: NavigationAccess = (entity: Entity, property: EdmNavigationProperty) => {
    const location = this.data.locate(entity);
    if (location === undefined) return undefined;
    return this.data.related(location.entitySet, location.key, property)[0] ?? null;
  };
  /** Per media link entry type: the sets that can hold its entries (filled on first use). */
  private readonly mediaSets = new Map<EdmEntityType, readonly EdmEntitySet[]>();

  /** Load `data` (entity set name to plain entities); throws MEMORY_DATA_INVALID naming every problem. */
  constructor(model: EdmModel, data: MemoryData = {}, options: MemoryProviderOptions = {}) {
    this.model = model;
    this.data = new Store(model, options);
    this.store = this.data;
    this.operations = options.operations;
    this.streamAbove = options.streamAbove ?? STREAM_ABOVE;
    if (typeof this.streamAbove !== 'number' || !(this.streamAbove >= 0))
      throw new TypeError(`MemoryProvider option 'streamAbove' must be a number >= 0, got ${String(options.streamAbove)}`);
    this.transactionTimeout = options.transactionTimeout ?? TRANSACTION_TIMEOUT;
    if (typeof this.transactionTimeout !== 'number' || !(this.transactionTimeout > 0)) {
      throw new TypeError(`MemoryProvider option 'transactionTimeout' must be a number > 0 (or Infinity), got ${String(options.transactionTimeout)}`);
    }
    loadData(this.data, data, options.links);
  }

  /**
   * Entities of a set or reached by navigation, filtered, ordered, paged and expanded; copies only.
   * A page of more than `streamAbove` entities comes back as an async iterable that copies each
   * entity when the writer reaches it, so a big feed streams with bounded memory.
   */
  async query(request: QueryRequest, _context: RequestContext): Promise<QueryResult> {
    const { page, count } = this.select(request);
    const store = this.data;
    const { entitySet, selectExpand } = request;
    // One allowance of eagerly copied expanded entries for the whole page (see EAGER_EXPANDED).
    const allowance = { left: EAGER_EXPANDED };
    const entities: QueryResult['entities'] =
      page.length > this.streamAbove
        ? projectLazily(store, entitySet, page, selectExpand)
        : page.map((values) => projectEntity(store, entitySet, values, selectExpand, allowance));
    if (request.single) return count === undefined ? { entities } : { entities, count };
    const positionOf = this.positionOf(request);
    return count === undefined ? { entities, positionOf } : { entities, count, positionOf };
  }

  /**
   * Where a returned copy stands in the request's order: its own values (milliseconds, as stored)
   * and, for an order through navigation (`Category/Name`), the related entities as the store
   * links them now: the copy holds only what `$expand` asked for.
   */
  private positionOf(request: QueryRequest): (entity: Entity) => SkipTokenPosition {
    const { entitySet, entityType, orderBy } = request;
    return (copy) =>
      entityPosition(orderBy, copy, entityType, (holder, property) => {
        if (holder !== copy) return this.navigate(holder, property);
        return this.data.related(entitySet, this.data.keyString(entitySet, entityKey(entityType, copy)), property)[0] ?? null;
      });
  }

  /** The stored values (references) of the page a request asks for. */
  private select(request: QueryRequest): StoredPage {
    const { path } = request;
    // `$filter` and SAP's `search`, as one condition (the kit's), so both run through the evaluator.
    const filter = requestFilter(request);
    if (request.single) {
      const [first] = resolvePath(this.data, path);
      const page = first === undefined || (filter !== undefined && !compileFilter(filter, this.navigate)(first)) ? [] : [first];
      return { page, count: request.count ? page.length : undefined };
    }
    const part: QueryPart = {
      filter,
      orderBy: request.orderBy,
      skip: request.skip,
      top: request.top,
      skipToken: request.skipToken,
      count: request.count,
    };
    let candidates: readonly StoredValues[];
    let prefiltered = false;
    // With an order to sort by: without one, the answer comes in the store's order, not the list's.
    const keys = filter === undefined || request.orderBy.length === 0 ? undefined : keysOfCondition(filter, request.entityType);
    if (!isKeyedPath(path) && keys !== undefined) {
      // A list of keys (a batched follow-up read): looked up, not tested against every entity.
      const entitySet = path.root.entitySet;
      const found = new Set<StoredValues>();
      for (const key of keys) {
        const values = this.data.get(entitySet, key);
        if (values !== undefined) found.add(values);
      }
      candidates = [...found];
      prefiltered = true;
    } else if (!isKeyedPath(path)) {
      const entitySet = path.root.entitySet;
      // Key order ($orderby absent or naming the key) over a set stored in key order: no copy of the set, no sort, a $skiptoken by binary search.
      const ordered = ordersByKey(request.orderBy, request.entityType) ? this.data.keyOrdered(entitySet) : undefined;
      if (ordered !== undefined) return scanPage(ordered, part, this.navigate);
      if (filter !== undefined) {
        // Filter while reading the records: only the matches are copied into the array to sort.
        const keep = compileFilter(filter, this.navigate);
        const matches: StoredValues[] = [];
        for (const record of this.data.records(entitySet)) if (keep(record.values)) matches.push(record.values);
        candidates = matches;
        prefiltered = true;
      } else {
        candidates = this.data.all(entitySet);
      }
    } else {
      candidates = resolvePath(this.data, path);
    }
    // Filtering first and counting the rest gives the same count: it is taken after the filter.
    const result = applyQuery(candidates, prefiltered ? { ...part, filter: undefined } : part, this.navigate);
    // The evaluator returns (a subset of) the objects it was given, which are stored values.
    return { page: result.entities as StoredValues[], count: result.count };
  }

  /** The number of entities a path, filter and search address, without copying any; with neither, without reading any. */
  async count(request: CountRequest, _context: RequestContext): Promise<number> {
    const filter = requestFilter(request);
    if (filter === undefined) return countPath(this.data, request.path);
    const { path } = request;
    const predicate = compileFilter(filter, this.navigate);
    let total = 0;
    if (!isKeyedPath(path)) {
      // A whole set: test the records where they are, without an array of the set first.
      for (const record of this.data.records(path.root.entitySet)) if (predicate(record.values)) total++;
    } else {
      for (const values of resolvePath(this.data, path)) if (predicate(values)) total++;
    }
    return total;
  }

  /** Create an entry with its links and inline tree, atomically; returns a copy of the stored entry. */
  async create(request: CreateRequest, context: RequestContext): Promise<Entity> {
    return this.data.exclusiveSync(
      () =>
        this.copy(
          request.entitySet,
          this.data.transaction(() => createEntry(this.data, request)),
        ),
      context,
    );
  }

  /** Replace or merge an entry after checking its precondition in the same step; returns a copy of the new state. */
  async update(request: UpdateRequest, context: RequestContext): Promise<Entity> {
    return this.data.exclusiveSync(
      () =>
        this.copy(
          request.entitySet,
          this.data.transaction(() => updateEntry(this.data, request)),
        ),
      context,
    );
  }

  /** Delete an entry (its links, its media resource and, per OnDelete, what it owns) after its precondition. */
  async delete(request: DeleteRequest, context: RequestContext): Promise<void> {
    return this.data.exclusiveSync(() => deleteEntry(this.data, request), context);
  }

  /** Add, replace or remove a link, keeping the association's multiplicities. */
  async link(request: LinkRequest, context: RequestContext): Promise<void> {
    return this.data.exclusiveSync(() => writeLink(this.data, request), context);
  }

  /** The media resource of a media link entry (a copy); 404 when the entry or its media resource is missing. */
  async readMedia(reference: EntityReference, _context: RequestContext): Promise<MediaContent> {
    const key = this.data.keyString(reference.entitySet, reference.key);
    if (this.data.getByKeyString(reference.entitySet, key) === undefined) {
      throw entityNotFound(reference.entitySet, reference.key);
    }
    const media = this.data.media(reference.entitySet, key);
    if (media === undefined) throw mediaResourceNotFound();
    return { contentType: media.contentType, body: Buffer.from(media.body) };
  }

  /** Replace the media resource after the precondition; the entry's concurrency tokens move with it. */
  async writeMedia(reference: EntityReference, media: MediaContent, precondition: Precondition | undefined, context: RequestContext): Promise<Entity> {
    return this.data.exclusiveSync(
      () =>
        this.copy(
          reference.entitySet,
          this.data.transaction(() => writeMedia(this.data, reference, media, precondition)),
        ),
      context,
    );
  }

  /** The content type of the media resource of an entry this provider returned, found again by its key. */
  mediaOf(entity: Entity, entityType: EdmEntityType): { readonly contentType: string } | undefined {
    if (!entityType.hasStream) return undefined;
    for (const entitySet of this.setsHolding(entityType)) {
      // The entity came from this provider: its key values are in model form, unless $select left one out.
      if (entitySet.entityType.key.some((property) => !isPrimitiveValue(entity[property.name]))) continue;
      const media = this.data.media(entitySet, keyIdentity(entitySet.entityType, entity));
      if (media !== undefined) return { contentType: media.contentType };
    }
    return undefined;
  }

  /**
   * Run `work` (a single write with its answer, or a `$batch` changeset) atomically: other
   * requests' writes wait until it ends, and if it throws, everything it wrote is undone. A nested
   * call with the same context joins the outer transaction. Work that has not finished after
   * `transactionTimeout` ms is abandoned (undone, 503 PROVIDER_TIMEOUT) so that it cannot hold
   * every other writer, and later writes of its request are refused.
   */
  async transaction<T>(work: () => Promise<T>, context: RequestContext): Promise<T> {
    return this.data.transactionAsync(work, { scope: context, timeout: this.transactionTimeout });
  }

  private copy(entitySet: EdmEntitySet, values: StoredValues): Entity {
    return projectEntity(this.data, entitySet, values, NO_SELECT_EXPAND);
  }

  /** The sets whose type is `entityType` or one of its base types (an entry of it may live there). */
  private setsHolding(entityType: EdmEntityType): readonly EdmEntitySet[] {
    let sets = this.mediaSets.get(entityType);
    if (sets === undefined) {
      sets = this.model.defaultContainer.entitySets.filter((set) => derivesFrom(entityType, set.entityType));
      this.mediaSets.set(entityType, sets);
    }
    return sets;
  }
}

/** @internal The store behind a provider with the reads its own modules use (key order, links, media); specs inspect it. */
export function storeOf(provider: MemoryProvider): Store {
  const { store } = provider;
  if (!(store instanceof Store)) throw new TypeError('The provider has no store of its own.');
  return store;
}
