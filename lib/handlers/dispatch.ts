/**
 * Which handler serves which resource kind and method (Olingo's Dispatcher, as data). The rows are
 * derived once per service from the methods its provider implements: a method a row does not take,
 * whose provider method is missing, or that the addressed set's `sap:` capabilities refuse, is
 * 405 with an `Allow` header listing what the resource does take. Each row's handlers receive the path narrowed to the row's kind, and each says how
 * the service runs it: as a read, as a write (one unit of work), or, for `$batch`, as a
 * multiplexer whose operations run as units of their own.
 */
import { propertyCapabilities, setCapabilities, type SetCapability } from '../edm/sap';
import type { EdmEntitySet } from '../edm/model';
import { ODataError } from '../errors';
import type { DataProvider } from '../provider/types';
import type { HandlerOutcome } from '../result';
import { QUERY_OPTION_TARGET_DESCRIPTIONS, queryOptionTarget } from '../uri/resource-kinds';
import type { ResourceKind, ResourcePath, ResourcePathOf, ServicePath } from '../uri/types';
import type { Handler, HandlerContext, ProviderWith, WriteMethodName } from './context';
import { readLinks } from './links';
import { readMetadata, readServiceDocument } from './metadata';
import { readProperty, readPropertyValue } from './property';
import { readCount, readEntry, readFeed } from './read';
import { createEntry } from './create';
import { deleteEntry, updateEntry } from './update';
import { deletePropertyValue, updateProperty, updatePropertyValue } from './property-write';
import { deleteLink, writeLink } from './links-write';
import { readMediaResource, updateMediaResource } from './media';
import { invokeOperation } from './operations';

/** The methods a row can take (HEAD is served by GET). */
export type Method = 'GET' | 'POST' | 'PUT' | 'MERGE' | 'PATCH' | 'DELETE';

/** Every method, in the order `Allow` lists them. */
const METHODS: readonly Method[] = Object.freeze(['GET', 'POST', 'PUT', 'MERGE', 'PATCH', 'DELETE']);

const METHOD_SET: ReadonlySet<string> = new Set(METHODS);

function isMethod(name: string): name is Method {
  return METHOD_SET.has(name);
}

/**
 * How the service runs a handler (handlers/unit-of-work.ts): a `read` (bounded, no transaction), a
 * `write` (inside the provider's transaction with its answer: a service operation, which may call
 * any number of write methods), a `single-write` (the same, for handlers that call exactly one
 * write method once: `TransactionOptions.singleWrite`), or a `multiplexer` that runs units of its
 * own (`$batch`: each operation and changeset is one).
 */
type UnitKind = 'read' | 'write' | 'single-write' | 'multiplexer';

/** What a row's non-GET handlers are: one write method call each, a service operation, or `$batch`. */
type Writes = 'one' | 'any' | 'multiplexer';

/** What dispatch finds for a method: the handler and how to run it. */
interface Dispatched<P extends ResourcePath> {
  readonly handler: Handler<P>;
  readonly unit: UnitKind;
}

/** The handlers of one resource kind, by method. */
interface Route<K extends ResourceKind> {
  readonly handlers: { readonly [M in Method]?: Dispatched<ResourcePathOf<K>> };
  /**
   * For kinds whose methods depend on the addressed resource (a single link, a service operation's
   * declared `m:HttpMethod`): whether this resource takes `method`. Absent: every handler applies.
   */
  readonly accepts?: (path: ResourcePathOf<K>, method: Method) => boolean;
}

/** The dispatch table: a row for every resource kind. */
export type Routes = { readonly [K in ResourceKind]: Route<K> };

/** The rows whose handlers the service supplies: `$batch` runs the service's own pipeline. */
interface ServiceRoutes {
  readonly batch: Handler<ServicePath<'Batch'>>;
}

/**
 * A row with the handlers that exist (a provider method may be missing), frozen. GET is a read and
 * every other method a write (of one write method call, unless `writes` says otherwise), unless
 * the row is a multiplexer.
 */
function route<K extends ResourceKind>(
  handlers: NoInfer<{ readonly [M in Method]?: Handler<ResourcePathOf<K>> | undefined }>,
  accepts?: NoInfer<Route<K>['accepts']>,
  writes: Writes = 'one',
): Route<K> {
  const present: { [M in Method]?: Dispatched<ResourcePathOf<K>> } = {};
  const write: UnitKind = writes === 'multiplexer' ? 'multiplexer' : writes === 'one' ? 'single-write' : 'write';
  for (const method of METHODS) {
    const handler = handlers[method];
    if (handler !== undefined) present[method] = Object.freeze({ handler, unit: writes === 'multiplexer' || method !== 'GET' ? write : 'read' });
  }
  return Object.freeze(accepts === undefined ? { handlers: Object.freeze(present) } : { handlers: Object.freeze(present), accepts });
}

/** True when the provider implements the optional method `name`. */
function implementsMethod<N extends WriteMethodName>(provider: DataProvider, name: N): provider is ProviderWith<N> {
  return typeof provider[name] === 'function';
}

/** `handler` with the provider passed in, or undefined (405) when the provider does not implement `name`. */
function using<N extends WriteMethodName, K extends ResourceKind>(
  provider: DataProvider,
  name: N,
  handler: (context: HandlerContext<ResourcePathOf<K>>, provider: ProviderWith<N>) => Promise<HandlerOutcome>,
): Handler<ResourcePathOf<K>> | undefined {
  if (!implementsMethod(provider, name)) return undefined;
  const capable = provider;
  return (context) => handler(context, capable);
}

/**
 * MS-ODATA §2.2.7.3.5 "UpdateLink" replaces a single-valued navigation property's link; a link of
 * a many-valued one (`$links/Products(3)`) can only be read and deleted (§2.2.7.4.2).
 */
function linkAccepts(path: ResourcePathOf<'Link'>, method: Method): boolean {
  return method !== 'PUT' || !path.navigationProperty.isCollection;
}

/** A service operation takes the method its `m:HttpMethod` declares, GET when none (MS-ODATA §2.2.3.4). */
function operationAccepts(path: ResourcePathOf<'ServiceOperation'>, method: Method): boolean {
  return method === (path.functionImport.httpMethod ?? 'GET');
}

/**
 * The set-level capability (`sap:creatable`, `sap:updatable`, `sap:deletable`) each write needs of
 * the addressed set, by resource kind and method; a set whose `sap:` attribute says "false"
 * answers 405 with `Allow` before the provider runs. A property, `$value` or media resource is
 * part of its entry: writing one updates the entry. A `$links` write changes the source entry's
 * links, so it needs `sap:updatable` on the source's set, and on the target's set too when the
 * association's ReferentialConstraint puts the link in the target's properties.
 */
const NEEDED: { readonly [K in ResourceKind]?: { readonly [M in Method]?: SetCapability } } = {
  EntitySet: { POST: 'creatable' },
  NavigationCollection: { POST: 'creatable' },
  Entity: { PUT: 'updatable', MERGE: 'updatable', PATCH: 'updatable', DELETE: 'deletable' },
  NavigationEntity: { PUT: 'updatable', MERGE: 'updatable', PATCH: 'updatable', DELETE: 'deletable' },
  ComplexProperty: { PUT: 'updatable', MERGE: 'updatable', PATCH: 'updatable' },
  PrimitiveProperty: { PUT: 'updatable', MERGE: 'updatable', PATCH: 'updatable' },
  PropertyValue: { PUT: 'updatable', DELETE: 'updatable' },
  MediaResource: { PUT: 'updatable' },
  Links: { POST: 'updatable' },
  Link: { PUT: 'updatable', DELETE: 'updatable' },
};

/** The sets whose capability a write of `path` needs: the addressed one (for `$links`, the source's, and the target's when it holds the link). */
function capabilitySets(path: ResourcePath): readonly EdmEntitySet[] {
  if (!('entitySet' in path)) return [];
  if (path.kind !== 'Links' && path.kind !== 'Link') return [path.entitySet];
  const { navigationProperty } = path;
  const constraint = navigationProperty.relationship.referentialConstraint;
  return constraint?.dependent.role === navigationProperty.toEnd.role ? [path.entitySet, path.targetEntitySet] : [path.entitySet];
}

/**
 * Why `sap:` capabilities refuse `method` on `path`, if they do: a set marked "false" for what the
 * write needs, or, for a write of a property or its `$value`, a top-level property marked
 * `sap:updatable="false"` (an entry's PUT, MERGE or PATCH may still repeat its stored value).
 */
function capabilityRefusal(path: ResourcePath, method: Method): string | undefined {
  const capability = NEEDED[path.kind]?.[method];
  if (capability === undefined) return undefined;
  const entitySet = capabilitySets(path).find((set) => !setCapabilities(set)[capability]);
  if (entitySet !== undefined) return `'${entitySet.name}' is marked sap:${capability}="false"`;
  const first = 'properties' in path ? path.properties[0] : undefined;
  if (first?.kind === 'Property' && !propertyCapabilities(first.property).updatable) return `'${first.property.name}' is marked sap:updatable="false"`;
  return undefined;
}

/** Build the dispatch table of a service: once, from what its provider implements. */
export function buildRoutes(provider: DataProvider, service: ServiceRoutes): Routes {
  const updateEntity = using(provider, 'update', updateEntry);
  const deleteEntity = using(provider, 'delete', deleteEntry);
  const updatePropertyBody = using(provider, 'update', updateProperty);
  const createInCollection = using(provider, 'create', createEntry);
  const writeLinks = using(provider, 'link', writeLink);
  const deleteLinks = using(provider, 'link', deleteLink);
  const routes: Routes = {
    ServiceDocument: route({ GET: readServiceDocument }),
    Metadata: route({ GET: readMetadata }),
    Batch: route({ POST: service.batch }, undefined, 'multiplexer'),
    EntitySet: route({ GET: readFeed, POST: createInCollection }),
    NavigationCollection: route({ GET: readFeed, POST: createInCollection }),
    Entity: route({ GET: readEntry, PUT: updateEntity, MERGE: updateEntity, PATCH: updateEntity, DELETE: deleteEntity }),
    NavigationEntity: route({ GET: readEntry, PUT: updateEntity, MERGE: updateEntity, PATCH: updateEntity, DELETE: deleteEntity }),
    CollectionCount: route({ GET: readCount }),
    // MS-ODATA §2.2.7.3.2/§2.2.7.3.3, §3.2.5.5: MERGE and PATCH on a property update it as PUT does;
    // a complex value merges its members.
    ComplexProperty: route({ GET: readProperty, PUT: updatePropertyBody, MERGE: updatePropertyBody, PATCH: updatePropertyBody }),
    PrimitiveProperty: route({ GET: readProperty, PUT: updatePropertyBody, MERGE: updatePropertyBody, PATCH: updatePropertyBody }),
    PropertyValue: route({
      GET: readPropertyValue,
      PUT: using(provider, 'update', updatePropertyValue),
      DELETE: using(provider, 'update', deletePropertyValue),
    }),
    MediaResource: route({ GET: using(provider, 'readMedia', readMediaResource), PUT: using(provider, 'writeMedia', updateMediaResource) }),
    Links: route({ GET: readLinks, POST: writeLinks }),
    Link: route({ GET: readLinks, PUT: writeLinks, DELETE: deleteLinks }, linkAccepts),
    LinksCount: route({ GET: readLinks }),
    ServiceOperation: route(
      { GET: invokeOperation, POST: invokeOperation, PUT: invokeOperation, MERGE: invokeOperation, DELETE: invokeOperation },
      operationAccepts,
      'any',
    ),
  };
  return Object.freeze(routes);
}

function takes<K extends ResourceKind>(row: Route<K>, path: ResourcePathOf<K>, method: Method): boolean {
  return row.handlers[method] !== undefined && (row.accepts === undefined || row.accepts(path, method)) && capabilityRefusal(path, method) === undefined;
}

function allowedBy<K extends ResourceKind>(row: Route<K>, path: ResourcePathOf<K>): Method[] {
  return METHODS.filter((method) => takes(row, path, method));
}

function handlerOf<K extends ResourceKind>(routes: Routes, kind: K, path: ResourcePathOf<K>, method: string): Dispatched<ResourcePathOf<K>> {
  const row: Route<K> = routes[kind];
  const name = method === 'HEAD' ? 'GET' : method;
  const found = isMethod(name) ? row.handlers[name] : undefined;
  if (found !== undefined && isMethod(name) && takes(row, path, name)) return found;
  // RFC 9110 §15.5.6: "The origin server MUST generate an Allow header field in a 405 response
  // containing a list of the target resource's currently supported methods." Empty when it takes none.
  const refusal = found !== undefined && isMethod(name) ? capabilityRefusal(path, name) : undefined;
  const described = QUERY_OPTION_TARGET_DESCRIPTIONS[queryOptionTarget(path)];
  const resource = refusal === undefined ? described : `${described}; ${refusal}`;
  throw ODataError.fromCode('METHOD_NOT_ALLOWED', { method, resource }, { headers: { allow: allowedBy(row, path).join(', ') } });
}

/** The methods the addressed resource takes, in `Allow` order (HEAD is implied by GET). */
export function allowedMethods(routes: Routes, path: ResourcePath): Method[] {
  return allowedOf(routes, path.kind, path);
}

function allowedOf<K extends ResourceKind>(routes: Routes, kind: K, path: ResourcePathOf<K>): Method[] {
  return allowedBy(routes[kind], path);
}

/** The handler for a path and method (HEAD is served by GET) and how to run it, or a 405 error with `Allow`. */
export function dispatch(routes: Routes, path: ResourcePath, method: string): Dispatched<ResourcePath> {
  return handlerOf(routes, path.kind, path, method);
}
