/**
 * Which system query options apply to which resource (MS-ODATA §2.2.3.6.1 "System Query Options":
 * each option lists the URI kinds it may be used with). A table, not branches: tests enumerate it,
 * and docs/uri.md prints the same matrix.
 */
import type { EdmFunctionImport, EdmReturnType } from '../edm/model';
import type { ResourceKind, ResourcePath } from './types';

/** The system query options of OData 2.0. */
export type SystemQueryOption = '$filter' | '$orderby' | '$top' | '$skip' | '$skiptoken' | '$inlinecount' | '$expand' | '$select' | '$format';

/** Every system query option, in the order they are processed. */
export const SYSTEM_QUERY_OPTIONS: readonly SystemQueryOption[] = Object.freeze([
  '$format',
  '$expand',
  '$select',
  '$filter',
  '$orderby',
  '$skiptoken',
  '$skip',
  '$top',
  '$inlinecount',
] as const);

/** Narrow a query option name. */
export function isSystemQueryOption(name: string): name is SystemQueryOption {
  return (SYSTEM_QUERY_OPTIONS as readonly string[]).includes(name);
}

/** A service operation's result shape, which decides its options (Olingo URI10..URI14, URI1 for entity feeds). */
export type ServiceOperationShape =
  'EntityCollection' | 'Entity' | 'ComplexCollection' | 'Complex' | 'PrimitiveCollection' | 'Primitive' | 'Void' | 'Count' | 'Value';

/** What the options table is keyed by: resource kinds, with service operations split by result. */
export type QueryOptionTarget = Exclude<ResourceKind, 'ServiceOperation'> | `ServiceOperation.${ServiceOperationShape}`;

type Row = readonly SystemQueryOption[];

// Feeds: everything. Single entities: no paging or sorting. `$links`: no $expand/$select (a link is
// a URI, not an entry). Counts: what narrows the counted set; $format is tolerated because SAP
// Cloud SDK sends `$format=json` with `/$count` and the answer is text/plain either way.
// Raw values ($value), $metadata and $batch: nothing (MS-ODATA §2.2.3.6.1.5: $format does not
// apply to raw values).
const FEED: Row = ['$format', '$expand', '$select', '$filter', '$orderby', '$skiptoken', '$skip', '$top', '$inlinecount'];
const ENTRY: Row = ['$format', '$expand', '$select', '$filter'];
const FORMAT_ONLY: Row = ['$format'];
const NONE: Row = [];

/** The table: for each target, the system query options it accepts. */
export const ALLOWED_QUERY_OPTIONS: Readonly<Record<QueryOptionTarget, ReadonlySet<SystemQueryOption>>> = freezeTable({
  ServiceDocument: FORMAT_ONLY,
  Metadata: NONE,
  Batch: NONE,
  EntitySet: FEED,
  NavigationCollection: FEED,
  Entity: ENTRY,
  NavigationEntity: ENTRY,
  CollectionCount: ['$format', '$filter', '$orderby', '$skip', '$top'],
  ComplexProperty: FORMAT_ONLY,
  PrimitiveProperty: FORMAT_ONLY,
  PropertyValue: NONE,
  MediaResource: ['$filter'],
  Links: ['$format', '$filter', '$orderby', '$skiptoken', '$skip', '$top', '$inlinecount'],
  Link: ['$format', '$filter'],
  LinksCount: ['$format', '$filter', '$orderby', '$skip', '$top'],
  // MS-ODATA §2.2.3.5: an operation returning a feed may be composed with query options like an entity set.
  'ServiceOperation.EntityCollection': FEED,
  'ServiceOperation.Entity': ['$format', '$expand', '$select'],
  'ServiceOperation.ComplexCollection': FORMAT_ONLY,
  'ServiceOperation.Complex': FORMAT_ONLY,
  'ServiceOperation.PrimitiveCollection': FORMAT_ONLY,
  'ServiceOperation.Primitive': FORMAT_ONLY,
  'ServiceOperation.Void': FORMAT_ONLY,
  'ServiceOperation.Count': ['$format', '$filter', '$orderby', '$skip', '$top'],
  'ServiceOperation.Value': NONE,
});

function freezeTable<K extends string>(rows: Record<K, Row>): Readonly<Record<K, ReadonlySet<SystemQueryOption>>> {
  const table = {} as Record<K, ReadonlySet<SystemQueryOption>>;
  for (const key of Object.keys(rows) as K[]) table[key] = new Set(rows[key]);
  return Object.freeze(table);
}

/** What each target is, in words, for error messages. */
export const QUERY_OPTION_TARGET_DESCRIPTIONS: Readonly<Record<QueryOptionTarget, string>> = Object.freeze({
  ServiceDocument: 'the service document',
  Metadata: 'the metadata document',
  Batch: 'a batch request',
  EntitySet: 'an entity set',
  NavigationCollection: 'a collection of related entities',
  Entity: 'a single entity',
  NavigationEntity: 'a single related entity',
  CollectionCount: 'the count of a collection',
  ComplexProperty: 'a complex property',
  PrimitiveProperty: 'a primitive property',
  PropertyValue: 'the raw value of a property',
  MediaResource: 'a media resource',
  Links: 'the links of a navigation property',
  Link: 'a single link',
  LinksCount: 'the count of links',
  'ServiceOperation.EntityCollection': 'a service operation returning entities',
  'ServiceOperation.Entity': 'a service operation returning one entity',
  'ServiceOperation.ComplexCollection': 'a service operation returning complex values',
  'ServiceOperation.Complex': 'a service operation returning a complex value',
  'ServiceOperation.PrimitiveCollection': 'a service operation returning primitive values',
  'ServiceOperation.Primitive': 'a service operation returning a primitive value',
  'ServiceOperation.Void': 'a service operation returning nothing',
  'ServiceOperation.Count': 'the count of a service operation result',
  'ServiceOperation.Value': 'the raw value of a service operation result',
});

/** The return type a service operation of shape `S` has. */
export type ShapeReturnType<S extends ServiceOperationShape> = S extends 'Void'
  ? undefined
  : S extends 'Entity' | 'EntityCollection' | 'Count'
    ? Extract<EdmReturnType, { readonly kind: 'Entity' }>
    : S extends 'Complex' | 'ComplexCollection'
      ? Extract<EdmReturnType, { readonly kind: 'Complex' }>
      : Extract<EdmReturnType, { readonly kind: 'Primitive' }>;

/** A service operation's result shape with its return type narrowed to match: one member per shape. */
type ShapedResult = { readonly [S in ServiceOperationShape]: { readonly shape: S; readonly returnType: ShapeReturnType<S> } }[ServiceOperationShape];

/**
 * The result shape of a service operation, with its `$count`/`$value` suffix (which the resource
 * path allows only after an entity collection and a single primitive respectively).
 */
export function shapedResultOf(functionImport: EdmFunctionImport, suffix: 'count' | 'value' | undefined): ShapedResult {
  const returnType = functionImport.returnType;
  if (returnType === undefined) return { shape: 'Void', returnType };
  switch (returnType.kind) {
    case 'Entity':
      return { shape: suffix === 'count' ? 'Count' : returnType.collection ? 'EntityCollection' : 'Entity', returnType };
    case 'Complex':
      return { shape: returnType.collection ? 'ComplexCollection' : 'Complex', returnType };
    case 'Primitive':
      return { shape: suffix === 'value' ? 'Value' : returnType.collection ? 'PrimitiveCollection' : 'Primitive', returnType };
  }
}

/** The result shape of a service operation, with its `$count`/`$value` suffix. */
function serviceOperationShape(functionImport: EdmFunctionImport, suffix: 'count' | 'value' | undefined): ServiceOperationShape {
  return shapedResultOf(functionImport, suffix).shape;
}

/** The table row a resolved path uses. */
export function queryOptionTarget(path: ResourcePath): QueryOptionTarget {
  if (path.kind === 'ServiceOperation') return `ServiceOperation.${serviceOperationShape(path.functionImport, path.suffix)}`;
  return path.kind;
}

/** True when the system query option applies to the resource. */
export function isQueryOptionAllowed(path: ResourcePath, option: SystemQueryOption): boolean {
  return ALLOWED_QUERY_OPTIONS[queryOptionTarget(path)].has(option);
}
