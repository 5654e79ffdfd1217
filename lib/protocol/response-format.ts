/**
 * Which payload a resource path produces and therefore which formats can serve it (MS-ODATA
 * §2.2.5.1 "Content Type"): feeds, entries and the service document are Atom or JSON; properties,
 * links and collections are XML or JSON; `$metadata` is XML only; counts and raw values are text.
 */
import type { ODataRequest } from './message';
import type { QueryOptions, ResourcePath } from '../uri/types';
import { findQueryOption } from '../uri/query-string';
import { negotiateErrorFormat, negotiateFormat } from './negotiate';
import type { ErrorFormat, NegotiatedFormat, PayloadKind } from './negotiate';

/** The payload kind of each path kind; operations decide by their return type. */
function payloadKindOf(path: ResourcePath): PayloadKind {
  switch (path.kind) {
    case 'ServiceDocument':
      return 'serviceDocument';
    case 'Metadata':
      return 'metadata';
    case 'EntitySet':
    case 'NavigationCollection':
      return 'feed';
    case 'Entity':
    case 'NavigationEntity':
      return 'entry';
    case 'ComplexProperty':
    case 'PrimitiveProperty':
      return 'property';
    case 'Links':
    case 'Link':
      return 'links';
    case 'CollectionCount':
    case 'LinksCount':
      return 'count';
    case 'PropertyValue':
    case 'MediaResource':
    case 'Batch':
      return 'raw';
    case 'ServiceOperation': {
      if (path.suffix === 'count') return 'count';
      if (path.suffix === 'value') return 'raw';
      const returnType = path.functionImport.returnType;
      if (returnType === undefined) return 'property';
      if (returnType.kind === 'Entity') return returnType.collection ? 'feed' : 'entry';
      return 'property';
    }
  }
}

/** Negotiate the response format of a request from `$format`, `accept` and `accept-charset`. */
export function negotiateFor(path: ResourcePath, request: ODataRequest, query: QueryOptions): NegotiatedFormat {
  return negotiateFormat({
    kind: payloadKindOf(path),
    accept: request.headers['accept'],
    acceptCharset: request.headers['accept-charset'],
    format: query.format,
  });
}

/** The error body format when negotiation never ran (the request failed before it): from `$format` and Accept, as negotiation reads them. */
export function preferredErrorFormat(request: Pick<ODataRequest, 'query' | 'headers'>): ErrorFormat {
  return negotiateErrorFormat(request.headers['accept'], findQueryOption(request.query, '$format'));
}
