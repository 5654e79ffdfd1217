/**
 * How much of a set MemoryProvider reads per request, counted (not timed): the Products Map of the
 * store is instrumented so that every record read (a `get`, a step of any iterator, a `forEach`
 * callback) is counted. A count without a filter reads no record, a page read in key order reads
 * the page, and a `$skiptoken` position in key order costs a binary search, whatever the set's size.
 */
import type { IncomingMessage } from 'http';
import type { RequestContext } from '../../../lib/protocol/message';
import { applyQuery } from '../../../lib/evaluate/evaluate';
import type { Entity, QueryRequest } from '../../../lib/provider/types';
import { MemoryProvider, storeOf } from '../../../lib/providers/memory';
import type { MemoryData } from '../../../lib/provider/entity-data';
import { DEMO_LINKS, demoData, demoModel, setOf } from './models';
import { pathOf, requestOf } from './paths';

const CONTEXT: RequestContext = { request: {} as IncomingMessage, state: new Map() };
const SIZE = 20_000;
/** Comparisons a binary search over SIZE keys needs at most: ceil(log2(SIZE + 1)). */
const SEARCH = Math.ceil(Math.log2(SIZE + 1));

/** SIZE Products with ascending keys, linked round-robin to the demo's three categories. */
function manyProducts(): MemoryData {
  const base = demoData();
  const products = Array.from({ length: SIZE }, (_, id) => ({
    ID: id,
    Name: `Product ${id % 97}`,
    ReleaseDate: '2001-01-01T00:00:00Z',
    Rating: id % 6,
    Price: String(id % 50),
    CategoryID: id % 3,
    SupplierID: id % 2,
  }));
  return { ...base, Products: products };
}

/** Counts every read of a Map's entries on that one Map (the store's records of a set). */
function countReads(map: ReadonlyMap<string, unknown>): { reads: number } {
  const counter = { reads: 0 };
  const target = map as Map<string, unknown>;
  const counted = <T>(iterator: IterableIterator<T>): IterableIterator<T> => ({
    next: () => {
      const step = iterator.next();
      if (step.done !== true) counter.reads++;
      return step;
    },
    [Symbol.iterator]() {
      return this;
    },
  });
  const get = target.get.bind(target);
  const values = target.values.bind(target);
  const keys = target.keys.bind(target);
  const entries = target.entries.bind(target);
  const forEach = target.forEach.bind(target);
  Object.defineProperties(target, {
    get: { value: (key: string) => (counter.reads++, get(key)) },
    values: { value: () => counted(values()) },
    keys: { value: () => counted(keys()) },
    entries: { value: () => counted(entries()) },
    [Symbol.iterator]: { value: () => counted(entries()) },
    forEach: {
      value: (fn: (value: unknown, key: string, map: Map<string, unknown>) => void) => forEach((value, key, map) => (counter.reads++, fn(value, key, map))),
    },
  });
  return counter;
}

async function ids(provider: MemoryProvider, request: QueryRequest): Promise<{ ids: unknown[]; count: number | undefined }> {
  const result = await provider.query(request, CONTEXT);
  const found: unknown[] = [];
  if (Array.isArray(result.entities)) for (const entity of result.entities as readonly Entity[]) found.push(entity.ID);
  else for await (const entity of result.entities as AsyncIterable<Entity>) found.push(entity.ID);
  return { ids: found, count: result.count };
}

describe('MemoryProvider at scale: records read per request', () => {
  const model = demoModel();
  const products = setOf(model, 'Products');
  const provider = new MemoryProvider(model, manyProducts(), { links: DEMO_LINKS });
  const store = storeOf(provider);
  const ordered = store.keyOrdered(products);
  if (ordered === undefined) throw new Error('the generated Products should be stored in key order');
  const counter = countReads(ordered.records);

  /** The answer of the shared evaluator over every stored Product: what the fast paths must equal. */
  function reference(request: QueryRequest): { ids: unknown[]; count: number | undefined } {
    const result = applyQuery(store.all(products), request);
    return { ids: result.entities.map((entity) => entity.ID), count: result.count };
  }

  async function measured<T>(work: () => Promise<T>): Promise<{ result: T; reads: number }> {
    counter.reads = 0;
    const result = await work();
    return { result, reads: counter.reads };
  }

  beforeEach(() => {
    counter.reads = 0;
  });

  it('counts the instrumented Map: the whole set read through the store is SIZE reads', () => {
    expect(store.all(products)).toHaveLength(SIZE);
    expect(counter.reads).toBe(SIZE);
  });

  it('Products/$count without a filter is the set size, with no record read', async () => {
    const { result, reads } = await measured(() =>
      provider.count(
        { entitySet: products, entityType: products.entityType, path: pathOf(model, 'Products', undefined), filter: undefined, customOptions: {} },
        CONTEXT,
      ),
    );
    expect(result).toBe(SIZE);
    expect(reads).toBe(0);
  });

  it('Categories(1)/Products/$count without a filter counts the links, with no Product read', async () => {
    const path = pathOf(model, 'Categories', { ID: 1 }, ['Products']);
    const { result, reads } = await measured(() =>
      provider.count({ entitySet: products, entityType: products.entityType, path, filter: undefined, customOptions: {} }, CONTEXT),
    );
    expect(result).toBe(Math.ceil((SIZE - 1) / 3));
    expect(reads).toBe(0);
  });

  it('a filtered count still reads every record (the filter decides)', async () => {
    const request = requestOf(model, 'Products?$filter=Rating eq 5');
    const { result, reads } = await measured(() =>
      provider.count({ entitySet: products, entityType: products.entityType, path: request.path, filter: request.filter, customOptions: {} }, CONTEXT),
    );
    expect(result).toBe(reference(request).ids.length);
    expect(reads).toBe(SIZE);
  });

  it.each<[string, number]>([
    ['Products?$top=10', 10],
    ['Products?$top=10&$inlinecount=allpages', 10],
    ['Products?$top=0&$inlinecount=allpages', 0],
    [`Products?$skiptoken=${SIZE / 2 - 1}&$top=10`, SEARCH + 10],
    [`Products?$skiptoken=${SIZE / 2 - 1}&$top=10&$inlinecount=allpages`, SEARCH + 10],
    [`Products?$skiptoken=${SIZE - 11}`, SEARCH + 10],
    [`Products?$skiptoken=${SIZE * 2}&$inlinecount=allpages`, SEARCH],
    ['Products?$skiptoken=-5&$top=3', SEARCH + 3],
    [`Products?$skiptoken=${SIZE / 2}&$skip=5&$top=10`, SEARCH + 15],
    [`Products?$skiptoken=${SIZE / 2}&$filter=Rating eq 5&$top=10`, SEARCH + 60],
    // $orderby naming the key, ascending, sorts as the key order: the same reads.
    [`Products?$orderby=ID&$skiptoken=${SIZE / 2 - 1},${SIZE / 2 - 1}&$top=10&$inlinecount=allpages`, SEARCH + 10],
    [`Products?$orderby=ID asc&$top=5`, 5],
  ])('%s reads at most %i records, and answers as the evaluator over the whole set', async (url, bound) => {
    const request = requestOf(model, url);
    const { result, reads } = await measured(() => ids(provider, request));
    expect(reads).toBeLessThanOrEqual(bound);
    expect(result).toEqual(reference(request));
  });

  it('$orderby=ID desc is not the key order: the general path answers, reading the set', async () => {
    const request = requestOf(model, 'Products?$orderby=ID desc&$top=3');
    const { result, reads } = await measured(() => ids(provider, request));
    expect(result).toEqual({ ids: [SIZE - 1, SIZE - 2, SIZE - 3], count: undefined });
    expect(reads).toBeGreaterThanOrEqual(SIZE);
  });

  it('a filtered $inlinecount after a $skiptoken reads each record once and counts before paging', async () => {
    const request = requestOf(model, `Products?$skiptoken=${SIZE / 2}&$filter=Rating eq 5&$top=10&$inlinecount=allpages`);
    const { result, reads } = await measured(() => ids(provider, request));
    expect(reads).toBeLessThanOrEqual(SIZE + SEARCH);
    expect(result).toEqual(reference(request));
  });
});

describe('MemoryProvider at scale: the key order is kept through writes, not checked again', () => {
  const model = demoModel();
  const products = setOf(model, 'Products');
  const category = products.entityType.navigationPropertiesByName.get('Category');
  const supplier = products.entityType.navigationPropertiesByName.get('Supplier');
  if (category === undefined || supplier === undefined) throw new Error('the demo model has Product/Category and Product/Supplier');
  const links = [
    { property: category, key: { ID: 0 } },
    { property: supplier, key: { ID: 0 } },
  ];
  const product = (id: number) => ({ ID: id, Name: `late ${id}`, ReleaseDate: new Date(0), Rating: 1, Price: '3' });

  it('after inserts past the last key and deletes, a middle page costs a binary search', async () => {
    const provider = new MemoryProvider(model, manyProducts(), { links: DEMO_LINKS });
    const store = storeOf(provider);
    const ordered = store.keyOrdered(products);
    if (ordered === undefined) throw new Error('expected key order');
    const counter = countReads(ordered.records);
    store.insert(products, product(SIZE + 5), links);
    store.delete(products, { ID: SIZE / 2 });
    store.delete(products, { ID: 0 });
    expect(() =>
      store.transaction(() => {
        store.insert(products, product(SIZE + 9), links);
        throw new Error('undo');
      }),
    ).toThrow('undo');
    counter.reads = 0;
    const result = await ids(provider, requestOf(model, `Products?$skiptoken=${SIZE / 2 - 2}&$top=3&$inlinecount=allpages`));
    expect(result).toEqual({ ids: [SIZE / 2 - 1, SIZE / 2 + 1, SIZE / 2 + 2], count: SIZE - 1 });
    expect(counter.reads).toBeLessThanOrEqual(SEARCH + 3);
    expect((await ids(provider, requestOf(model, `Products?$skiptoken=${SIZE - 2}`))).ids).toEqual([SIZE - 1, SIZE + 5]);
  });

  it('an insert before the last key leaves key order; the general path answers, and a delete of it restores the fast path', async () => {
    const provider = new MemoryProvider(model, manyProducts(), { links: DEMO_LINKS });
    const store = storeOf(provider);
    store.delete(products, { ID: 7 });
    store.insert(products, product(7), links);
    expect(store.keyOrdered(products)).toBeUndefined();
    expect((await ids(provider, requestOf(model, 'Products?$skiptoken=5&$top=3'))).ids).toEqual([6, 7, 8]);
    store.delete(products, { ID: 7 });
    expect(store.keyOrdered(products)?.keys.slice(5, 8)).toEqual(['5', '6', '8']);
    expect((await ids(provider, requestOf(model, 'Products?$skiptoken=5&$top=3'))).ids).toEqual([6, 8, 9]);
  });
});
