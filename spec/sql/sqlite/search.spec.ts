/**
 * SAP's `search` on SqlProvider over SQLite, against MemoryProvider on the same Shop data: the
 * shared cases of the PGlite search spec (terms, phrases, case beyond ASCII through the Unicode
 * lower-case function the connection registers, LIKE wildcards, every query option at once,
 * navigation, counts, errors), and the same pages when a search is walked by its next links.
 */
import { sqlite, type SqlDatabase } from '../../../lib/sql';
import { SHOP_LINKS, SHOP_MODEL, shopData } from '../../helpers/search-shop';
import { describeSearchParity } from '../provider/search-cases';
import { loadDatabase, servePair, type ServicePair } from '../provider/support';

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

describeSearchParity('search on SQLite: SqlProvider answers as MemoryProvider', () => ({ pair, paged }));
