/**
 * SqlProvider on SQLite against MemoryProvider, end to end over HTTP, with the shared harnesses of
 * the PGlite runs: the ODataDemo model with the larger data set (filters, orders, paging,
 * `$skiptoken`, `$select`/`$expand` two levels deep, navigation paths and their 404s, counts,
 * properties, links, errors, whole feeds walked by their next links) and the Catalog model (a join
 * table, a self-association, Int64, Guid and composite keys, an open type, `mod` of doubles).
 */
import { sqlite } from '../../../lib/sql';
import { DEMO_LINKS, DEMO_MODEL } from '../../helpers/demo';
import { CATALOG, catalogData } from '../provider/catalog';
import { CATALOG_CASES } from '../provider/catalog-cases';
import { largerDemoData } from '../provider/demo-data';
import { describeDemoDifferential, describeDifferential } from '../provider/differential';

describeDemoDifferential('SQLite', async () => ({ db: sqlite(':memory:'), model: DEMO_MODEL, data: largerDemoData(), links: DEMO_LINKS }));

describeDifferential('Catalog, SQLite', async () => ({ db: sqlite(':memory:'), model: CATALOG, data: catalogData() }), CATALOG_CASES);
