/**
 * Which handler serves which resource kind and method (Olingo's Dispatcher, as data). A method
 * missing from a row is 405 with an `Allow` header listing the row's methods.
 */
import { ODataError } from '../errors';
import type { ResourceKind } from '../uri/types';
import type { Handler } from './context';
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

export type Method = 'GET' | 'POST' | 'PUT' | 'MERGE' | 'PATCH' | 'DELETE';

type Row = Partial<Record<Method, Handler>>;

/** The dispatch table: every request kind the service serves, by method. */
const TABLE: Readonly<Record<ResourceKind, Row>> = {
  ServiceDocument: { GET: readServiceDocument },
  Metadata: { GET: readMetadata },
  Batch: {},
  EntitySet: { GET: readFeed, POST: createEntry },
  NavigationCollection: { GET: readFeed, POST: createEntry },
  Entity: { GET: readEntry, PUT: updateEntry, MERGE: updateEntry, PATCH: updateEntry, DELETE: deleteEntry },
  NavigationEntity: { GET: readEntry, PUT: updateEntry, MERGE: updateEntry, PATCH: updateEntry, DELETE: deleteEntry },
  CollectionCount: { GET: readCount },
  // MS-ODATA §2.2.7.3.2/§2.2.7.3.3, §3.2.5.5: MERGE and PATCH on a property update it as PUT does;
  // a complex value merges its members.
  ComplexProperty: { GET: readProperty, PUT: updateProperty, MERGE: updateProperty, PATCH: updateProperty },
  PrimitiveProperty: { GET: readProperty, PUT: updateProperty, MERGE: updateProperty, PATCH: updateProperty },
  PropertyValue: { GET: readPropertyValue, PUT: updatePropertyValue, DELETE: deletePropertyValue },
  MediaResource: { GET: readMediaResource, PUT: updateMediaResource },
  Links: { GET: readLinks, POST: writeLink },
  Link: { GET: readLinks, PUT: writeLink, DELETE: deleteLink },
  LinksCount: { GET: readLinks },
  // The declared m:HttpMethod is checked by the handler, which answers 405 with the right Allow.
  ServiceOperation: { GET: invokeOperation, POST: invokeOperation, PUT: invokeOperation, MERGE: invokeOperation, DELETE: invokeOperation },
};

/** The methods a resource kind accepts, for `Allow` headers. */
export function allowedMethods(kind: ResourceKind): Method[] {
  return Object.keys(TABLE[kind]) as Method[];
}

/** The handler for a kind and method, or a 405 error. HEAD is served by the GET handler. */
export function dispatch(kind: ResourceKind, method: string): Handler {
  const row = TABLE[kind];
  const handler = row[(method === 'HEAD' ? 'GET' : method) as Method];
  if (handler !== undefined) return handler;
  const allow = allowedMethods(kind);
  throw ODataError.fromCode('METHOD_NOT_ALLOWED', { method, resource: kind }, { headers: { allow: allow.join(', ') } });
}
