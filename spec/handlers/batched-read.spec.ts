/**
 * No N+1 in the service: provider reads counted by a MemoryProvider that records every query. A
 * service operation's feed with a two-level `$expand` (and with `$filter`/`$orderby` over
 * navigation) costs a fixed number of reads, the same for 3 entities as for 50; chunks of 100 keys
 * beyond that, never more than `maxConcurrentReads` at once. The entries are the ones a read of
 * each entity by key writes (the unbatched path), byte for byte. Server paging over a navigated
 * `$orderby` reads the page alone: the provider says where its last entity stands (positionOf).
 */
import express from 'express';
import { odata } from '../../lib';
import type { ODataServiceOptions, ServiceLogEvent } from '../../lib';
import { MemoryProvider } from '../../lib/providers/memory';
import type { QueryRequest, QueryResult } from '../../lib/provider/types';
import type { RequestContext } from '../../lib/protocol/message';
import { DEMO_LINKS, DEMO_MODEL, FIXED_NOW } from '../helpers/demo';
import { KEYS_PER_READ } from '../../lib/handlers/batched-read';
import { startServer, type RunningServer } from '../helpers/server';
import { largerDemoData } from '../sql/provider/demo-data';

/** A MemoryProvider that records its queries and how many ran at once (each waits a tick, so overlaps show). */
class CountingProvider extends MemoryProvider {
  queries: QueryRequest[] = [];
  running = 0;
  mostRunning = 0;

  override async query(request: QueryRequest, context: RequestContext): Promise<QueryResult> {
    this.queries.push(request);
    this.running++;
    this.mostRunning = Math.max(this.mostRunning, this.running);
    try {
      await new Promise((resolve) => setTimeout(resolve, 2));
      return await super.query(request, context);
    } finally {
      this.running--;
    }
  }

  reset(): void {
    this.queries = [];
    this.mostRunning = 0;
  }
}

/** A MemoryProvider that says nothing about positions, as a provider written before them. */
class PositionlessProvider extends MemoryProvider {
  override async query(request: QueryRequest, context: RequestContext): Promise<QueryResult> {
    const { positionOf: _dropped, ...rest } = await super.query(request, context);
    return rest;
  }
}

const DATA = largerDemoData();
const PRODUCTS = DEMO_MODEL.entitySets.get('Products');
const PRODUCT_COUNT = DATA.Products.length;

function serve(service: Partial<ODataServiceOptions> = {}): Promise<{ server: RunningServer; provider: CountingProvider }> {
  if (PRODUCTS === undefined) throw new Error('the demo model has Products');
  const products = PRODUCTS;
  const provider: CountingProvider = new CountingProvider(DEMO_MODEL, DATA, {
    links: DEMO_LINKS,
    operations: {
      // Here GetProductsByRating answers the first `rating` products in key order (N entities on
      // demand); a negative rating answers a product the store does not hold, then product 0.
      GetProductsByRating: async ({ parameters }) => {
        const stored = provider.store.all(products);
        const rating = Number(parameters.rating);
        return rating < 0 ? [{ ...stored[0], ID: 100_000, Name: 'transient' }, stored[0]] : stored.slice(0, rating);
      },
    },
  });
  const app = express();
  app.use('/odata', odata({ model: DEMO_MODEL, provider, now: () => FIXED_NOW, ...service }));
  return startServer(app).then((server) => ({ server, provider }));
}

interface JsonFeed {
  readonly d: { readonly results: readonly { readonly ID: number }[]; readonly __count?: string; readonly __next?: string };
}

async function getText(server: RunningServer, path: string): Promise<string> {
  const response = await fetch(`${server.url}/odata/${path}`);
  const text = await response.text();
  expect({ path, status: response.status }).toEqual({ path, status: 200 });
  return text;
}

async function getFeed(server: RunningServer, path: string): Promise<JsonFeed> {
  return JSON.parse(await getText(server, `${path}&$format=json`)) as JsonFeed;
}

let service: { server: RunningServer; provider: CountingProvider };
beforeAll(async () => {
  service = await serve({ limits: { maxConcurrentReads: 2 } });
});
afterAll(() => service.server.close());

/** The provider reads one GET costs, and its JSON feed. */
async function readsOf(path: string): Promise<{ reads: number; feed: JsonFeed }> {
  service.provider.reset();
  const feed = await getFeed(service.server, path);
  return { reads: service.provider.queries.length, feed };
}

const EXPAND = '$expand=Category/Products,Supplier';

describe('a service operation feed with a two-level $expand', () => {
  it.each([3, 50])('of %i entities is one provider read, with the entries a read by key writes', async (n) => {
    service.provider.reset();
    const text = await getText(service.server, `GetProductsByRating?rating=${n}&${EXPAND}&$format=json`);
    expect(service.provider.queries).toHaveLength(1);
    // The unbatched path: each entity read by key with the same $expand, as the service did before.
    const singles: string[] = [];
    for (let id = 0; id < n; id++) singles.push(await getText(service.server, `Products(${id})?${EXPAND}&$format=json`));
    expect(text).toBe(`{"d":{"results":[${singles.map((single) => single.slice('{"d":'.length, -1)).join(',')}]}}`);
  });

  it('reads the keys of one chunk with one balanced condition and the request $select/$expand', async () => {
    await readsOf(`GetProductsByRating?rating=5&${EXPAND}&$select=Name,Category/Name,Supplier&custom=x`);
    const [request] = service.provider.queries;
    expect(request).toMatchObject({
      single: false,
      path: { root: { key: undefined }, navigation: [] },
      top: undefined,
      count: false,
      customOptions: { custom: 'x' },
    });
    expect(request.selectExpand.expand.map((item) => item.property.name)).toEqual(['Category', 'Supplier']);
    expect(request.filter).toMatchObject({ kind: 'Binary', operator: 'or', left: { operator: 'or' }, right: { operator: 'or' } });
  });

  it('of all products reads 100 keys per query, at most maxConcurrentReads (2) at once', async () => {
    const { reads, feed } = await readsOf(`GetProductsByRating?rating=${PRODUCT_COUNT}&${EXPAND}`);
    expect(reads).toBe(Math.ceil(PRODUCT_COUNT / KEYS_PER_READ));
    expect(service.provider.mostRunning).toBe(2);
    expect(feed.d.results).toHaveLength(PRODUCT_COUNT);
    expect(feed.d.results.every((entry) => 'Supplier' in entry && 'Category' in entry)).toBe(true);
  });

  it('writes an entity the provider does not find as the operation returned it', async () => {
    const { reads, feed } = await readsOf('GetProductsByRating?rating=-1&$expand=Category');
    expect(reads).toBe(1);
    // In key order, as every operation feed is ordered.
    const [stored, transient] = feed.d.results as unknown as readonly Record<string, unknown>[];
    expect(transient).toMatchObject({ ID: 100_000, Name: 'transient' });
    expect(transient).not.toHaveProperty('Category.Name');
    expect(stored).toMatchObject({ ID: 0, Category: { ID: 0, Name: 'Food' } });
  });
});

describe('$filter and $orderby over navigation on a service operation feed', () => {
  const ORDER = '$orderby=Category/Name desc,Supplier/Address/City,ID';

  it.each([3, 50])('of %i entities: one read for the navigation they read, one for $expand, ordered as the entity set', async (n) => {
    const { reads, feed } = await readsOf(`GetProductsByRating?rating=${n}&${ORDER}&${EXPAND}`);
    expect(reads).toBe(2);
    const set = await getFeed(service.server, `Products?$filter=ID lt ${n}&${ORDER}&${EXPAND}`);
    expect(JSON.stringify(feed.d.results)).toBe(JSON.stringify(set.d.results));
  });

  it.each([3, 50])('of %i entities: $filter and $inlinecount see the related entities (one read without $expand)', async (n) => {
    const filter = "$filter=Category/Name eq 'Beverages' or Supplier/Address/City eq 'Redmond'";
    const { reads, feed } = await readsOf(`GetProductsByRating?rating=${n}&${filter}&$inlinecount=allpages&$top=2`);
    expect(reads).toBe(1);
    const set = await getFeed(service.server, `Products?$filter=ID lt ${n} and (${filter.slice('$filter='.length)})&$inlinecount=allpages&$top=2`);
    expect(feed.d.__count).toBe(set.d.__count);
    expect(Number(set.d.__count)).toBeGreaterThan(0);
    expect(feed.d.results.map(({ ID }) => ID)).toEqual(set.d.results.map(({ ID }) => ID));
  });

  it('$count of an operation applies a navigated $filter', async () => {
    const counted = await getText(service.server, "GetProductsByRating/$count?rating=50&$filter=Category/Name eq 'Food'");
    expect(counted).toBe(await getText(service.server, "Products/$count?$filter=ID lt 50 and Category/Name eq 'Food'"));
    expect(Number(counted)).toBeGreaterThan(0);
  });
});

describe('server paging over a navigated $orderby', () => {
  it.each([3, 50])('with pages of %i: the page alone, its last entity positioned by the provider', async (pageSize) => {
    const paged = await serve({ maxPageSize: pageSize });
    try {
      paged.provider.reset();
      const feed = await getFeed(paged.server, 'Products?$orderby=Category/Name desc,ID');
      expect(feed.d.results).toHaveLength(pageSize);
      expect(paged.provider.queries).toHaveLength(1);
      // The token holds the last entity's Category/Name, which the page does not show.
      const whole = await getFeed(service.server, `Products?$orderby=Category/Name desc,ID&$expand=Category&$top=${pageSize}`);
      const last = whole.d.results[pageSize - 1] as { readonly ID: number; readonly Category: { readonly Name: string } };
      expect(last.ID).toBe(feed.d.results[pageSize - 1].ID);
      expect(decodeURIComponent(feed.d.__next ?? '')).toContain(`$skiptoken='${last.Category.Name.replace(/'/g, "''")}',${last.ID}`);
      // With Category expanded: the same next link.
      paged.provider.reset();
      const expanded = await getFeed(paged.server, 'Products?$orderby=Category/Name desc,ID&$expand=Category');
      expect(paged.provider.queries).toHaveLength(1);
      expect(expanded.d.__next).toBe(feed.d.__next?.replace('$format=json', '$expand=Category&$format=json'));
    } finally {
      await paged.server.close();
    }
  });

  it('without positions from the provider: the next link from the entity itself, and a 500 naming positionOf when the order navigates', async () => {
    const events: ServiceLogEvent[] = [];
    const provider = new PositionlessProvider(DEMO_MODEL, DATA, { links: DEMO_LINKS });
    const app = express();
    app.use('/odata', odata({ model: DEMO_MODEL, provider, now: () => FIXED_NOW, maxPageSize: 3, logger: (event) => events.push(event) }));
    const server = await startServer(app);
    const paged = await serve({ maxPageSize: 3 });
    try {
      // The entity holds what the order reads: the same next link as a provider's position gives.
      const own = await getFeed(server, 'Products?$orderby=Rating desc,Name');
      expect(own.d.__next).toBe((await getFeed(paged.server, 'Products?$orderby=Rating desc,Name')).d.__next?.replace(paged.server.url, server.url));
      expect(own.d.__next).toMatch(/\$skiptoken=\d+,/);
      // It does not hold Category: a wrong token would start the next page in the wrong place.
      const response = await fetch(`${server.url}/odata/Products?$orderby=Category/Name desc,ID&$format=json`);
      expect(response.status).toBe(500);
      expect(events.map((event) => event.message)).toEqual([
        "The provider gave no position (QueryResult.positionOf) for the last entity of a page of Products, and the entity does not hold 'Category', which $orderby reads.",
      ]);
    } finally {
      await server.close();
      await paged.server.close();
    }
  });
});
