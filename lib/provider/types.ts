/**
 * The data-provider contract: the user's side. Providers receive fully parsed, typed requests and a
 * per-request context, and never see HTTP. Every method is async. A provider that cannot do part of
 * a query natively may call the helpers in `provider/evaluate` (the ones MemoryProvider uses).
 */
import type { EdmEntitySet, EdmEntityType, EdmFunctionImport, EdmNavigationProperty } from '../edm/model';
import type { PropertyValue } from '../edm/primitives';
import type { RequestContext } from '../protocol/message';
import type { ExprNode } from '../uri/expr/ast';
import type { EntityKey, EntityPath, OrderByItem, SelectExpand, SkipTokenPosition } from '../uri/types';

/**
 * An entity as providers return it: property name to value (see `edm/primitives` for the JS form of
 * each EDM type). An expanded navigation property holds an Entity (or null) for a single-valued one
 * and an array of Entities for a many-valued one.
 */
export interface Entity {
  [name: string]: PropertyValue | Entity | readonly Entity[] | undefined;
}

/** A read of entities: a collection, or a single entity when the path's last step has a key. */
export interface QueryRequest {
  /** The set the result entities belong to. */
  readonly entitySet: EdmEntitySet;
  readonly entityType: EdmEntityType;
  /** How to reach them: a set (with key), then navigation hops (with keys). */
  readonly path: EntityPath;
  /** True when the path addresses one entity (by key or over a single-valued navigation). */
  readonly single: boolean;
  /** Type-checked `$filter` (Edm.Boolean), or undefined. */
  readonly filter: ExprNode | undefined;
  /** `$orderby`, then the key properties ascending as a tie-breaker (always present for collections). */
  readonly orderBy: readonly OrderByItem[];
  /** Entities to skip after filtering and ordering. */
  readonly skip: number | undefined;
  /** Entities to return at most (the handler may ask for one more than a page to detect a next page). */
  readonly top: number | undefined;
  /** Return only entities after this position in `orderBy` order (server-driven paging). */
  readonly skipToken: SkipTokenPosition | undefined;
  /** What to select and expand; expanded navigation properties must be filled in the result. */
  readonly selectExpand: SelectExpand;
  /** Whether the total count (after `filter`, before paging) is wanted. */
  readonly count: boolean;
  /** Custom (non-`$`) query options, decoded. */
  readonly customOptions: Readonly<Record<string, string>>;
}

/** The answer to a QueryRequest. */
export interface QueryResult {
  /** The entities, in order; an async iterable lets a large feed stream. */
  readonly entities: readonly Entity[] | AsyncIterable<Entity>;
  /** The total count after filtering, when `count` was asked. */
  readonly count?: number;
}

/** A request to count entities: the same filter semantics as a query. */
export interface CountRequest {
  readonly entitySet: EdmEntitySet;
  readonly entityType: EdmEntityType;
  readonly path: EntityPath;
  readonly filter: ExprNode | undefined;
  readonly customOptions: Readonly<Record<string, string>>;
}

/** A reference to one entity. */
export interface EntityReference {
  readonly entitySet: EdmEntitySet;
  readonly key: EntityKey;
}

/** The read part of the provider contract; the write part extends it. */
export interface DataProvider {
  /** Entities of a set, or reached by navigation; one entity when `single`. */
  query(request: QueryRequest, context: RequestContext): Promise<QueryResult>;
  /** Optional fast path for `$count`; otherwise the service queries and counts. */
  count?(request: CountRequest, context: RequestContext): Promise<number>;
  /**
   * Optional ETag override: return the entity tag value (without `W/` and quotes) or undefined to
   * use the default one built from the `ConcurrencyMode="Fixed"` properties.
   */
  etag?(entity: Entity, entityType: EdmEntityType): string | undefined;
  /** Handlers for function imports, by name. */
  readonly operations?: Readonly<Record<string, OperationHandler>>;
}

/** A service operation's implementation: parameters are already typed EDM values. */
export type OperationHandler = (
  call: OperationCall,
  context: RequestContext,
) => Promise<OperationResult>;

export interface OperationCall {
  readonly functionImport: EdmFunctionImport;
  readonly parameters: Readonly<Record<string, PropertyValue>>;
}

/** Entities (for entity results), values (primitive/complex), or nothing. */
export type OperationResult = readonly Entity[] | Entity | PropertyValue | readonly PropertyValue[] | undefined | null;

/** Used by providers to name a navigation hop without the URI types. */
export interface NavigationReference {
  readonly source: EntityReference;
  readonly navigationProperty: EdmNavigationProperty;
}
