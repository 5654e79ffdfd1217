/**
 * The body of the differentials (see demo-differential.spec.ts and catalog-differential.spec.ts),
 * shared by the PGlite runs in `npm test` and the server runs in `npm run test:postgres`.
 */
import type { EdmModel } from '../../../lib/edm/model';
import type { ForeignKeyMap, MemoryData } from '../../../lib/provider/entity-data';
import type { SqlDatabase } from '../../../lib/sql/database';
import { both, comparable, errorShape, get, loadDatabase, servePair, walk, type Answer, type ServicePair } from './support';

/** What a run needs: a database with nothing in it yet, the model and the data. */
export interface DifferentialSetup {
  readonly db: SqlDatabase;
  readonly model: EdmModel;
  readonly data: MemoryData;
  readonly links?: ForeignKeyMap;
}

const FILTERS = [
  'Price gt 20',
  'Price ge 20.9M and Rating lt 4',
  "substringof('a', Name) or Name eq null",
  "startswith(Name, 'A') or endswith(Description, '3')",
  "substringof('%', Name) or substringof('_', Name)",
  'DiscontinuedDate eq null',
  'DiscontinuedDate ne null and Rating ge 2',
  "DiscontinuedDate lt datetime'2010-01-01T00:00:00'",
  "ReleaseDate gt datetime'2000-03-04T00:00:00.123'",
  'year(ReleaseDate) eq 2005 or month(ReleaseDate) eq 2',
  "Category/Name eq 'Food'",
  'Category eq null',
  "Category/Name ne 'Beverages'",
  "Supplier/Address/City eq 'Redmond'",
  'Supplier/Address/City eq null',
  'not (Rating gt 3)',
  "length(Name) gt 5 and tolower(Name) ne 'milk'",
  'Price mul 2 sub 1 gt 40',
  'round(Price) eq 20 or floor(Price) eq 22',
  'Rating mod 2 eq 1',
  "isof('ODataDemo.Product')",
  "indexof(Name, 'a') eq 1 or substring(Name, 1, 2) eq 'il'",
  "concat(Name, 'x') eq 'Milkx'",
  'Description eq Name',
  // One conjunct the evaluator finishes (mod of doubles), reading navigation the request does not expand.
  "Category/Name eq 'Food' or Rating mod 2.5 eq 2",
];

const ORDERS = [
  'Price desc',
  'Name,ID desc',
  'ReleaseDate desc,Name',
  'Category/Name,Price desc',
  'Supplier/Address/City desc,Name',
  'Rating desc,Price',
  'length(Name) desc',
  'DiscontinuedDate',
  'DiscontinuedDate desc',
  'Description desc,Rating',
  // A navigation path beside an item the evaluator sorts by (mod of doubles): the order is the evaluator's.
  'Category/Name,Rating mod 2.5 desc',
  'Rating mod 2.5,Supplier/Address/City desc,Name',
];

/** Read URLs (below the service root) answered identically by both providers. */
const READS = [
  'Products?$format=json',
  ...FILTERS.map((filter) => `Products?$format=json&$filter=${encodeURIComponent(filter)}`),
  ...ORDERS.map((order) => `Products?$format=json&$orderby=${encodeURIComponent(order)}`),
  ...ORDERS.map((order) => `Products?$format=json&$top=5&$skip=3&$orderby=${encodeURIComponent(order)}`),
  'Products?$format=json&$top=5',
  // A type test the mapping answers statically (no discriminator column): a constant, left out of
  // ORDER BY (PostgreSQL refuses `order by true`: 42601, found by the fuzz spec).
  "Products?$format=json&$top=5&$orderby=isof('ODataDemo.Product') desc,Price",
  "Products?$format=json&$top=5&$orderby=isof(Category, 'ODataDemo.Category'),isof(Supplier, 'ODataDemo.Category'),ID desc",
  "Products?$format=json&$top=5&$orderby=not isof('ODataDemo.Product'),Name",
  'Products?$format=json&$skip=240',
  'Products?$format=json&$skip=400',
  'Products?$format=json&$top=0',
  'Products?$format=json&$top=0&$inlinecount=allpages',
  'Products?$format=json&$skiptoken=10',
  'Products?$format=json&$orderby=Price desc&$skiptoken=20.9M,3',
  "Products?$format=json&$orderby=Name&$skiptoken='Milk',1",
  'Products?$format=json&$orderby=DiscontinuedDate desc&$skiptoken=null,30',
  'Products?$format=json&$select=ID,Name',
  'Products?$format=json&$select=Name&$orderby=Price desc',
  'Products?$format=json&$expand=Category&$select=Name,Category/Name',
  'Categories?$format=json&$expand=Products/Supplier',
  'Suppliers?$format=json&$expand=Products/Category&$select=ID,Products/Name,Products/Category/Name',
  'Products(1)?$format=json&$expand=Category/Products',
  'Categories?$format=json&$expand=Products&$top=2&$orderby=Name desc',
  'Products?$format=json&$expand=Supplier&$filter=Supplier eq null',
  'Categories(1)/Products?$format=json',
  'Categories(1)/Products?$format=json&$orderby=Price&$top=2&$inlinecount=allpages',
  'Categories(10)/Products?$format=json',
  'Products(1)/Category?$format=json',
  'Products(1)/Category/Products?$format=json&$filter=Price gt 10',
  'Suppliers(0)/Products(2)/Category?$format=json',
  'Categories(1)/Products(0)?$format=json',
  'Categories(99)/Products?$format=json',
  'Products(99)?$format=json',
  'Products(9)/Category?$format=json',
  'Products(9)/Category/Products?$format=json',
  'Products(1)?$format=json&$filter=Price gt 1000',
  'Products/$count',
  'Products/$count?$filter=Price gt 20',
  'Categories(1)/Products/$count',
  'Categories(99)/Products/$count',
  'Products?$format=json&$inlinecount=allpages&$top=3',
  'Products?$format=json&$inlinecount=allpages&$filter=Rating eq 3&$skip=2',
  'Products?$format=json&$inlinecount=allpages&$skiptoken=5',
  'Products?$format=json&$inlinecount=allpages&$skip=300',
  'Products(1)/Name?$format=json',
  'Products(1)/Name/$value',
  'Suppliers(0)/Address?$format=json',
  'Suppliers(0)/Address/City?$format=json',
  'Categories(1)/$links/Products?$format=json',
  'Products(1)/$links/Category?$format=json',
  'Products?$format=json&$filter=Price div 0 gt 1',
  'Products?$format=json&$filter=Rating div 0 eq 1',
  // Kept for most rows, fails only on rows with Rating 5, which come later: a 400 before anything
  // is sent, also when the feed streams and the first chunks would succeed.
  'Products?$format=json&$filter=Price div (Rating sub 5) lt 0',
];

/** Atom answers compared byte for byte. */
const ATOM_READS = ['Products?$top=3', 'Suppliers', 'Categories(1)?$expand=Products', 'Products?$select=Name,Price&$orderby=Price desc&$top=4'];

/** Feeds walked to the end through their next links under server paging (7 a page). */
const WALKS = [
  'Products?$format=json',
  'Products?$format=json&$orderby=Price desc',
  'Products?$format=json&$orderby=Name',
  'Products?$format=json&$orderby=DiscontinuedDate desc,Name',
  'Products?$format=json&$orderby=Category/Name,Price',
  'Products?$format=json&$orderby=Supplier/Address/City desc',
  'Products?$format=json&$orderby=Rating desc&$filter=Price gt 5',
  'Products?$format=json&$orderby=Description&$inlinecount=allpages',
  'Products?$format=json&$expand=Category&$select=ID,Category/Name&$orderby=ReleaseDate',
  'Products?$format=json&$top=30&$orderby=Price',
  'Categories(1)/Products?$format=json&$orderby=Name desc',
  'Suppliers?$format=json&$expand=Products&$orderby=Address/City',
  // Orders and filters the evaluator finishes, through navigation the request does not expand.
  'Products?$format=json&$orderby=Category/Name,Rating mod 2.5 desc',
  'Products?$format=json&$orderby=Rating mod 2.5,Supplier/Address/City desc&$inlinecount=allpages',
  "Products?$format=json&$orderby=Name&$filter=Category/Name eq 'Beverages' or Rating mod 2.5 eq 2",
  "Products?$format=json&$orderby=Price desc&$filter=Category/Name eq 'Beverages' or Rating mod 2.5 eq 2&$inlinecount=allpages",
  'Products?$format=json&$orderby=Category/Name desc,Name&$filter=Rating mod 2.5 ne 2',
];

/** The lists of a differential: JSON reads, Atom reads, and feeds to walk under server paging. */
export interface DifferentialCases {
  readonly reads: readonly string[];
  readonly atom: readonly string[];
  readonly walks: readonly string[];
}

export const DEMO_CASES: DifferentialCases = { reads: READS, atom: ATOM_READS, walks: WALKS };

function keysOf(pageBody: string): string[] {
  return (JSON.parse(pageBody) as { d: { results: { __metadata: { uri: string } }[] } }).d.results.map((entity) => entity.__metadata.uri);
}

/** The differential over `setup` (the database is loaded once, in beforeAll). */
export function describeDifferential(
  title: string,
  setup: () => Promise<DifferentialSetup>,
  cases: DifferentialCases,
  options: { readonly streamSnapshot?: boolean } = {},
): void {
  let unpaged: ServicePair;
  let paged: ServicePair;
  let chunked: ServicePair;

  beforeAll(async () => {
    const { db, model, data, links } = await setup();
    await loadDatabase(db, model, data, links);
    unpaged = await servePair(model, data, db, { links });
    paged = await servePair(model, data, db, { links, service: { maxPageSize: 7 } });
    // Chunks of 3 rows: every read longer than that streams through keyset chunks.
    chunked = await servePair(model, data, db, { links, sql: { chunkSize: 3, streamSnapshot: options.streamSnapshot } });
  }, 120_000);
  afterAll(async () => {
    await unpaged?.close();
    await paged?.close();
    await chunked?.close();
  });

  describe(`SqlProvider answers reads as MemoryProvider does (${title})`, () => {
    it(`${cases.reads.length} JSON reads`, async () => {
      const differences: unknown[] = [];
      const statuses: Record<string, number> = {};
      for (const path of cases.reads) {
        const { memory, sql } = await both(unpaged, path);
        const outcome = sql.status !== 200 ? String(sql.status) : /"results":\[\]|^0$/.test(sql.body) ? 'empty' : '200';
        statuses[outcome] = (statuses[outcome] ?? 0) + 1;
        if (JSON.stringify(errorShape(memory)) !== JSON.stringify(errorShape(sql)) && !equalData(comparable(memory), comparable(sql)))
          differences.push({ path, memory, sql });
      }
      expect(differences).toEqual([]);
      // Most reads must find something, or the comparison proves little.
      expect(statuses['200']).toBeGreaterThan(cases.reads.length * 0.75);
    }, 120_000);

    it(`the same reads streamed in keyset chunks of 3 rows give the same answers (${options.streamSnapshot === true ? 'one snapshot' : 'a statement per chunk'})`, async () => {
      const differences: unknown[] = [];
      for (const path of cases.reads) {
        const [memory, sql] = await Promise.all([
          get(chunked.memory, path),
          get(chunked.sql, path).catch((error: unknown) => ({ status: 0, contentType: null, body: String(error) })),
        ]);
        if (JSON.stringify(errorShape(memory)) !== JSON.stringify(errorShape(sql)) && !equalData(comparable(memory), comparable(sql)))
          differences.push({ path, memory, sql });
      }
      expect(differences).toEqual([]);
    }, 120_000);

    if (cases.atom.length > 0) {
      it(`${cases.atom.length} Atom reads are the same bytes`, async () => {
        for (const path of cases.atom) {
          const { memory, sql } = await both(unpaged, path);
          expect({ path, ...sql }).toEqual({ path, ...memory });
        }
      });
    }

    it(`${cases.walks.length} feeds walked through their next links: the same pages, every entity once`, async () => {
      for (const path of cases.walks) {
        const [memory, sql] = await Promise.all([walk(paged.memory, path), walk(paged.sql, path)]);
        expect({ path, pages: sql.map((page) => comparable(atMilliseconds(page))) }).toEqual({ path, pages: memory.map(comparable) });
        const seen = sql.flatMap((page) => keysOf(page.body));
        const whole = keysOf((await both(unpaged, path)).memory.body);
        expect({ path, count: seen.length, distinct: new Set(seen).size }).toEqual({ path, count: whole.length, distinct: whole.length });
        expect(sql.length).toBeGreaterThan(whole.length > 7 ? 1 : 0);
      }
    }, 120_000);
  });
}

/**
 * A page with the timestamps of its next link's `$skiptoken` written as MemoryProvider writes
 * them: SqlProvider's positions keep the stored microseconds (`datetime'…00.120000'`, exact), the
 * fixture's values are whole milliseconds (`datetime'…00.12'`), so both are the same position.
 */
function atMilliseconds(page: Answer): Answer {
  return {
    ...page,
    body: page.body.replace(/(datetime(?:offset)?'[0-9T:-]+)\.(\d{3})000(Z?)'/g, (_, head: string, ms: string, zone: string) => {
      const fraction = ms.replace(/0+$/, '');
      return `${head}${fraction === '' ? '' : `.${fraction}`}${zone}'`;
    }),
  };
}

/** The demo differential. */
export function describeDemoDifferential(engine: string, setup: () => Promise<DifferentialSetup>, options: { readonly streamSnapshot?: boolean } = {}): void {
  describeDifferential(`ODataDemo, ${engine}`, setup, DEMO_CASES, options);
}

function equalData(a: unknown, b: unknown): boolean {
  try {
    expect(a).toEqual(b);
    return true;
  } catch {
    return false;
  }
}
