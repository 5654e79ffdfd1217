/**
 * The dispatch table, enumerated: every resource kind x every method x the optional provider
 * methods present or missing gives either a handler (run as a read, a write or, for `$batch`, a
 * multiplexer of its own units) or 405 METHOD_NOT_ALLOWED with exactly the
 * `Allow` header the resource deserves (RFC 9110 §15.5.6: "The origin server MUST generate an
 * Allow header field in a 405 response"). The expectations are written out here, independently of
 * lib/handlers/dispatch.ts.
 */
import { allowedMethods, buildRoutes, dispatch } from '../../lib/handlers';
import type { Method, WriteMethodName } from '../../lib/handlers';
import { isODataError } from '../../lib/errors';
import type { DataProvider } from '../../lib/provider/types';
import { parseResourcePath } from '../../lib/uri';
import type { ResourceKind } from '../../lib/uri/types';
import { uriModel } from '../uri/uri-fixtures';

const CAPABILITIES: readonly WriteMethodName[] = ['create', 'update', 'delete', 'link', 'readMedia', 'writeMedia'];
const REQUEST_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'MERGE', 'PATCH', 'DELETE'] as const;

/** What each method of a resource needs: nothing beyond `query` ('always') or one optional provider method. */
type Needs = 'always' | WriteMethodName;

interface Row {
  readonly path: string;
  readonly kind: ResourceKind;
  readonly methods: Partial<Record<Method, Needs>>;
}

const ORDER = "Orders(OrderID=1,Line='a')";

/** Every resource kind of the uri-test model (single and keyed links apart), with the methods it takes. */
const ROWS: Readonly<Record<string, Row>> = {
  'service document': { path: '', kind: 'ServiceDocument', methods: { GET: 'always' } },
  $metadata: { path: '$metadata', kind: 'Metadata', methods: { GET: 'always' } },
  $batch: { path: '$batch', kind: 'Batch', methods: { POST: 'always' } },
  'entity set': { path: 'Orders', kind: 'EntitySet', methods: { GET: 'always', POST: 'create' } },
  'navigation collection': { path: "Customers('a')/Orders", kind: 'NavigationCollection', methods: { GET: 'always', POST: 'create' } },
  $count: { path: 'Orders/$count', kind: 'CollectionCount', methods: { GET: 'always' } },
  entity: { path: ORDER, kind: 'Entity', methods: { GET: 'always', PUT: 'update', MERGE: 'update', PATCH: 'update', DELETE: 'delete' } },
  'navigation entity': {
    path: `${ORDER}/Customer`,
    kind: 'NavigationEntity',
    methods: { GET: 'always', PUT: 'update', MERGE: 'update', PATCH: 'update', DELETE: 'delete' },
  },
  'complex property': { path: `${ORDER}/ShipTo`, kind: 'ComplexProperty', methods: { GET: 'always', PUT: 'update', MERGE: 'update', PATCH: 'update' } },
  'primitive property': { path: "Customers('a')/Name", kind: 'PrimitiveProperty', methods: { GET: 'always', PUT: 'update', MERGE: 'update', PATCH: 'update' } },
  'property $value': { path: "Customers('a')/Name/$value", kind: 'PropertyValue', methods: { GET: 'always', PUT: 'update', DELETE: 'update' } },
  'media resource': { path: 'Photos(1)/$value', kind: 'MediaResource', methods: { GET: 'readMedia', PUT: 'writeMedia' } },
  '$links of a many-valued navigation': { path: "Customers('a')/$links/Orders", kind: 'Links', methods: { GET: 'always', POST: 'link' } },
  '$links of a single-valued navigation': { path: `${ORDER}/$links/Customer`, kind: 'Link', methods: { GET: 'always', PUT: 'link', DELETE: 'link' } },
  'one link of a many-valued navigation': { path: `Customers('a')/$links/${ORDER}`, kind: 'Link', methods: { GET: 'always', DELETE: 'link' } },
  '$links/$count': { path: "Customers('a')/$links/Orders/$count", kind: 'LinksCount', methods: { GET: 'always' } },
  'service operation (m:HttpMethod GET)': { path: 'GetCount', kind: 'ServiceOperation', methods: { GET: 'always' } },
  'service operation (m:HttpMethod POST)': { path: 'Reset', kind: 'ServiceOperation', methods: { POST: 'always' } },
};

/** A provider with `query` and the optional methods named. */
function providerWith(capabilities: readonly WriteMethodName[]): DataProvider {
  const provider: Record<string, unknown> = { query: async () => ({ entities: [] }) };
  for (const name of capabilities) provider[name] = async () => ({});
  return provider as unknown as DataProvider;
}

const PROVIDERS: readonly (readonly [string, readonly WriteMethodName[]])[] = [
  ['every optional method', CAPABILITIES],
  ['query only', []],
  ...CAPABILITIES.map((missing) => [`all but ${missing}`, CAPABILITIES.filter((name) => name !== missing)] as const),
];

const noBatch = async (): Promise<never> => {
  throw new Error('not called');
};

/** What dispatch answers: a handler and how the service runs it, or the 405's Allow header. */
function outcomeOf(capabilities: readonly WriteMethodName[], path: string, method: string): string {
  const routes = buildRoutes(providerWith(capabilities), { batch: noBatch });
  try {
    const { handler, unit } = dispatch(routes, parseResourcePath(path, uriModel), method);
    return typeof handler === 'function' ? `handler (${unit})` : 'not a function';
  } catch (error) {
    if (!isODataError(error)) throw error;
    return `${error.status} ${error.code} Allow: ${error.headers?.allow ?? '(none)'}`;
  }
}

/** The expected answer, from the table above. */
function expectedOf(row: Row, capabilities: readonly WriteMethodName[], method: string): string {
  const allowedNow = (name: Method): boolean => {
    const needs = row.methods[name];
    return needs !== undefined && (needs === 'always' || capabilities.includes(needs));
  };
  const effective = method === 'HEAD' ? 'GET' : (method as Method);
  // GET is a read, every other method a write (one unit of work): of one write method call, except a
  // service operation's, which may call any number; $batch runs units of its own.
  const write = row.kind === 'ServiceOperation' ? 'write' : 'single-write';
  if (allowedNow(effective)) return `handler (${row.kind === 'Batch' ? 'multiplexer' : effective === 'GET' ? 'read' : write})`;
  const allow = (['GET', 'POST', 'PUT', 'MERGE', 'PATCH', 'DELETE'] as const).filter(allowedNow).join(', ');
  return `405 METHOD_NOT_ALLOWED Allow: ${allow}`;
}

describe('dispatch table', () => {
  it('has a row for every resource kind the URI layer produces', () => {
    const kinds = new Set(Object.values(ROWS).map((row) => row.kind));
    expect(kinds.size).toBe(16);
    for (const row of Object.values(ROWS)) expect(parseResourcePath(row.path, uriModel).kind).toBe(row.kind);
  });

  describe.each(PROVIDERS)('with a provider implementing %s', (_label, capabilities) => {
    it.each(Object.entries(ROWS))('%s: every method is a handler or 405 with the exact Allow', (_name, row) => {
      const actual = Object.fromEntries(REQUEST_METHODS.map((method) => [method, outcomeOf(capabilities, row.path, method)]));
      const expected = Object.fromEntries(REQUEST_METHODS.map((method) => [method, expectedOf(row, capabilities, method)]));
      expect(actual).toEqual(expected);
    });
  });

  it('lists the methods of the addressed resource in Allow order, HEAD implied by GET', () => {
    const routes = buildRoutes(providerWith(CAPABILITIES), { batch: noBatch });
    expect(allowedMethods(routes, parseResourcePath(ORDER, uriModel))).toEqual(['GET', 'PUT', 'MERGE', 'PATCH', 'DELETE']);
    expect(allowedMethods(routes, parseResourcePath(`Customers('a')/$links/${ORDER}`, uriModel))).toEqual(['GET', 'DELETE']);
    expect(allowedMethods(routes, parseResourcePath('Reset', uriModel))).toEqual(['POST']);
  });

  it('names the resource in the 405 message', () => {
    const routes = buildRoutes(providerWith([]), { batch: noBatch });
    expect(() => dispatch(routes, parseResourcePath('Orders', uriModel), 'POST')).toThrow('The method POST is not allowed on this resource (an entity set).');
    expect(() => dispatch(routes, parseResourcePath('Reset', uriModel), 'GET')).toThrow(
      'The method GET is not allowed on this resource (a service operation returning nothing).',
    );
  });
});
