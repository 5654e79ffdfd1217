/**
 * What the URI layer hands on: a resolved resource path and typed query options. Handlers and
 * providers read these and never look at the URI text again.
 */
import type { EdmEntitySet, EdmEntityType, EdmFunctionImport, EdmNavigationProperty, EdmProperty } from '../edm/model';
import type { PreciseInstant } from '../edm/precise-instant';
import type { PrimitiveValue } from '../edm/primitives';
import type { ExprNode } from './expr/ast';

/** Key property name to value, in key order. */
export type EntityKey = Readonly<Record<string, PrimitiveValue>>;

/** The start of an entity path: an entity set, optionally narrowed to one entity by key. */
export interface EntityPathRoot {
  /** The entity set named by the first segment. */
  readonly entitySet: EdmEntitySet;
  /** Its key predicate, when the segment has one (`Products(1)`). */
  readonly key: EntityKey | undefined;
}

/** One navigation hop (`/Products`, `/Products(3)`, `/Category`). */
export interface NavigationStep {
  /** The navigation property this segment names. */
  readonly property: EdmNavigationProperty;
  /** The entity set the hop lands in. */
  readonly entitySet: EdmEntitySet;
  /**
   * The key predicate after it, when given (`Categories(1)/Products(3)`). A many-valued hop
   * without one addresses a collection, so it is always the path's last hop.
   */
  readonly key: EntityKey | undefined;
}

/**
 * `Categories(1)/Products(3)/Supplier`: a root and navigation hops. The last element is the target.
 * Navigation starts from one entity (MS-ODATA §2.2.3.1: a navigation property follows an entity),
 * so only a root with a key carries hops: `isKeyedPath` tells the two apart.
 */
export type EntityPath = EntitySetPath | KeyedEntityPath;

/** A whole entity set (`Products`): no key, and so no navigation. */
export interface EntitySetPath {
  /** The first segment: an entity set without a key. */
  readonly root: EntityPathRoot & {
    /** None: the path addresses every entity of the set. */
    readonly key: undefined;
  };
  /** Always empty. */
  readonly navigation: readonly [];
}

/** An entity by key (`Categories(1)`), then navigation hops (with keys) from it. */
export interface KeyedEntityPath {
  /** The first segment: an entity set with a key. */
  readonly root: EntityPathRoot & {
    /** The key predicate (`Categories(1)`). */
    readonly key: EntityKey;
  };
  /** The navigation hops after it, in order. */
  readonly navigation: readonly NavigationStep[];
}

/** A property step below an entity: a declared property (maybe complex) or an open type's dynamic one. */
export type PropertyStep = { readonly kind: 'Property'; readonly property: EdmProperty } | { readonly kind: 'Dynamic'; readonly name: string };

/** The kinds of resource a URI can address (Olingo's URI1..URI17, with readable names). */
export type ResourceKind =
  | 'ServiceDocument'
  | 'Metadata'
  | 'Batch'
  | 'EntitySet'
  | 'NavigationCollection'
  | 'Entity'
  | 'NavigationEntity'
  | 'CollectionCount'
  | 'ComplexProperty'
  | 'PrimitiveProperty'
  | 'PropertyValue'
  | 'MediaResource'
  | 'Links'
  | 'Link'
  | 'LinksCount'
  | 'ServiceOperation';

/** What every entity-addressing resource path has: how it was reached and what it addresses. */
interface EntityTargetBase<P extends EntityPath = EntityPath> {
  /** The entity path: a set (maybe with key), then navigation hops. */
  readonly path: P;
  /** The set of the addressed entities (the last hop's). */
  readonly entitySet: EdmEntitySet;
  /** The type of the addressed entities. */
  readonly entityType: EdmEntityType;
}

/** A collection of entities (`EntitySet`, `NavigationCollection`: a many-valued navigation without key) or its `$count`. */
export interface CollectionPath<
  K extends 'EntitySet' | 'NavigationCollection' | 'CollectionCount' = 'EntitySet' | 'NavigationCollection' | 'CollectionCount',
> extends EntityTargetBase {
  /** Which of the three this path is. */
  readonly kind: K;
}

/** One entity (`Entity`: by key, `NavigationEntity`: a single-valued navigation) or its media resource (`Entity/$value`). */
export interface SingleEntityPath<
  K extends 'Entity' | 'NavigationEntity' | 'MediaResource' = 'Entity' | 'NavigationEntity' | 'MediaResource',
> extends EntityTargetBase<KeyedEntityPath> {
  /** Which of the three this path is. */
  readonly kind: K;
}

/** A property of one entity, or its raw `$value`; `properties` walks into complex values. */
export interface PropertyPath<
  K extends 'ComplexProperty' | 'PrimitiveProperty' | 'PropertyValue' = 'ComplexProperty' | 'PrimitiveProperty' | 'PropertyValue',
> extends EntityTargetBase<KeyedEntityPath> {
  /** Which of the three this path is. */
  readonly kind: K;
  /** The property steps below the entity, the addressed one last. */
  readonly properties: readonly PropertyStep[];
}

/**
 * `$links/Nav` of the entity the base path addresses: `Links` (a many-valued navigation property
 * without key), `Link` (a single-valued one, or one link by key) or `LinksCount` (`$links/Nav/$count`).
 */
export interface LinksPath<K extends 'Links' | 'Link' | 'LinksCount' = 'Links' | 'Link' | 'LinksCount'> extends EntityTargetBase<KeyedEntityPath> {
  /** Which of the three this path is. */
  readonly kind: K;
  /** The navigation property whose links are addressed. */
  readonly navigationProperty: EdmNavigationProperty;
  /** The entity set of the linked entities. */
  readonly targetEntitySet: EdmEntitySet;
  /** The key after the navigation property (`$links/Products(3)`), when given. */
  readonly targetKey: EntityKey | undefined;
}

/** A service operation call (`GetProductsByRating?rating=3`), maybe with `/$count` or `/$value`. */
export interface ServiceOperationPath {
  /** Always `ServiceOperation`. */
  readonly kind: 'ServiceOperation';
  /** The function import the segment names. */
  readonly functionImport: EdmFunctionImport;
  /** `$count` or `$value` after the operation, when its result allows it. */
  readonly suffix: 'count' | 'value' | undefined;
}

/** A path without anything but its kind: the service document, `$metadata`, `$batch`. */
export interface ServicePath<K extends 'ServiceDocument' | 'Metadata' | 'Batch'> {
  /** Which of the three this path is. */
  readonly kind: K;
}

/** A resolved resource path: one member per resource kind, so `ResourcePathOf<K>` narrows to exactly the kinds `K` names. */
export type ResourcePath =
  | ServicePath<'ServiceDocument'>
  | ServicePath<'Metadata'>
  | ServicePath<'Batch'>
  | CollectionPath<'EntitySet'>
  | CollectionPath<'NavigationCollection'>
  | CollectionPath<'CollectionCount'>
  | SingleEntityPath<'Entity'>
  | SingleEntityPath<'NavigationEntity'>
  | SingleEntityPath<'MediaResource'>
  | PropertyPath<'ComplexProperty'>
  | PropertyPath<'PrimitiveProperty'>
  | PropertyPath<'PropertyValue'>
  | LinksPath<'Links'>
  | LinksPath<'Link'>
  | LinksPath<'LinksCount'>
  | ServiceOperationPath;

/** The resource paths of the kinds `K` (`ResourcePathOf<'Links' | 'Link'>`). */
export type ResourcePathOf<K extends ResourceKind> = Extract<
  ResourcePath,
  {
    /** One of the kinds asked for. */
    readonly kind: K;
  }
>;

/** `asc` or `desc`. */
export type SortDirection = 'asc' | 'desc';

/** One `$orderby` item: an expression and a direction. */
export interface OrderByItem {
  /** The type-checked expression to sort by (usually a property path). */
  readonly expression: ExprNode;
  /** Ascending unless `desc` was given. */
  readonly direction: SortDirection;
}

/**
 * What `$select` keeps at one level. `undefined` in `SelectExpand.select` means "no $select":
 * everything is written.
 */
export interface Selection {
  /** `*` was given: every structural property (declared and dynamic). */
  readonly allProperties: boolean;
  /** Structural properties named explicitly (declared or dynamic). */
  readonly properties: ReadonlySet<string>;
  /** Navigation properties named explicitly (written deferred, or inline when expanded). */
  readonly navigationProperties: ReadonlySet<string>;
}

/** `$select` and `$expand` at one level of the response tree. */
export interface SelectExpand {
  /** What `$select` keeps at this level; undefined means everything. */
  readonly select: Selection | undefined;
  /** The navigation properties expanded at this level. */
  readonly expand: readonly ExpandItem[];
}

/** One expanded navigation property, with what is selected and expanded below it. */
export interface ExpandItem extends SelectExpand {
  /** The navigation property this `$expand` path step names. */
  readonly property: EdmNavigationProperty;
  /** The entity set its targets belong to. */
  readonly entitySet: EdmEntitySet;
}

/**
 * An order value of a position: the value's JS form, or for an Edm.DateTime or
 * Edm.DateTimeOffset item a PreciseInstant when the store keeps more than milliseconds. A `Date`
 * here stands for its whole millisecond (as a `datetime'…'` literal does in `$filter`): the
 * entities after it are those whose value cut to milliseconds is later, or equal with a later key.
 */
export type PositionValue = PrimitiveValue | PreciseInstant;

/**
 * A place in a feed's order: an entity's values for the items of the order, then its key. The
 * service decodes one from a `$skiptoken` (`QueryRequest.skipToken`: the last entry of the
 * previous page) and asks a provider for one per entity (`QueryResult.positionOf`) to write the
 * next link's `$skiptoken`.
 */
export interface SkipTokenPosition {
  /**
   * The entity's value for each of the first items of the order, in order: one per `$orderby`
   * item in a decoded `$skiptoken`; one per item of `QueryRequest.orderBy` (the key tie-breaker
   * included) from `positionOf`. At the store's precision (see PositionValue).
   */
  readonly orderByValues: readonly (PositionValue | null)[];
  /** The entity's key. */
  readonly key: EntityKey;
}

/** Typed system query options and the rest. */
export interface QueryOptions {
  /** `$filter`, type-checked; undefined when absent. */
  readonly filter: ExprNode | undefined;
  /** `$orderby` items as given (the key tie-breaker is added later). */
  readonly orderBy: readonly OrderByItem[];
  /** `$top`; undefined when absent. Server paging may cut a page shorter. */
  readonly top: number | undefined;
  /** `$skip`; undefined when absent. */
  readonly skip: number | undefined;
  /** `$skiptoken`, decoded. */
  readonly skipToken: SkipTokenPosition | undefined;
  /** `$inlinecount`; `allpages` asks for the count in the feed (`__count`, `m:count`). */
  readonly inlineCount: 'allpages' | 'none' | undefined;
  /** `$select` and `$expand`, resolved against the model. */
  readonly selectExpand: SelectExpand;
  /**
   * SAP's `search` on a collection of entities (lib/uri/search.ts): its terms as written; undefined
   * without it, or when it has no terms (`search=`). Also kept in `custom`, as given.
   */
  readonly search: readonly string[] | undefined;
  /** `$format` as given. */
  readonly format: string | undefined;
  /** Service-operation parameters and custom options (names without `$`), decoded. */
  readonly custom: Readonly<Record<string, string>>;
  /** Every option as given (decoded), for next links. */
  readonly raw: readonly (readonly [string, string])[];
}
