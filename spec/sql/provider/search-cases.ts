/**
 * The reads of the `search` differentials over the Shop (spec/helpers/search-shop.ts): on PGlite
 * (search.spec.ts) and on a PostgreSQL server (search.pg.spec.ts).
 */

/** Reads whose answers SqlProvider must give exactly as MemoryProvider (JSON compared as data; errors by status and code). */
import { both, comparable, errorShape, walk, type ServicePair } from './support';

export const SEARCH_CASES: readonly string[] = [
  'Customers?$format=json&search=mil',
  'Customers?$format=json&search=MILK',
  'Customers?$format=json&search=alfki',
  'Customers?$format=json&search=supplier',
  'Customers?$format=json&search=Milkton',
  'Customers?$format=json&search=dairy+farm',
  'Customers?$format=json&search=%22dairy+farm%22',
  'Customers?$format=json&search=%22farm+dairy%22',
  "Customers?$format=json&search=o'neil+CORK",
  'Customers?$format=json&search=%C3%A4pfel',
  'Customers?$format=json&search=%C3%84PFEL',
  'Customers?$format=json&search=STRA%E1%BA%9EE',
  'Customers?$format=json&search=strasse',
  'Customers?$format=json&search=%CE%BF%CE%B4%CE%BF%CF%82',
  'Customers?$format=json&search=LULE%C3%85',
  'Customers?$format=json&search=100%25',
  'Customers?$format=json&search=%25',
  'Customers?$format=json&search=a_c',
  'Customers?$format=json&search=_',
  'Customers?$format=json&search=k%5Cs',
  'Customers?$format=json&search=%5C',
  'Customers?$format=json&search=',
  'Customers?search=mil',
  'Customers?$format=json&search=dairy+%22farm',
  'Orders?$format=json&search=milk&$filter=Quantity%20gt%202&$orderby=Quantity%20desc&$skip=1&$top=3&$select=ID,Customer/ID&$expand=Customer&$inlinecount=allpages',
  'Orders?$format=json&search=MILK+%23&$orderby=Title&$inlinecount=allpages',
  'Orders?$format=json&search=urgent&$filter=substringof(%27Milk%27,Title)',
  'Orders/$count?search=bread',
  'Orders/$count?search=%22milk+and%22&$filter=Quantity%20lt%205',
  "Customers('ALFKI')/Orders?$format=json&search=milk",
  "Customers('ALFKI')/Orders/$count?search=milk",
  "Customers('NOONE')/Orders?$format=json&search=milk",
  'Secrets?$format=json&search=milk',
  'Secrets?$format=json&search=',
];

/** Feeds walked page by page through their next links (under `maxPageSize: 4`). */
export const SEARCH_WALKS: readonly string[] = [
  'Orders?$format=json&$select=ID&search=milk',
  'Orders?$format=json&$select=ID&search=MILK&$inlinecount=allpages&$orderby=Quantity%20desc,Title',
  "Customers('ALFKI')/Orders?$format=json&$select=ID&search=milk&$inlinecount=allpages",
  'Customers?$format=json&$select=ID&search=a&$top=9',
];

/**
 * The parity cases as tests, for any engine: every case answers on `pairs().pair` as on
 * MemoryProvider, and every walk by next links (on `pairs().paged`, a small page size) gives the
 * same pages, each next link keeping the search.
 */
export function describeSearchParity(title: string, pairs: () => { readonly pair: ServicePair; readonly paged: ServicePair }): void {
  describe(title, () => {
    it.each(SEARCH_CASES)('%s', async (path) => {
      const { memory, sql } = await both(pairs().pair, path);
      expect(memory.status).toBeLessThan(500);
      if (memory.status >= 400) expect(errorShape(sql)).toEqual(errorShape(memory));
      else expect(comparable(sql)).toEqual(comparable(memory));
    });

    it.each(SEARCH_WALKS)('walking %s by its next links gives the same pages', async (path) => {
      const { paged } = pairs();
      const [memory, sql] = await Promise.all([walk(paged.memory, path), walk(paged.sql, path)]);
      expect(memory.length).toBeGreaterThan(1);
      expect(sql.map(comparable)).toEqual(memory.map(comparable));
      for (const page of memory.slice(0, -1)) expect(page.body).toMatch(/"__next":"ORIGIN\/odata\/[^"]*[?&]search=/);
    });
  });
}
