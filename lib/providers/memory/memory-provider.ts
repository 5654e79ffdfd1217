/**
 * MemoryProvider: the embedded default DataProvider. Plain data in, full query semantics out: the
 * path is walked through the store, `$filter`/`$orderby`/paging/count run through the shared
 * evaluator (with navigation resolved over the link tables), and `$expand`/`$select` are applied
 * while copying. The write side will call the MemoryStore primitives (one synchronous step each).
 */
import type { EdmModel, EdmNavigationProperty } from '../../edm/model';
import { applyQuery, compileFilter } from '../../provider/evaluate';
import type { NavigationAccess } from '../../provider/evaluate';
import type { CountRequest, DataProvider, Entity, OperationHandler, QueryRequest, QueryResult } from '../../provider/types';
import type { RequestContext } from '../../protocol/message';
import { fromForeignKeys, loadData } from './load-data';
import type { ForeignKeyMap, MemoryData } from './load-data';
import { projectEntity, resolvePath } from './read';
import { MemoryStore } from './store';
import type { MemoryStoreOptions, StoredValues } from './store';

/** Options of `new MemoryProvider(model, data, options)`. */
export interface MemoryProviderOptions extends MemoryStoreOptions {
  /**
   * Foreign-key fields that stand for links, per entity set: `{ Products: { Category: 'CategoryID' } }`.
   * The fields are dropped after loading (they are not model properties).
   */
  readonly links?: ForeignKeyMap;
  /** Service-operation handlers by function-import name. */
  readonly operations?: Readonly<Record<string, OperationHandler>>;
}

/** An in-memory DataProvider over plain data, checked against the model on construction. */
export class MemoryProvider implements DataProvider {
  readonly model: EdmModel;
  /** The store; the provider's writes and tests use it directly. */
  readonly store: MemoryStore;
  readonly operations: Readonly<Record<string, OperationHandler>> | undefined;
  /** Single-valued navigation inside `$filter`/`$orderby` member paths (`Category/Name`). */
  private readonly navigate: NavigationAccess = (entity: Entity, property: EdmNavigationProperty) => {
    const location = this.store.locate(entity);
    if (location === undefined) return undefined;
    return this.store.related(location.entitySet, location.key, property)[0] ?? null;
  };

  /** Load `data` (entity set name to plain entities); throws MEMORY_DATA_INVALID naming every problem. */
  constructor(model: EdmModel, data: MemoryData = {}, options: MemoryProviderOptions = {}) {
    this.model = model;
    this.store = new MemoryStore(model, options);
    this.operations = options.operations;
    loadData(this.store, options.links === undefined ? data : fromForeignKeys(data, options.links));
  }

  /** Entities of a set or reached by navigation, filtered, ordered, paged and expanded; copies only. */
  async query(request: QueryRequest, _context: RequestContext): Promise<QueryResult> {
    const candidates = resolvePath(this.store, request.path);
    let page: readonly StoredValues[];
    let count: number | undefined;
    if (request.single) {
      page = request.filter === undefined ? candidates.slice(0, 1) : candidates.slice(0, 1).filter(compileFilter(request.filter, this.navigate));
      count = request.count ? page.length : undefined;
    } else {
      const result = applyQuery(
        candidates,
        {
          filter: request.filter,
          orderBy: request.orderBy,
          skip: request.skip,
          top: request.top,
          skipToken: request.skipToken,
          count: request.count,
        },
        this.navigate,
      );
      // The evaluator returns (a subset of) the objects it was given, which are stored values.
      page = result.entities as readonly StoredValues[];
      count = result.count;
    }
    const entities = page.map((values) => projectEntity(this.store, request.entitySet, values, request.selectExpand));
    return count === undefined ? { entities } : { entities, count };
  }

  /** The number of entities a path and filter address, without copying any. */
  async count(request: CountRequest, _context: RequestContext): Promise<number> {
    const candidates = resolvePath(this.store, request.path);
    if (request.filter === undefined) return candidates.length;
    const predicate = compileFilter(request.filter, this.navigate);
    let total = 0;
    for (const values of candidates) if (predicate(values)) total++;
    return total;
  }
}
