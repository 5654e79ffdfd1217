import type { IncomingMessage } from 'http';
import type { EdmModel } from '../../../lib/edm/model';
import type { RequestContext } from '../../../lib/protocol/message';
import type { CountRequest, Entity, QueryRequest } from '../../../lib/provider/types';
import { MemoryProvider, Store } from '../../../lib/providers/memory';
import * as read from '../../../lib/providers/memory/read';
import { parseQueryOptions, parseResourcePath, withKeyTieBreaker } from '../../../lib/uri';
import { DEMO_LINKS, ORDER_A, demoData, demoModel, shopData, shopModel } from './models';
import { describeRejection as errorOf } from '../../helpers/odata-error';

// The provider's projection, counted: a module's exports cannot be spied on in place (they are
// read-only bindings), so every importer gets this counting wrapper of the real function.
jest.mock('../../../lib/providers/memory/read', () => {
  const actual = jest.requireActual<typeof read>('../../../lib/providers/memory/read');
  return { ...actual, projectEntity: jest.fn(actual.projectEntity) };
});

const LIMITS = { maxExpandDepth: 10, maxExpandBreadth: 20, maxFilterLength: 2000, maxFilterDepth: 50, maxSearchTerms: 20 };
const CONTEXT: RequestContext = { request: {} as IncomingMessage, state: new Map() };

/** The QueryRequest the read handler would make for `url` (a path and a query string). */
function requestOf(model: EdmModel, url: string): QueryRequest {
  const [pathText, query = ''] = url.split('?');
  const path = parseResourcePath(pathText, model);
  if (!('path' in path)) throw new Error(`not an entity path: ${url}`);
  const options = parseQueryOptions(query, path, model, LIMITS);
  const single = path.kind === 'Entity' || path.kind === 'NavigationEntity';
  return {
    entitySet: path.entitySet,
    entityType: path.entityType,
    path: path.path,
    single,
    filter: options.filter,
    orderBy: single ? [] : withKeyTieBreaker(options.orderBy, path.entityType),
    skip: options.skip,
    top: options.top,
    skipToken: options.skipToken,
    selectExpand: options.selectExpand,
    count: options.inlineCount === 'allpages',
    customOptions: options.custom,
  };
}

async function entitiesOf(provider: MemoryProvider, request: QueryRequest): Promise<readonly Entity[]> {
  const result = await provider.query(request, CONTEXT);
  if (!Array.isArray(result.entities)) throw new Error('expected an array');
  return result.entities;
}

describe('MemoryProvider on the ODataDemo data', () => {
  const model = demoModel();
  const provider = new MemoryProvider(model, demoData(), { links: DEMO_LINKS });
  const ids = async (url: string): Promise<unknown[]> => (await entitiesOf(provider, requestOf(model, url))).map((e) => e.ID);

  it.each<[string, unknown[]]>([
    // Prices: 0:2.5 1:3.5 2:20.9 3:19.9 4:22.99 5:22.8 6:18.8 7:35.88 8:1088.8
    ['Products?$filter=Price gt 20', [2, 4, 5, 7, 8]],
    ['Products?$filter=Price gt 20&$orderby=Price desc', [8, 7, 4, 5, 2]],
    ["Products?$filter=Category/Name eq 'Beverages'&$orderby=Price desc", [4, 5, 2, 3, 6, 1]],
    ["Products?$filter=Supplier/Address/City eq 'Redmond'", [0, 7, 8]],
    ['Products?$orderby=Supplier/Name,ID&$skip=1&$top=3', [2, 3, 4]],
    ['Products?$filter=DiscontinuedDate ne null', [3]],
    ["Products?$filter=ReleaseDate ge datetime'2006-01-01T00:00:00'", [5, 6, 7, 8]],
    ['Categories(1)/Products?$filter=Price lt 20&$orderby=Name', [3, 1, 6]],
    ['Suppliers(1)/Products', [0, 7, 8]],
    ['Categories(1)/Products(3)/Supplier', [0]],
    ['Products(8)/Category', [2]],
    ['Products(8)?$filter=Price gt 2000', []],
  ])('%s gives IDs %p', async (url, expected) => {
    expect(await ids(url)).toEqual(expected);
  });

  it('counts after filtering, before paging ($inlinecount)', async () => {
    const result = await provider.query(requestOf(model, 'Products?$filter=Rating eq 3&$top=2&$inlinecount=allpages'), CONTEXT);
    expect(result.count).toBe(8);
    expect((result.entities as readonly Entity[]).map((e) => e.ID)).toEqual([1, 2]);
  });

  it('continues after a $skiptoken position', async () => {
    const request = { ...requestOf(model, 'Products?$orderby=Price'), skipToken: { orderByValues: ['20.9'], key: { ID: 2 } } };
    expect((await entitiesOf(provider, request)).map((e) => e.ID)).toEqual([5, 4, 7, 8]);
  });

  it('answers $count through count()', async () => {
    const count = (url: string): Promise<number> => {
      const { entitySet, entityType, path, filter, customOptions } = requestOf(model, url);
      const request: CountRequest = { entitySet, entityType, path, filter, customOptions };
      return provider.count(request, CONTEXT);
    };
    expect(await count('Categories(1)/Products')).toBe(6);
    expect(await count('Categories(1)/Products?$filter=Price lt 10')).toBe(1);
    expect(await count("Products?$filter=Category/Name eq 'Electronics'")).toBe(2);
  });

  it('returns a single entity with model values and no foreign-key fields', async () => {
    expect(await entitiesOf(provider, requestOf(model, 'Products(3)'))).toEqual([
      {
        ID: 3,
        Name: 'Havina Cola',
        Description: 'The Original Key Lime Cola',
        ReleaseDate: new Date(Date.UTC(2005, 9, 1)),
        DiscontinuedDate: new Date(Date.UTC(2006, 9, 1)),
        Rating: 3,
        Price: '19.9',
      },
    ]);
  });

  it('404s for a missing entity along the path', async () => {
    expect(await errorOf(provider.query(requestOf(model, 'Categories(0)/Products(3)/Supplier'), CONTEXT))).toBe(
      "404 ENTITY_NOT_FOUND: No entity with the key (3) exists in 'Products'.",
    );
    expect(await errorOf(provider.query(requestOf(model, 'Categories(7)'), CONTEXT))).toBe(
      "404 ENTITY_NOT_FOUND: No entity with the key (7) exists in 'Categories'.",
    );
  });

  it('expands several levels with $select, keeping every structural property for the writers', async () => {
    const [category] = await entitiesOf(
      provider,
      requestOf(model, 'Categories?$filter=ID eq 2&$expand=Products/Supplier&$select=Name,Products/Name,Products/Supplier/Name'),
    );
    const products = category.Products as Entity[];
    expect(Object.keys(category)).toEqual(['ID', 'Name', 'Products']);
    expect(products.map((product) => Object.keys(product))).toEqual([
      ['ID', 'Name', 'Description', 'ReleaseDate', 'DiscontinuedDate', 'Rating', 'Price', 'Supplier'],
      ['ID', 'Name', 'Description', 'ReleaseDate', 'DiscontinuedDate', 'Rating', 'Price', 'Supplier'],
    ]);
    expect(products.map((product) => [product.ID, product.Name, (product.Supplier as Entity).Name, (product.Supplier as Entity).Concurrency])).toEqual([
      [7, 'DVD Player', 'Tokyo Traders', 0],
      [8, 'LCD HDTV', 'Tokyo Traders', 0],
    ]);
    expect(Object.keys(products[0].Supplier as Entity)).toEqual(['ID', 'Name', 'Address', 'Concurrency']);
  });

  it('hands out copies: changing a result does not change the store', async () => {
    const [product] = await entitiesOf(provider, requestOf(model, 'Products(1)?$expand=Category'));
    product.Name = 'changed';
    (product.ReleaseDate as Date).setTime(0);
    (product.Category as Entity).Name = 'changed';
    const [again] = await entitiesOf(provider, requestOf(model, 'Products(1)?$expand=Category'));
    expect(again.Name).toBe('Milk');
    expect(again.ReleaseDate).toEqual(new Date(Date.UTC(1995, 9, 1)));
    expect((again.Category as Entity).Name).toBe('Beverages');
  });

  it('gives an empty result for a single-valued navigation without a link, and null when expanded', async () => {
    const alone = new MemoryProvider(model, { Products: [{ ID: 1, ReleaseDate: '2000-01-01T00:00:00Z', Rating: 1, Price: 1 }] });
    expect(await entitiesOf(alone, requestOf(model, 'Products(1)/Category'))).toEqual([]);
    expect((await entitiesOf(alone, requestOf(model, 'Products(1)?$expand=Category,Supplier&$select=ID')))[0]).toEqual({
      ID: 1,
      Name: null,
      Description: null,
      ReleaseDate: new Date('2000-01-01T00:00:00Z'),
      DiscontinuedDate: null,
      Rating: 1,
      Price: '1',
      Category: null,
      Supplier: null,
    });
  });

  it('passes operation handlers through', () => {
    const handler = async (): Promise<null> => null;
    expect(new MemoryProvider(model, {}, { operations: { GetProductsByRating: handler } }).operations?.GetProductsByRating).toBe(handler);
  });
});

describe('MemoryProvider keys', () => {
  const model = shopModel();
  const provider = new MemoryProvider(model, shopData());

  it.each<[string, unknown[]]>([
    ['Customers(9007199254740993L)', [{ ID: '9007199254740993', Name: 'Big', Version: 4 }]],
    [
      `Orders(guid'${ORDER_A.toUpperCase()}')/Lines(OrderID=guid'${ORDER_A}',No=1)/Product`,
      [{ Code: 'P1', Picture: new Uint8Array([1, 2, 3]), Released: new Date('2019-05-01T00:00:00Z') }],
    ],
    ["Products('P2')", [{ Code: 'P2', Picture: null, Released: null }]],
    ["Notes?$filter=Text eq 'hello'", [{ ID: 1, Text: 'hello', Color: 'red', Size: 3 }]],
  ])('%s', async (url, expected) => {
    expect(await entitiesOf(provider, requestOf(model, url))).toEqual(expected);
  });
});

describe('MemoryProvider costs', () => {
  const model = demoModel();
  const categories = Array.from({ length: 20 }, (_, i) => ({ ID: i, Name: `C${i}` }));
  const products = Array.from({ length: 1000 }, (_, i) => ({
    ID: i,
    ReleaseDate: '2000-01-01T00:00:00Z',
    Rating: i % 5,
    Price: String(i),
    CategoryID: i % 20,
  }));
  const provider = new MemoryProvider(model, { Categories: categories, Products: products }, { links: { Products: { Category: 'CategoryID' } } });

  afterEach(() => jest.restoreAllMocks());

  it('copies only the page: $top=100 over 1,000 entities projects 100', async () => {
    const project = jest.mocked(read.projectEntity);
    project.mockClear();
    const entities = await entitiesOf(provider, requestOf(model, 'Products?$top=100'));
    expect(entities).toHaveLength(100);
    expect(project).toHaveBeenCalledTimes(100);
  });

  it('looks up a list of keys (a batched follow-up read) instead of testing every entity, with the same answer', async () => {
    const url = (filter: string) => `Products?$filter=${filter}&$orderby=Price desc&$skip=1&$top=3&$inlinecount=allpages`;
    const listed = 'ID eq 7 or ID eq 900 or ID eq 3 or ID eq 5000 or ID eq 7 or ID eq 42';
    const scanned = await provider.query(requestOf(model, url(`${listed} or Rating eq 99`)), CONTEXT);
    const records = jest.spyOn(Store.prototype, 'records');
    const keyOrdered = jest.spyOn(Store.prototype, 'keyOrdered');
    const lookedUp = await provider.query(requestOf(model, url(listed)), CONTEXT);
    expect(records).not.toHaveBeenCalled();
    expect(keyOrdered).not.toHaveBeenCalled();
    expect([lookedUp.count, (lookedUp.entities as Entity[]).map((e) => e.ID)]).toEqual([4, [42, 7, 3]]);
    expect({ ...lookedUp, positionOf: undefined }).toEqual({ ...scanned, positionOf: undefined });
    const [last] = (lookedUp.entities as Entity[]).slice(-1);
    expect(lookedUp.positionOf?.(last)).toEqual(scanned.positionOf?.((scanned.entities as Entity[]).slice(-1)[0]));
  });

  it('expands 50 entries with 50 link lookups', async () => {
    const related = jest.spyOn(Store.prototype, 'related');
    const entities = await entitiesOf(provider, requestOf(model, 'Products?$top=50&$expand=Category'));
    expect(entities.map((e) => (e.Category as Entity).ID)).toEqual(Array.from({ length: 50 }, (_, i) => i % 20));
    expect(related).toHaveBeenCalledTimes(50);
  });
});
