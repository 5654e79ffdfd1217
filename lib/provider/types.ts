/**
 * The data-provider contract: the user's side. Providers receive fully parsed, typed requests and a
 * per-request context, and never see HTTP. Every method is async. A provider that cannot do part of
 * a query natively may call the helpers in `evaluate/` (the ones MemoryProvider uses).
 */
import type { EdmEntitySet, EdmEntityType, EdmFunctionImport, EdmNavigationProperty } from '../edm/model';
import type { PrimitiveValue, PropertyValue } from '../edm/primitives';
import type { RequestContext } from '../protocol/message';
import type { ExprNode } from '../uri/expr/ast';
import type { EntityKey, EntityPath, OrderByItem, SelectExpand, SkipTokenPosition } from '../uri/types';

/**
 * An entity as providers return it: property name to value (see `edm/primitives` for the JS form of
 * each EDM type). An expanded navigation property holds an Entity (or null) for a single-valued one
 * and an array of Entities for a many-valued one, or an async iterable of them: the service then
 * writes it as it arrives (a large expansion streams, and stops at `limits.maxExpandedEntities`).
 */
export interface Entity {
  [name: string]: PropertyValue | Entity | readonly Entity[] | AsyncIterable<Entity> | undefined;
}

/** A read of entities: a collection, or a single entity when the path's last step has a key. */
export interface QueryRequest {
  /** The set the result entities belong to. */
  readonly entitySet: EdmEntitySet;
  /** The type of the result entities (the set's type). */
  readonly entityType: EdmEntityType;
  /** How to reach them: a set (with key), then navigation hops (with keys). */
  readonly path: EntityPath;
  /** True when the path addresses one entity (by key or over a single-valued navigation). */
  readonly single: boolean;
  /** Type-checked `$filter` (Edm.Boolean), or undefined. */
  readonly filter: ExprNode | undefined;
  /**
   * `$orderby`, then the key properties ascending as a tie-breaker (always present for
   * collections). Date/time values sort by the stored value, then by the next item.
   */
  readonly orderBy: readonly OrderByItem[];
  /** Entities to skip after filtering and ordering. */
  readonly skip: number | undefined;
  /** Entities to return at most (the handler may ask for one more than a page to detect a next page). */
  readonly top: number | undefined;
  /**
   * Return only entities after this position in `orderBy` order (server-driven paging;
   * `seekCondition` builds it as a filter AST). A date/time value is a PreciseInstant (compare
   * exactly) or a `Date`, which stands for its whole millisecond (compare as `$filter` does: the
   * entities of that millisecond tie), see PositionValue and docs/conformance.md "Timestamps".
   */
  readonly skipToken: SkipTokenPosition | undefined;
  /** What to select and expand; expanded navigation properties must be filled in the result. */
  readonly selectExpand: SelectExpand;
  /** Whether the total count (after `filter` and `search`, before paging) is wanted. */
  readonly count: boolean;
  /**
   * SAP's `search` (the search field of SAP Fiori apps), on a collection: its terms as the user
   * wrote them (a quoted phrase is one term, without its quotes). An entity passes when every
   * term is in one of its searchable properties, ignoring case: `searchFilter` builds that
   * condition as a filter AST, and `requestFilter` combines it with `filter`. A provider with a
   * search of its own (full text, ranking) may use the terms instead. Applied before `orderBy`,
   * `skipToken`, `skip`, `top` and the count, exactly as `filter`. Absent or undefined: no search.
   */
  readonly search?: readonly string[] | undefined;
  /** Custom (non-`$`) query options, decoded (`search` among them, as given). */
  readonly customOptions: Readonly<Record<string, string>>;
}

/**
 * What of a QueryRequest a provider applied, when not all of it (`QueryResult.applied`). The
 * request's steps run in protocol order: `filter`, then `skipToken` and `orderBy` (which commute
 * with each other and with filtering), then `skip` and `top`; the count is taken after `filter`.
 * The service applies, with the shared evaluator, every step the provider did not, so the answer is
 * exactly the one of a provider that did everything. A step can only be applied when every step it
 * depends on was: `skip`/`top` need the whole filter, the skiptoken and the order.
 */
export interface QueryApplied {
  /**
   * The part of the request's condition (`requestFilter`: `filter` and the `search`) the returned
   * entities may still fail: undefined when they satisfy all of it; the whole condition when the
   * provider applied none of it; else the residual of `splitFilter` (the entities then satisfy its
   * `pushed` part). It may read navigation properties
   * (`Category/Name`): put the related entities on the returned ones as an expansion would (the
   * response still shows only what `$expand` asked), and return the properties it reads even when
   * `$select` leaves them out.
   */
  readonly residual: ExprNode | undefined;
  /** True when the entities come in `orderBy` order (false: the service sorts them, buffering all). */
  readonly orderBy: boolean;
  /** True when only entities after `skipToken` are returned (or the request has none). */
  readonly skipToken: boolean;
  /** True when `skip` and `top` are applied: only with no `residual`, `orderBy` and `skipToken`. */
  readonly skipTop: boolean;
}

/** The answer to a QueryRequest. */
export interface QueryResult {
  /** The entities, in order; an async iterable lets a large feed stream. */
  readonly entities: readonly Entity[] | AsyncIterable<Entity>;
  /**
   * The total count after filtering, when `count` was asked. `| undefined` spelled out so that
   * `applyQuery`'s result (and a provider's `count: asked ? n : undefined`) is a QueryResult for
   * users compiling with `exactOptionalPropertyTypes`. With a `residual` in `applied`, leave it out:
   * the service counts the entities that pass the residual, so it then needs every entity the pushed
   * part keeps (`applied.skipToken` and `applied.skipTop` false).
   */
  readonly count?: number | undefined;
  /**
   * What the provider applied, when not everything: the service finishes the rest exactly (see
   * QueryApplied). Absent: the provider applied the whole request (filter, order, skiptoken,
   * `skip`/`top`, and `count` when asked). With a residual or an order left to the service, the
   * service reads the entities the pushed part keeps: in order it streams them and stops after the
   * page (all of them when a count is wanted); unordered it holds all of them in memory to sort.
   */
  readonly applied?: QueryApplied | undefined;
  /**
   * Where a returned entity stands in `orderBy` order, at the store's precision: its value for
   * every item of `orderBy` and its key (a timestamp finer than milliseconds as a PreciseInstant).
   * The service asks it for the last entity of a page and writes the next link's `$skiptoken`
   * from the answer, without reading anything again. Read only when the provider applied the order
   * (no `applied`, or `applied.orderBy`); a skiptoken it left to the service (`applied.skipToken`
   * false, as a count needs) is then applied on these positions too, exactly at the store's
   * precision. Absent, or undefined for an entity: the
   * service evaluates the order on the entity itself (`entityPosition`), which is exact for a
   * store that keeps milliseconds, but needs the related entities an order through navigation
   * properties reads (`Category/Name`) on the entity. MemoryProvider and SqlProvider answer it.
   */
  readonly positionOf?: ((entity: Entity) => SkipTokenPosition | undefined) | undefined;
}

/** A request to count entities: the same filter semantics as a query. */
export interface CountRequest {
  /** The set whose entities are counted. */
  readonly entitySet: EdmEntitySet;
  /** The type of the counted entities. */
  readonly entityType: EdmEntityType;
  /** How to reach them: a set (with key), then navigation hops (with keys). */
  readonly path: EntityPath;
  /** Type-checked `$filter`, or undefined. */
  readonly filter: ExprNode | undefined;
  /** SAP's `search` terms, as in QueryRequest: counted entities pass `filter` and the search. */
  readonly search?: readonly string[] | undefined;
  /** Custom (non-`$`) query options, decoded. */
  readonly customOptions: Readonly<Record<string, string>>;
}

/** A reference to one entity. */
export interface EntityReference {
  /** The set the entity lives in; its entity type may be a base of the entity's own. */
  readonly entitySet: EdmEntitySet;
  /** The entity's key values by property name. */
  readonly key: EntityKey;
}

/**
 * An `If-Match` precondition, carried by the write so the provider checks it in the same atomic
 * step as the write (an SQL `WHERE`, or one synchronous step in memory). Check-then-write across
 * two awaits loses updates under concurrency.
 */
export interface Precondition {
  /** `*`: every existing entity matches. */
  readonly any: boolean;
  /** The entity tags the client sent (full values, e.g. `W/"3"`). */
  readonly etags: readonly string[];
  /**
   * Each tag of `etags` decoded (`decodeETag`) into the values of the entity type's
   * `ConcurrencyMode="Fixed"` properties, typed as the model says: one record per tag, in order,
   * without the tags that decode to nothing (they match no entity). An entity matches when its
   * values equal one record (`any` aside), so a provider can put the check into its write:
   * `UPDATE … WHERE ID = $1 AND Version = $2` (or `preconditionCondition` as a filter AST). With
   * `any` false and no record, nothing matches: an existing entity is a 412. Decoded with the
   * service's encoding; a provider with its own `etag` override reads `etags` instead.
   */
  readonly concurrencyValues: readonly Readonly<Record<string, PrimitiveValue | null>>[];
  /** True when the current stored state satisfies the precondition (weak comparison, RFC 7232 §2.3.2). */
  matches(current: Entity): boolean;
}

/** Links in an entry body to existing entries. */
export interface LinkBinding {
  /** The navigation property the links are for. */
  readonly property: EdmNavigationProperty;
  /** The linked entries (one for a single-valued navigation property). */
  readonly targets: readonly EntityReference[];
}

/**
 * A new entry: the properties the client sent, links to existing entries, and inline new ones.
 * What the client left out is the provider's to default: the model's defaults (`fillDefaults`),
 * or the store's own (an SQL column's DEFAULT, an identity). Before `create` is called the service has refused with a
 * 4xx, at every level of a deep insert (so a provider need not check again):
 * - an undeclared property, or a value of the wrong type or breaking its facets (400);
 * - an omitted required property: non-nullable, no `DefaultValue`, not a key, not a concurrency
 *   token, not store-generated, see `isRequiredOnCreate` (400 PROPERTY_REQUIRED);
 * - a binding target outside the set the model binds for its navigation property, more than one
 *   binding or inline entry for a single-valued one, an inline entry of another type (400);
 * - a media resource for a type without `m:HasStream` (415).
 * Left to the provider, as they need the data: a binding target or `parent` source that does not
 * exist, a taken key, a multiplicity the write would break.
 */
export interface CreateRequest {
  /** The set to create the entry in. */
  readonly entitySet: EdmEntitySet;
  /** The concrete type (the set's type or a derived one). */
  readonly entityType: EdmEntityType;
  /**
   * The properties the client sent, and only those (keys when given, dynamic ones of open types),
   * plus the dependent properties a link fixes (`withLinkedValues`). Complete them with
   * `fillDefaults(entityType, values)` to store the model's defaults, or write them as they are
   * to leave the rest to the store's defaults (`createSchema` declares the model's). Empty for a
   * media link entry created from its media resource (`mediaEntryValues`). Its keys name what was
   * sent (unlike an update's `values`, which a PUT completes: `UpdateRequest.sent`). A property marked
   * `sap:creatable="false"` is never in it: a value the client sent for one is dropped.
   */
  readonly values: Readonly<Record<string, PropertyValue>>;
  /** Links in the body to existing entries: each target in the navigation property's target set, one at most for a single-valued one. */
  readonly bindings: readonly LinkBinding[];
  /**
   * Deep insert: new related entries, created and linked atomically with this one; each entry's
   * `entitySet` is the navigation property's target set, one entry at most for a single-valued one.
   */
  readonly inline: readonly { readonly property: EdmNavigationProperty; readonly entries: readonly CreateRequest[] }[];
  /** POST through a navigation property (`Categories(1)/Products`): link the new entry to this source (this set is its target set). */
  readonly parent: NavigationReference | undefined;
  /**
   * Media link entries: the media resource that creates the entry. Set only when the type has
   * `m:HasStream`, and then `values`, `bindings` and `inline` are empty (see `mediaEntryValues`).
   */
  readonly media: MediaContent | undefined;
}

/**
 * A PUT (`replace`: unlisted properties reset to defaults, dynamic ones removed) or MERGE/PATCH
 * (`merge`). Before `update` is called the service has refused with a 4xx (so a provider need not
 * check again): an undeclared property or a value breaking its type or facets, a key in the body
 * that differs from the URL's (KEY_MISMATCH), a binding target outside the navigation property's
 * target set or more than one for a single-valued property, new inline entries (no deep update in
 * OData 2.0), `null` for a required (multiplicity `1`) navigation property, and a missing
 * `If-Match` where the type has concurrency tokens (428, with `requireIfMatch` on, the default). Left to the provider: a missing entry
 * (404), a binding target that does not exist, the precondition (412), multiplicities.
 */
export interface UpdateRequest {
  /** The set the URL addresses the entry in. */
  readonly entitySet: EdmEntitySet;
  /** The entry's concrete type. */
  readonly entityType: EdmEntityType;
  /** The key from the URL, typed by the key properties (`Products(1)` gives `{ ID: 1 }`). */
  readonly key: EntityKey;
  /** `replace` for PUT, `merge` for MERGE and PATCH. */
  readonly mode: 'replace' | 'merge';
  /**
   * For `replace`: what the entry becomes, decided by the service before the provider is called
   * (MS-ODATA §2.2.7.3.1, a PUT resets what it does not list): the sent values, the key from the
   * URL, and every other declared property reset to its `DefaultValue`, else null (a PUT that
   * omits a required one is refused with 400 PROPERTY_REQUIRED first), plus the dynamic properties
   * sent. Write these values as they are (not the store's column defaults). A declared property
   * absent here keeps its value: a concurrency token (the provider advances it as on any write), a
   * store-generated property (`isStoreGenerated`), a property the model marks
   * `sap:updatable="false"`, or a foreign key of a link in `bindings`. For `merge`: exactly the
   * sent non-key properties. A sent `sap:updatable="false"` property that repeats its stored value
   * is left out of both (one that differs was refused with 400 PROPERTY_NOT_UPDATABLE).
   */
  readonly values: Readonly<Record<string, PropertyValue>>;
  /**
   * The names of the non-key properties the body listed (declared and dynamic; a complex property by
   * its own name). For `merge` they are the keys of `values`; for `replace` they tell which values
   * the client gave and which the service reset.
   */
  readonly sent: ReadonlySet<string>;
  /**
   * Links in the body: merged (a single-valued one replaces the current link). A single-valued
   * property with no targets is the body's explicit null: remove its link (the service has already
   * refused it for a required end).
   */
  readonly bindings: readonly LinkBinding[];
  /** The `If-Match` precondition to check atomically with the write; undefined without If-Match. */
  readonly precondition: Precondition | undefined;
}

/** A DELETE of one entry. */
export interface DeleteRequest {
  /** The set the URL addresses the entry in. */
  readonly entitySet: EdmEntitySet;
  /** The set's entity type (the entry itself may be of a derived type). */
  readonly entityType: EdmEntityType;
  /** The key from the URL, typed by the key properties (`Products(1)` gives `{ ID: 1 }`). */
  readonly key: EntityKey;
  /** The `If-Match` precondition to check atomically with the delete; undefined without If-Match. */
  readonly precondition: Precondition | undefined;
}

/** `$links` writes: add (POST), replace a single-valued link (PUT), remove (DELETE). */
export interface LinkRequest {
  /** The entry whose navigation property changes. */
  readonly source: EntityReference;
  /** The navigation property (`$links/Category`) whose links change. */
  readonly property: EdmNavigationProperty;
  /** The target; undefined only when removing a single-valued link. */
  readonly target: EntityReference | undefined;
  /** `add` (POST), `replace` (PUT on a single-valued one) or `remove` (DELETE). */
  readonly mode: 'add' | 'replace' | 'remove';
}

/** A media resource's bytes and type. */
export interface MediaContent {
  /** The media type of the bytes. */
  readonly contentType: string;
  /** The media resource itself, as received or to be sent. */
  readonly body: Buffer;
  /** The `Slug` header: a hint for the key or title of a new media link entry. */
  readonly slug?: string;
}

/** The read part of the provider contract plus the optional write part. */
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
  /**
   * Handlers for function imports, by name. `| undefined` spelled out so that a class holding an
   * optional option (as MemoryProvider and SqlProvider do) implements DataProvider for users
   * compiling with `exactOptionalPropertyTypes`.
   */
  readonly operations?: Readonly<Record<string, OperationHandler>> | undefined;

  /** Create an entry (and its inline tree, atomically); returns the stored entry with generated values. */
  create?(request: CreateRequest, context: RequestContext): Promise<Entity>;
  /** Update an entry after checking `precondition` atomically; returns the new stored state. 404/412 as ODataError. */
  update?(request: UpdateRequest, context: RequestContext): Promise<Entity>;
  /** Delete an entry (and its media resource) after checking `precondition`; cascades per the association's OnDelete. */
  delete?(request: DeleteRequest, context: RequestContext): Promise<void>;
  /** Add, replace or remove a link; enforce the association's multiplicities. */
  link?(request: LinkRequest, context: RequestContext): Promise<void>;
  /** The media resource of a media link entry. */
  readMedia?(entity: EntityReference, context: RequestContext): Promise<MediaContent>;
  /** Replace the media resource of a media link entry, after checking `precondition`. */
  writeMedia?(entity: EntityReference, media: MediaContent, precondition: Precondition | undefined, context: RequestContext): Promise<Entity>;
  /**
   * The media resource of a media link entry this provider returned (synchronous: writers call it
   * per entry): its content type and, when it has its own, its full entity tag (`W/"1"`). Undefined
   * when unknown; writers then use `application/octet-stream` and no media tag.
   */
  mediaOf?(entity: Entity, entityType: EdmEntityType): { readonly contentType: string; readonly etag?: string } | undefined;
  /**
   * Run `work` atomically: if it throws, every write made inside is undone. The service runs every
   * write in it: a single POST, PUT, MERGE, PATCH or DELETE (with its answer), `$links`, property,
   * `$value` and media writes, service operations invoked by POST, and each `$batch` changeset; the
   * write methods are then called inside `work` with the same `context` (keep the transaction with
   * it in a `TransactionScope`). The service never calls it inside itself for one context, but a
   * provider's own nested use must join the open transaction. `work` may be run again after a
   * failure that rolled everything back (a serialization failure or deadlock): each run starts
   * from a clean slate and only the last one's answer is sent. Without it, writes and changesets
   * are not atomic. `options.singleWrite` (see `TransactionOptions`) marks the work of a write
   * request that calls exactly one write method: a provider may then commit that write on its own
   * (a single statement needs no BEGIN and COMMIT), before the service writes the answer.
   */
  transaction?<T>(work: () => Promise<T>, context: RequestContext, options?: TransactionOptions): Promise<T>;
}

/** What the service tells `DataProvider.transaction` about the work it runs. */
export interface TransactionOptions {
  /**
   * True when `work` is one write request outside a `$batch` changeset (a POST, PUT, MERGE, PATCH
   * or DELETE of an entry, a property, a `$value`, `$links` or a media resource; never a service
   * operation), so it calls exactly one write method, once, perhaps after reads. A provider may
   * then let that write commit when its method returns, without a transaction around the rest of
   * `work`: a write that is one statement is atomic by itself. What changes is only the order of
   * the commit and the writing of the answer: a failure after the write method returned (a value
   * from the provider that the writers refuse) answers with the error and does not undo the write.
   * The service never sets it when `limits.providerTimeout` is set, whose 503 promises that nothing
   * was written. Absent or false: every write of `work` commits or rolls back together with it.
   */
  readonly singleWrite?: boolean;
}

/** A service operation's implementation: parameters are already typed EDM values. */
export type OperationHandler = (call: OperationCall, context: RequestContext) => Promise<OperationResult>;

/** A call of a service operation: which one, and its parameters. */
export interface OperationCall {
  /** The function import the URL named, with its return type and entity set. */
  readonly functionImport: EdmFunctionImport;
  /** Its parameters by name, as typed EDM values. */
  readonly parameters: Readonly<Record<string, PropertyValue>>;
}

/** Entities (for entity results), values (primitive/complex), or nothing. */
export type OperationResult = readonly Entity[] | Entity | PropertyValue | readonly PropertyValue[] | undefined | null;

/** Used by providers to name a navigation hop without the URI types. */
export interface NavigationReference {
  /** The entity the hop starts from. */
  readonly source: EntityReference;
  /** The navigation property of `source` that leads to the entity (`Products` in `Categories(1)/Products`). */
  readonly navigationProperty: EdmNavigationProperty;
}
