/**
 * SAP's `search` on SqlProvider over SQLite, against MemoryProvider on the same Shop data: the
 * shared cases of the PGlite search spec (terms, phrases, case beyond ASCII through the Unicode
 * lower-case function the connection registers, LIKE wildcards, every query option at once,
 * navigation, counts, errors), and the same pages when a search is walked by its next links.
 */
import { sqlite, type SqlDatabase } from '../../../lib/sql';
import { SHOP_LINKS, SHOP_MODEL, shopData } from '../../helpers/search-shop';
import { SEARCH_CASES, SEARCH_WALKS } from '../provider/search-cases';
import { both, comparable, errorShape, loadDatabase, servePair, walk, type ServicePair } from '../provider/support';

let db: SqlDatabase;
let pair: ServicePair;
let paged: ServicePair;

beforeAll(async () => {
  db = sqlite(':memory:');
  await loadDatabase(db, SHOP_MODEL, shopData(), SHOP_LINKS);
  pair = await servePair(SHOP_MODEL, shopData(), db, { links: SHOP_LINKS });
  paged = await servePair(SHOP_MODEL, shopData(), db, { links: SHOP_LINKS, service: { maxPageSize: 4 } });
});

afterAll(async () => {
  await Promise.all([pair?.close(), paged?.close()]);
  await db.close();
});

describe('search on SQLite: SqlProvider answers as MemoryProvider', () => {
  it.each(SEARCH_CASES)('%s', async (path) => {
    const { memory, sql } = await both(pair, path);
    expect(memory.status).toBeLessThan(500);
    if (memory.status >= 400) expect(errorShape(sql)).toEqual(errorShape(memory));
    else expect(comparable(sql)).toEqual(comparable(memory));
  });

  it.each(SEARCH_WALKS)('walking %s by its next links gives the same pages', async (path) => {
    const [memory, sql] = await Promise.all([walk(paged.memory, path), walk(paged.sql, path)]);
    expect(memory.length).toBeGreaterThan(1);
    expect(sql.map(comparable)).toEqual(memory.map(comparable));
  });
});
