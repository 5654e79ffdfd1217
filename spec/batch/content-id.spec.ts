import { checkContentId, headerValue, referencedPath, resolveReferences } from '../../lib/batch/content-id';
import type { ODataRequest } from '../../lib/protocol/message';
import { SERVICE_ROOT, catchODataError, context } from './helpers';

function request(path: string): ODataRequest {
  return { method: 'POST', path, query: '', headers: {}, body: undefined, serviceRoot: SERVICE_ROOT, context: context() };
}

describe('checkContentId', () => {
  it.each(['1', 'id-1700000000000-12', '2cbf3f2b-0b1e-4a6a-9d3e-0c1e5c1d8a10', '0.0', 'a:b', '<1@example>', 'x'.repeat(200)])('accepts %j', (id) => {
    expect(checkContentId(id, 'part 1')).toBe(id);
  });

  it.each([
    ['', 'must have 1 to 200 characters'],
    ['x'.repeat(201), 'must have 1 to 200 characters'],
    ['a b', "may contain only visible ASCII characters other than '/', '?' and '#'"],
    ['a/b', 'may contain only visible ASCII'],
    ['a?b', 'may contain only visible ASCII'],
    ['a#b', 'may contain only visible ASCII'],
    ['é', 'may contain only visible ASCII'],
  ])('refuses %j with BATCH_CONTENT_ID', (id, detail) => {
    const error = catchODataError(() => checkContentId(id, 'part 1, operation 2'));
    expect([error.status, error.code, error.target]).toEqual([400, 'BATCH_CONTENT_ID', 'Content-ID']);
    expect(error.message).toContain(`part 1, operation 2: the Content-ID '`);
    expect(error.message).toContain(detail);
  });
});

describe('resolveReferences (MS-ODATA §2.2.7.6.1.1)', () => {
  const ids = new Map([
    ['1', 'Categories(3)'],
    ['10', 'Products(7)'],
    ['2cbf3f2b-0b1e-4a6a-9d3e-0c1e5c1d8a10', "A_CommonEntity(KeyPropertyGuid=guidId,KeyPropertyString='strId')"],
  ]);

  it.each([
    ['$1', 'Categories(3)'],
    ['$1/Products', 'Categories(3)/Products'],
    ['$1/$links/Products', 'Categories(3)/$links/Products'],
    ['$10/Name/$value', 'Products(7)/Name/$value'],
    ['$2cbf3f2b-0b1e-4a6a-9d3e-0c1e5c1d8a10/to_Children', "A_CommonEntity(KeyPropertyGuid=guidId,KeyPropertyString='strId')/to_Children"],
    ['Products(1)', 'Products(1)'],
    ['$metadata', '$metadata'],
    ['Products/$1', 'Products/$1'],
  ])('%s -> %s', (path, resolved) => {
    const result = resolveReferences(request(path), ids, 'part 1');
    expect(result.path).toBe(resolved);
    expect(result.contentIds && Object.fromEntries(result.contentIds)).toEqual(Object.fromEntries(ids));
  });

  it('hands body readers a snapshot, not the live map', () => {
    const live = new Map([['1', 'Categories(3)']]);
    const result = resolveReferences(request('Products'), live, 'part 1');
    live.set('2', 'Products(9)');
    expect(result.contentIds?.has('2')).toBe(false);
  });

  it.each([['$2'], ['$2/Products'], ['$1x/Products']])('refuses the unknown reference %s with BATCH_CONTENT_ID', (path) => {
    const error = catchODataError(() => resolveReferences(request(path), new Map([['1', 'Categories(3)']]), 'part 4, operation 2'));
    expect([error.status, error.code]).toEqual([400, 'BATCH_CONTENT_ID']);
    expect(error.message).toContain(`part 4, operation 2: '${path.split('/')[0]}' does not name an earlier request of this changeset`);
  });
});

describe('referencedPath', () => {
  it.each([
    [{ location: `${SERVICE_ROOT}Categories(3)` }, 'Categories(3)'],
    [{ Location: `${SERVICE_ROOT}Categories(3)` }, 'Categories(3)'],
    [{ location: 'https://proxy.example.com/odata/Categories(3)' }, 'Categories(3)'],
    [{ location: '/odata/Categories(3)' }, 'Categories(3)'],
    [{ location: `${SERVICE_ROOT}Categories(3)?$format=json` }, 'Categories(3)'],
    [{}, 'Categories(3)/Products'],
    [{ location: 'bad#location' }, 'Categories(3)/Products'],
  ])('%j -> %s', (headers, path) => {
    expect(referencedPath(request('Categories(3)/Products'), headers, '/odata')).toBe(path);
  });
});

describe('headerValue', () => {
  it('finds a header whatever its case', () => {
    expect([headerValue({ Location: 'a' }, 'location'), headerValue({ location: 'b' }, 'location'), headerValue({}, 'location')]).toEqual([
      'a',
      'b',
      undefined,
    ]);
  });
});
