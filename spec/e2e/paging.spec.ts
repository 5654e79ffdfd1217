/**
 * Server-driven paging end to end (issue 3, MS-ODATA §2.2.3.6.1.9): a spec-local app on the demo
 * model with several thousand generated products, walked through its next links (`__next` in
 * JSON, `<link rel="next">` in Atom) from the first page to the last. Every walk must yield each
 * expected entity exactly once and in order, whatever the other options, and any instance built
 * from the same data must be able to answer any page.
 */
import express from 'express';
import request from 'supertest';
import { odata } from '../../lib';
import { DEMO_MODEL, FIXED_NOW, demoProvider } from '../helpers/demo';
import { seededRandom } from '../helpers/random';
import { type RunningServer, startServer } from '../helpers/server';

const model = DEMO_MODEL;

// ------------------------------------------------------------------------------------------------
// Deterministic data

// Duplicate names on purpose (ties for `$orderby=Name`), and characters a `$skiptoken` must carry.
const NAMES = [
  'Bread',
  'Milk',
  'Vint soda',
  'Havina Cola',
  "O'Brien's Ale",
  'Fish & Chips',
  '50% Off',
  'a,b',
  'x=y?z',
  'Crème brûlée',
  'plus+sign',
  'slash/name',
  '#hash',
  "''",
  'Tea (green)',
  'Zebra',
  'apple',
  'Apple',
];
const CITIES = ['Redmond', 'Sammamish', 'Walldorf', 'Tokyo', "Coeur d'Alene", 'Zürich', 'Berlin'];

const PRODUCT_COUNT = 3000;
const CATEGORY_COUNT = 12;
const SUPPLIER_COUNT = 120;

interface Product {
  readonly ID: number;
  readonly Name: string;
  readonly Rating: number;
  readonly cents: number;
  readonly CategoryID: number;
  readonly SupplierID: number;
}

function generate(): { products: Product[]; data: Record<string, Record<string, unknown>[]> } {
  const next = seededRandom(20260102);
  const products: Product[] = [];
  for (let id = 0; id < PRODUCT_COUNT; id++) {
    products.push({
      ID: id,
      Name: NAMES[Math.floor(next() * NAMES.length)],
      Rating: 1 + Math.floor(next() * 5),
      cents: 100 + Math.floor(next() * 200000),
      CategoryID: Math.floor(next() * CATEGORY_COUNT),
      SupplierID: Math.floor(next() * SUPPLIER_COUNT),
    });
  }
  // Stored in a shuffled order: key order must come from sorting, not from insertion.
  const stored = [...products];
  for (let i = stored.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [stored[i], stored[j]] = [stored[j], stored[i]];
  }
  const day = (n: number) => new Date(Date.UTC(1990 + (n % 30), n % 12, 1 + (n % 28))).toISOString().replace('.000Z', 'Z');
  return {
    products,
    data: {
      Categories: Array.from({ length: CATEGORY_COUNT }, (_, id) => ({ ID: id, Name: `Category ${String.fromCharCode(90 - id)}` })),
      Suppliers: Array.from({ length: SUPPLIER_COUNT }, (_, id) => ({
        ID: id,
        Name: `Supplier ${id}`,
        Address: { Street: `${id} Main St`, City: CITIES[id % CITIES.length], State: 'WA', ZipCode: '98052', Country: 'USA' },
        Concurrency: 0,
      })),
      Products: stored.map((p) => ({
        ID: p.ID,
        Name: p.Name,
        Description: `Product number ${p.ID}`,
        ReleaseDate: day(p.ID),
        DiscontinuedDate: p.ID % 10 === 0 ? day(p.ID + 1) : null,
        Rating: p.Rating,
        Price: `${Math.floor(p.cents / 100)}.${String(p.cents % 100).padStart(2, '0')}`,
        CategoryID: p.CategoryID,
        SupplierID: p.SupplierID,
      })),
    },
  };
}

const { products, data } = generate();
const categoryName = (p: Product) => `Category ${String.fromCharCode(90 - p.CategoryID)}`;
const supplierCity = (p: Product) => CITIES[p.SupplierID % CITIES.length];

/** Ordinal string order, as the evaluator compares strings (UTF-16 code units). */
const ordinal = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byId = (a: Product, b: Product) => a.ID - b.ID;

function expectedIds(filter: (p: Product) => boolean, compare: (a: Product, b: Product) => number = byId): number[] {
  return products
    .filter(filter)
    .sort((a, b) => compare(a, b) || byId(a, b))
    .map((p) => p.ID);
}

const everything = () => true;
const ALL_IDS = expectedIds(everything);

// ------------------------------------------------------------------------------------------------
// Servers and walkers

const PAGE = 97;
const SUPPLIER_PAGE = 13;

function startApp(): Promise<RunningServer> {
  const provider = demoProvider(data);
  const app = express();
  app.use('/odata', odata({ model, provider, maxPageSize: PAGE, pageSizes: { Suppliers: SUPPLIER_PAGE }, now: () => FIXED_NOW }));
  return startServer(app);
}

interface JsonEntity {
  readonly ID: number;
  readonly [name: string]: unknown;
}

interface Page {
  readonly entities: JsonEntity[];
  readonly ids: number[];
  readonly next: string | undefined;
  readonly count: string | undefined;
}

/** Path and query of an absolute link of `server`, exactly as written (no re-encoding). */
function relative(link: string, server: RunningServer): string {
  expect(link.startsWith(`${server.url}/odata/`)).toBe(true);
  return link.slice(server.url.length);
}

/**
 * One JSON page. A page with a next link, and every page asked for with a `$skiptoken` (the last
 * included), must be a 2.0 feed (`d.results`): a client that found `__next` on page 1 reads page n
 * the same way (SAP Cloud SDK reads only `d.results`), and WCF Data Services answered every
 * `$skiptoken` request with 2.0. A feed that is not paged may be either.
 */
async function getJson(server: RunningServer, path: string): Promise<Page> {
  const response = await request(server.url).get(path).set('accept', 'application/json');
  expect(response.status).toBe(200);
  const body = response.body as { d: JsonEntity[] | { results: JsonEntity[]; __next?: string; __count?: string } };
  const d = Array.isArray(body.d) ? { results: body.d } : body.d;
  const paged = d.__next !== undefined || path.includes('$skiptoken=');
  if (paged) {
    expect(response.headers['dataserviceversion']).toBe('2.0;');
    expect(Array.isArray(body.d)).toBe(false);
  }
  return { entities: d.results, ids: d.results.map((e) => e.ID), next: d.__next, count: d.__count };
}

function decodeXmlAttribute(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

async function getAtom(server: RunningServer, path: string, set = 'Products'): Promise<Page> {
  const response = await request(server.url).get(path);
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toBe('application/atom+xml;charset=utf-8');
  const xml = response.text;
  const ids = [...xml.matchAll(new RegExp(`<entry><id>${server.url}/odata/${set}\\((\\d+)\\)</id>`, 'g'))].map((m) => Number(m[1]));
  const next = /<link rel="next" href="([^"]*)"\/>/.exec(xml)?.[1];
  const count = /<m:count>(\d+)<\/m:count>/.exec(xml)?.[1];
  return { entities: [], ids, next: next === undefined ? undefined : decodeXmlAttribute(next), count };
}

interface Walk {
  readonly pages: Page[];
  readonly links: string[];
}

/**
 * Follow next links from `path` until a page has none. `serverFor(i)` picks the instance that
 * answers page i (the first page is always asked of `first`).
 */
async function walk(
  first: RunningServer,
  path: string,
  options: { atom?: boolean; set?: string; serverFor?: (page: number) => RunningServer; maxPages?: number } = {},
): Promise<Walk> {
  const pages: Page[] = [];
  const links: string[] = [];
  let server = first;
  let current: string | undefined = `/odata/${path}`;
  const maxPages = options.maxPages ?? Math.ceil(PRODUCT_COUNT / SUPPLIER_PAGE) + 2;
  while (current !== undefined) {
    if (pages.length > maxPages) throw new Error(`more than ${maxPages} pages: the walk does not end`);
    const page = options.atom ? await getAtom(server, current, options.set) : await getJson(server, current);
    pages.push(page);
    if (page.next === undefined) break;
    links.push(page.next);
    const nextServer = options.serverFor?.(pages.length) ?? server;
    current = relative(page.next, server);
    server = nextServer;
  }
  return { pages, links };
}

/** Every page full except the last, which is not empty unless it is the only one. */
function expectPageSizes(result: Walk, size: number): void {
  const sizes = result.pages.map((page) => page.ids.length);
  const last = sizes[sizes.length - 1];
  expect(sizes.slice(0, -1).every((n) => n === size)).toBe(true);
  expect(last).toBeLessThanOrEqual(size);
  if (sizes.length > 1) expect(last).toBeGreaterThan(0);
}

const allIds = (result: Walk) => result.pages.flatMap((page) => page.ids);

// ------------------------------------------------------------------------------------------------

describe('server-driven paging over several thousand entities', () => {
  let server: RunningServer;
  let other: RunningServer;
  beforeAll(async () => {
    [server, other] = await Promise.all([startApp(), startApp()]);
  });
  afterAll(() => Promise.all([server.close(), other.close()]));

  it('has the data it was given', async () => {
    const count = await request(server.url).get('/odata/Products/$count');
    expect(count.text).toBe(String(PRODUCT_COUNT));
    expect(new Set(ALL_IDS).size).toBe(PRODUCT_COUNT);
  });

  describe.each([
    ['JSON', false],
    ['Atom', true],
  ])('walking the next links in %s', (_format, atom) => {
    it.each([
      ['Products', everything, byId],
      ['Products?$filter=Rating ge 4 and Price lt 1000', (p: Product) => p.Rating >= 4 && p.cents < 100000, byId],
      ["Products?$filter=substringof('a',Name)", (p: Product) => p.Name.includes('a'), byId],
      ['Products?$orderby=Rating desc,Name', everything, (a: Product, b: Product) => b.Rating - a.Rating || ordinal(a.Name, b.Name)],
      ['Products?$orderby=Name desc,Price', everything, (a: Product, b: Product) => ordinal(b.Name, a.Name) || a.cents - b.cents],
      ['Products?$orderby=ID desc', everything, (a: Product, b: Product) => b.ID - a.ID],
      ['Products?$orderby=Category/Name desc', everything, (a: Product, b: Product) => ordinal(categoryName(b), categoryName(a))],
      [
        'Products?$orderby=Supplier/Address/City,Rating desc&$filter=Rating gt 2',
        (p: Product) => p.Rating > 2,
        (a: Product, b: Product) => ordinal(supplierCity(a), supplierCity(b)) || b.Rating - a.Rating,
      ],
      [
        'Products?$orderby=Category/Name,Name&$expand=Category',
        everything,
        (a: Product, b: Product) => ordinal(categoryName(a), categoryName(b)) || ordinal(a.Name, b.Name),
      ],
      ['Products?$expand=Category,Supplier', everything, byId],
      ['Products?$select=ID,Name&$orderby=Name', everything, (a: Product, b: Product) => ordinal(a.Name, b.Name)],
      ['Categories(3)/Products?$orderby=Rating', (p: Product) => p.CategoryID === 3, (a: Product, b: Product) => a.Rating - b.Rating],
    ])('%s yields every entity once, in order', async (path, filter, compare) => {
      const expected = expectedIds(filter, compare);
      const result = await walk(server, path.replace(/ /g, '%20'), { atom });
      expect(result.pages.length).toBe(Math.max(1, Math.ceil(expected.length / PAGE)));
      expectPageSizes(result, PAGE);
      expect(allIds(result)).toEqual(expected);
    });
  });

  it('keeps the other options in absolute next links, drops $skip, lowers $top and adds $skiptoken', async () => {
    const result = await walk(server, 'Products?$filter=Rating%20ge%202&$select=ID,Name&$orderby=Name%20desc&$skip=10&$top=300&$format=json&tenant=acme');
    const expected = expectedIds(
      (p) => p.Rating >= 2,
      (a, b) => ordinal(b.Name, a.Name),
    ).slice(10, 310);
    expect(allIds(result)).toEqual(expected);
    expect(result.pages.map((page) => page.ids.length)).toEqual([97, 97, 97, 9]);
    const prefix = `${server.url}/odata/Products?$filter=Rating%20ge%202&$select=ID,Name&$orderby=Name%20desc&`;
    result.links.forEach((link, i) => {
      expect(link.startsWith(prefix)).toBe(true);
      const rest = link.slice(prefix.length);
      expect(rest.startsWith(`$top=${300 - PAGE * (i + 1)}&$format=json&tenant=acme&$skiptoken=`)).toBe(true);
      expect(rest).not.toContain('$skip=');
    });
    // The token is the last entry's Name (as a quoted literal, percent-encoded) and key.
    const lastOfFirst = result.pages[0].entities[PAGE - 1];
    const token = decodeURIComponent(result.links[0].slice(result.links[0].indexOf('$skiptoken=') + '$skiptoken='.length));
    expect(token).toBe(`'${String(lastOfFirst.Name).replace(/'/g, "''")}',${lastOfFirst.ID}`);
  });

  it('selects on every page', async () => {
    const result = await walk(server, 'Products?$select=ID,Name&$filter=Rating%20eq%205');
    for (const page of result.pages) {
      for (const entity of page.entities) expect(Object.keys(entity)).toEqual(['__metadata', 'ID', 'Name']);
    }
    expect(allIds(result)).toEqual(expectedIds((p) => p.Rating === 5));
  });

  it('expands on every page', async () => {
    const result = await walk(server, 'Products?$expand=Category&$orderby=Price%20desc');
    const byKey = new Map(products.map((p) => [p.ID, p]));
    for (const page of result.pages) {
      for (const entity of page.entities) {
        expect((entity.Category as JsonEntity).ID).toBe(byKey.get(entity.ID)?.CategoryID);
      }
    }
    expect(allIds(result)).toEqual(expectedIds(everything, (a, b) => b.cents - a.cents));
  });

  it('counts every page with $inlinecount=allpages', async () => {
    const expected = expectedIds((p) => p.Rating <= 2);
    const result = await walk(server, 'Products?$inlinecount=allpages&$filter=Rating%20le%202');
    expect(result.pages.map((page) => page.count)).toEqual(result.pages.map(() => String(expected.length)));
    expect(allIds(result)).toEqual(expected);
  });

  it.each([
    [50, [50]],
    [PAGE, [PAGE]],
    [PAGE + 1, [PAGE, 1]],
    [500, [97, 97, 97, 97, 97, 15]],
  ])('$top=%i gives pages of %p and exactly that many entities', async (top, sizes) => {
    const result = await walk(server, `Products?$top=${top}&$orderby=Rating,Name`);
    expect(result.pages.map((page) => page.ids.length)).toEqual(sizes);
    expect(allIds(result)).toEqual(expectedIds(everything, (a, b) => a.Rating - b.Rating || ordinal(a.Name, b.Name)).slice(0, top));
    expect(result.links.map((link) => /\$top=(\d+)/.exec(link)?.[1])).toEqual(sizes.slice(1).map((_, i) => String(top - PAGE * (i + 1))));
  });

  it('pages a set by its pageSizes entry instead of maxPageSize', async () => {
    const result = await walk(server, 'Suppliers?$orderby=Address/City%20desc', { set: 'Suppliers' });
    expect(result.pages.length).toBe(Math.ceil(SUPPLIER_COUNT / SUPPLIER_PAGE));
    expectPageSizes(result, SUPPLIER_PAGE);
    const expected = Array.from({ length: SUPPLIER_COUNT }, (_, id) => id).sort(
      (a, b) => ordinal(CITIES[b % CITIES.length], CITIES[a % CITIES.length]) || a - b,
    );
    expect(allIds(result)).toEqual(expected);
  });

  it('does not page a set smaller than its page size', async () => {
    const page = await getJson(server, '/odata/Categories');
    expect(page.ids).toEqual(Array.from({ length: CATEGORY_COUNT }, (_, id) => id));
    expect(page.next).toBeUndefined();
  });

  it('lets another server instance answer the next link', async () => {
    const path = 'Products?$orderby=Name,Rating%20desc&$filter=Price%20gt%20100';
    const expected = expectedIds(
      (p) => p.cents > 10000,
      (a, b) => ordinal(a.Name, b.Name) || b.Rating - a.Rating,
    );
    // Page 1 from A, page 2 from B, page 3 from A...
    const mixed = await walk(server, path, { serverFor: (page) => (page % 2 === 1 ? other : server) });
    expect(allIds(mixed)).toEqual(expected);
    // ...and the same walk on one instance sees the same pages and the same tokens.
    const single = await walk(server, path);
    const tokenOf = (link: string) => link.slice(link.indexOf('$skiptoken='));
    expect(mixed.links.map(tokenOf)).toEqual(single.links.map(tokenOf));
    expect(mixed.pages.map((page) => page.ids)).toEqual(single.pages.map((page) => page.ids));
  });

  it('starts a walk anywhere: page 2 of A asked of B directly', async () => {
    const first = await getJson(server, '/odata/Products?$orderby=Rating%20desc,Name');
    expect(first.next).toBeDefined();
    const second = await getJson(other, relative(first.next ?? '', server));
    const expected = expectedIds(everything, (a, b) => b.Rating - a.Rating || ordinal(a.Name, b.Name));
    expect([...first.ids, ...second.ids]).toEqual(expected.slice(0, 2 * PAGE));
  });

  it.each([
    ['Products', "'abc'"],
    ['Products', '1,2'],
    ['Products', 'null'],
    ['Products', '1.5'],
    ['Products', "guid'00000000-0000-0000-0000-000000000000'"],
    ['Products?$orderby=Rating%20desc,Name', "3,'x'"],
    ['Products?$orderby=Rating%20desc,Name', "'x','y',1"],
    ['Products?$orderby=Rating%20desc,Name', "3,'x',null"],
    ['Products?$orderby=Rating%20desc,Name', "3,'x,1"],
    ['Products?$orderby=Name', '%27Milk%27%2C'],
  ])('%s with a tampered $skiptoken=%s is 400 SKIPTOKEN_INVALID', async (path, token) => {
    const response = await request(server.url)
      .get(`/odata/${path}${path.includes('?') ? '&' : '?'}$skiptoken=${token}`)
      .set('accept', 'application/json');
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('SKIPTOKEN_INVALID');
    expect(response.body.error.message.value).toBe(`The $skiptoken '${decodeURIComponent(token)}' is not valid for this request.`);
  });

  it('answers a well-formed token past the end with an empty last page', async () => {
    const page = await getJson(server, `/odata/Products?$skiptoken=${PRODUCT_COUNT + 5}`);
    expect(page.ids).toEqual([]);
    expect(page.next).toBeUndefined();
  });
});
