import type { IncomingMessage } from 'http';
import type { EdmEntitySet } from '../../../lib/edm/model';
import type { RequestContext } from '../../../lib/protocol/message';
import { applyQuery } from '../../../lib/evaluate/evaluate';
import type { NavigationAccess } from '../../../lib/evaluate/evaluate';
import type { Entity, QueryRequest } from '../../../lib/provider/types';
import { MemoryProvider, Store, storeOf } from '../../../lib/providers/memory';
import { loadData } from '../../../lib/providers/memory/load-data';
import type { MemoryData } from '../../../lib/provider/entity-data';
import { ordersByKeyOnly } from '../../../lib/providers/memory/scan';
import { parseOrderByOption, withKeyTieBreaker } from '../../../lib/uri';
import { seededRandom } from '../../helpers/random';
import { DEMO_LINKS, demoData, demoModel, setOf, shopData, shopModel } from './models';
import { requestOf } from './paths';

const CONTEXT: RequestContext = { request: {} as IncomingMessage, state: new Map() };

async function read(provider: MemoryProvider, request: QueryRequest): Promise<{ ids: unknown[]; count: number | undefined }> {
  const result = await provider.query(request, CONTEXT);
  const ids: unknown[] = [];
  if (Array.isArray(result.entities)) for (const entity of result.entities as readonly Entity[]) ids.push(entity.ID);
  else for await (const entity of result.entities as AsyncIterable<Entity>) ids.push(entity.ID);
  return { ids, count: result.count };
}

/** The answer of the shared evaluator over a copy of the whole set: what every fast path must equal. */
function reference(store: Store, entitySet: EdmEntitySet, request: QueryRequest): { ids: unknown[]; count: number | undefined } {
  const navigate: NavigationAccess = (entity, property) => {
    const location = store.locate(entity);
    return location === undefined ? undefined : (store.related(location.entitySet, location.key, property)[0] ?? null);
  };
  const result = applyQuery(store.all(entitySet), request, navigate);
  return { ids: result.entities.map((entity) => entity.ID), count: result.count };
}

/** 300 products with repeated prices and ratings (ties), linked to the demo's categories and suppliers. */
function generatedData(order: 'ascending' | 'shuffled'): MemoryData {
  const random = seededRandom(7);
  const base = demoData();
  const products: Record<string, unknown>[] = [];
  for (let id = 0; id < 300; id++) {
    products.push({
      ID: id,
      Name: `Product ${Math.floor(random() * 40)}`,
      Description: random() < 0.2 ? null : `about ${id}`,
      ReleaseDate: new Date(Date.UTC(2000 + (id % 20), id % 12, 1)).toISOString(),
      DiscontinuedDate: null,
      Rating: Math.floor(random() * 6),
      Price: (Math.floor(random() * 5000) / 100).toFixed(2),
      CategoryID: id % 3,
      SupplierID: id % 2,
    });
  }
  if (order === 'shuffled') {
    for (let i = products.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [products[i], products[j]] = [products[j], products[i]];
    }
  }
  return { ...base, Products: products };
}

const QUERIES = [
  'Products',
  'Products?$top=10',
  'Products?$top=0',
  'Products?$top=0&$inlinecount=allpages',
  'Products?$skip=295',
  'Products?$skip=400&$inlinecount=allpages',
  'Products?$skip=20&$top=15&$inlinecount=allpages',
  'Products?$filter=Price gt 20 and Rating ge 3&$top=50',
  'Products?$filter=Price gt 20 and Rating ge 3&$top=50&$inlinecount=allpages',
  'Products?$filter=Rating eq 5&$skip=3&$top=4&$inlinecount=allpages',
  'Products?$filter=Description eq null&$inlinecount=allpages',
  "Products?$filter=Category/Name eq 'Beverages'&$top=7&$inlinecount=allpages",
  'Products?$filter=Price gt 1000&$inlinecount=allpages',
  'Products?$skiptoken=41&$top=5',
  'Products?$skiptoken=41&$top=5&$filter=Rating ge 2&$inlinecount=allpages',
  'Products?$skiptoken=299',
  'Products?$orderby=Name&$top=20',
  'Products?$orderby=Price desc,Name&$skip=5&$top=20&$filter=Rating le 3&$inlinecount=allpages',
  'Products?$orderby=ID desc&$top=3',
  'Products?$orderby=ID&$top=3',
];

describe('ordersByKeyOnly', () => {
  const model = demoModel();
  const products = setOf(model, 'Products');
  const orderBy = (text: string) => withKeyTieBreaker(text === '' ? [] : parseOrderByOption(text, products.entityType, model), products.entityType);

  it.each<[string, boolean]>([
    ['', true],
    ['ID', false], // the same order, but the client's item: the general path answers it
    ['ID desc', false],
    ['Name', false],
  ])("the order of $orderby='%s' is the key tie-breaker alone: %p", (text, expected) => {
    expect(ordersByKeyOnly(orderBy(text), products.entityType)).toBe(expected);
  });
});

describe('the store: inKeyOrder', () => {
  it('is true for data loaded in key order and false when an insert lands before the last key', () => {
    const model = shopModel();
    const store = new Store(model);
    loadData(store, shopData());
    const employees = setOf(model, 'Employees');
    expect(store.inKeyOrder(employees)).toBe(true);
    store.insert(employees, { ID: 0 });
    expect(store.inKeyOrder(employees)).toBe(false);
    store.delete(employees, { ID: 0 });
    expect(store.inKeyOrder(employees)).toBe(true);
    store.insert(employees, { ID: 9 });
    expect(store.inKeyOrder(employees)).toBe(true);
  });

  it('compares keys in their lanes: Int64 as numbers (9007199254740993 after 2), Guids and composite keys by part', () => {
    const model = shopModel();
    const store = new Store(model);
    loadData(store, shopData());
    expect(store.inKeyOrder(setOf(model, 'Customers'))).toBe(false);
    expect(store.inKeyOrder(setOf(model, 'Orders'))).toBe(true);
    expect(store.inKeyOrder(setOf(model, 'Lines'))).toBe(true);
  });

  it('is true again after a rolled-back out-of-order insert, and after a rolled-back delete', () => {
    const model = shopModel();
    const store = new Store(model);
    loadData(store, shopData());
    const employees = setOf(model, 'Employees');
    expect(() =>
      store.transaction(() => {
        store.insert(employees, { ID: 0 });
        expect(store.inKeyOrder(employees)).toBe(false);
        throw new Error('undo');
      }),
    ).toThrow('undo');
    expect(store.inKeyOrder(employees)).toBe(true);
    expect(() =>
      store.transaction(() => {
        store.delete(employees, { ID: 4 });
        throw new Error('undo');
      }),
    ).toThrow('undo');
    expect(store.inKeyOrder(employees)).toBe(true);
    expect(store.all(employees).map((e) => e.ID)).toEqual([1, 2, 3, 4]);
  });
});

describe('MemoryProvider pages equal the shared evaluator over the whole set', () => {
  const model = demoModel();
  const ascending = new MemoryProvider(model, generatedData('ascending'), { links: DEMO_LINKS });
  const shuffled = new MemoryProvider(model, generatedData('shuffled'), { links: DEMO_LINKS });
  const products = setOf(model, 'Products');

  it('the generated sets are stored in key order and out of it', () => {
    expect(storeOf(ascending).inKeyOrder(products)).toBe(true);
    expect(storeOf(shuffled).inKeyOrder(products)).toBe(false);
  });

  it.each(QUERIES)('%s', async (url) => {
    const request = requestOf(model, url);
    const expected = reference(storeOf(ascending), products, request);
    expect(await read(ascending, request)).toEqual(expected);
    expect(await read(shuffled, request)).toEqual(expected);
  });

  it('still answers in key order after out-of-order inserts (the general path)', async () => {
    const provider = new MemoryProvider(model, generatedData('ascending'), { links: DEMO_LINKS });
    for (const id of [1000, 500, 750]) {
      provider.store.insert(products, { ID: id, Name: `late ${id}`, ReleaseDate: new Date(0), Rating: 4, Price: '30' }, [
        { property: products.entityType.navigationProperties[0], key: { ID: 0 } },
        { property: products.entityType.navigationProperties[1], key: { ID: 0 } },
      ]);
    }
    expect(storeOf(provider).inKeyOrder(products)).toBe(false);
    const request = requestOf(model, 'Products?$skip=298&$inlinecount=allpages');
    expect(await read(provider, request)).toEqual({ ids: [298, 299, 500, 750, 1000], count: 303 });
  });
});

describe('MemoryProvider streaming of large pages', () => {
  const model = demoModel();
  const products = setOf(model, 'Products');

  it('returns a page above `streamAbove` as an async iterable of copies, and smaller pages as arrays', async () => {
    const provider = new MemoryProvider(model, generatedData('ascending'), { links: DEMO_LINKS, streamAbove: 100 });
    const big = await provider.query(requestOf(model, 'Products?$top=101&$expand=Category'), CONTEXT);
    expect(Array.isArray(big.entities)).toBe(false);
    const small = await provider.query(requestOf(model, 'Products?$top=100'), CONTEXT);
    expect(Array.isArray(small.entities)).toBe(true);
    const copies: Entity[] = [];
    for await (const entity of big.entities as AsyncIterable<Entity>) copies.push(entity);
    expect(copies.map((entity) => entity.ID)).toEqual(Array.from({ length: 101 }, (_, i) => i));
    expect(copies[4]).toMatchObject({ ID: 4, Category: { ID: 1 } });
    expect(Object.isFrozen(copies[4])).toBe(false);
    expect(copies[4]).not.toBe(provider.store.get(products, { ID: 4 }));
  });

  it('streams every page of the default provider above 1,000 entities, and none up to it', async () => {
    const data = generatedData('ascending');
    const many = Array.from({ length: 1001 }, (_, id) => ({ ...(data.Products as Record<string, unknown>[])[id % 300], ID: id }));
    const provider = new MemoryProvider(model, { ...data, Products: many }, { links: DEMO_LINKS });
    expect(Array.isArray((await provider.query(requestOf(model, 'Products'), CONTEXT)).entities)).toBe(false);
    expect(Array.isArray((await provider.query(requestOf(model, 'Products?$top=1000'), CONTEXT)).entities)).toBe(true);
  });

  it.each<[unknown]>([[-1], [Number.NaN], ['10']])('refuses streamAbove %p with a TypeError', (value) => {
    expect(() => new MemoryProvider(model, {}, { streamAbove: value as number })).toThrow(
      `MemoryProvider option 'streamAbove' must be a number >= 0, got ${String(value)}`,
    );
  });
});
