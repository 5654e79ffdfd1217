/**
 * What the URI layer hands on: a resolved resource path and typed query options. Handlers and
 * providers read these and never look at the URI text again.
 */
import type { EdmEntitySet, EdmEntityType, EdmFunctionImport, EdmNavigationProperty, EdmProperty } from '../edm/model';
import type { PrimitiveValue } from '../edm/primitives';
import type { ExprNode } from './expr/ast';

/** Key property name to value, in key order. */
export type EntityKey = Readonly<Record<string, PrimitiveValue>>;

/** The start of an entity path: an entity set, optionally narrowed to one entity by key. */
export interface EntityPathRoot {
  readonly entitySet: EdmEntitySet;
  readonly key: EntityKey | undefined;
}

/** One navigation hop (`/Products`, `/Products(3)`, `/Category`). */
export interface NavigationStep {
  readonly property: EdmNavigationProperty;
  /** The entity set the hop lands in. */
  readonly entitySet: EdmEntitySet;
  readonly key: EntityKey | undefined;
}

/** `Categories(1)/Products(3)/Supplier`: a root and navigation hops. The last element is the target. */
export interface EntityPath {
  readonly root: EntityPathRoot;
  readonly navigation: readonly NavigationStep[];
}

/** A property step below an entity: a declared property (maybe complex) or an open type's dynamic one. */
export type PropertyStep =
  | { readonly kind: 'Property'; readonly property: EdmProperty }
  | { readonly kind: 'Dynamic'; readonly name: string };

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
  | 'EntityCount'
  | 'ComplexProperty'
  | 'PrimitiveProperty'
  | 'PropertyValue'
  | 'MediaResource'
  | 'Links'
  | 'Link'
  | 'LinksCount'
  | 'ServiceOperation';

interface EntityTargetBase {
  readonly path: EntityPath;
  /** The set of the addressed entities (the last hop's). */
  readonly entitySet: EdmEntitySet;
  readonly entityType: EdmEntityType;
}

/** A resolved resource path. */
export type ResourcePath =
  | { readonly kind: 'ServiceDocument' }
  | { readonly kind: 'Metadata' }
  | { readonly kind: 'Batch' }
  /** A collection of entities: a set, or a many-valued navigation without key. */
  | (EntityTargetBase & { readonly kind: 'EntitySet' | 'NavigationCollection' | 'CollectionCount' })
  /** One entity: by key, or a single-valued navigation. */
  | (EntityTargetBase & { readonly kind: 'Entity' | 'NavigationEntity' | 'EntityCount' | 'MediaResource' })
  /** A property of one entity; `properties` walks into complex values. */
  | (EntityTargetBase & {
      readonly kind: 'ComplexProperty' | 'PrimitiveProperty' | 'PropertyValue';
      readonly properties: readonly PropertyStep[];
    })
  /** `$links/Nav` (Links: many-valued, or Link: single-valued or with a key). */
  | (EntityTargetBase & {
      readonly kind: 'Links' | 'Link' | 'LinksCount';
      readonly navigationProperty: EdmNavigationProperty;
      readonly targetEntitySet: EdmEntitySet;
      readonly targetKey: EntityKey | undefined;
    })
  | {
      readonly kind: 'ServiceOperation';
      readonly functionImport: EdmFunctionImport;
      /** `$count` or `$value` after the operation, when its result allows it. */
      readonly suffix: 'count' | 'value' | undefined;
    };

export type SortDirection = 'asc' | 'desc';

export interface OrderByItem {
  readonly expression: ExprNode;
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
  readonly select: Selection | undefined;
  readonly expand: readonly ExpandItem[];
}

/** One expanded navigation property, with what is selected and expanded below it. */
export interface ExpandItem extends SelectExpand {
  readonly property: EdmNavigationProperty;
  readonly entitySet: EdmEntitySet;
}

/** The decoded `$skiptoken`: the last entry's `$orderby` values, then its key values. */
export interface SkipTokenPosition {
  readonly orderByValues: readonly (PrimitiveValue | null)[];
  readonly key: EntityKey;
}

/** Typed system query options and the rest. */
export interface QueryOptions {
  readonly filter: ExprNode | undefined;
  readonly orderBy: readonly OrderByItem[];
  readonly top: number | undefined;
  readonly skip: number | undefined;
  readonly skipToken: SkipTokenPosition | undefined;
  readonly inlineCount: 'allpages' | 'none' | undefined;
  readonly selectExpand: SelectExpand;
  /** `$format` as given. */
  readonly format: string | undefined;
  /** Service-operation parameters and custom options (names without `$`), decoded. */
  readonly custom: Readonly<Record<string, string>>;
  /** Every option as given (decoded), for next links. */
  readonly raw: readonly (readonly [string, string])[];
}
