/**
 * SqlProvider against MemoryProvider over the Catalog model (catalog.ts): many-to-many through a
 * join table, a self-association, Int64, Guid and composite keys, ReferentialConstraints, nullable
 * and nested complex values, a microsecond-precision column, an open type whose dynamic properties
 * the translator leaves to the evaluator (filters, orders, counts and paging through the exact
 * fallback), and `mod` of doubles (the same). Same answers, same pages.
 */
import type { PGlite } from '@electric-sql/pglite';
import { pglite } from '../../../lib/sql/postgres/pglite';
import { openTestPGlite } from '../../helpers/pglite';
import { CATALOG, catalogData } from './catalog';
import { CATALOG_CASES } from './catalog-cases';
import { describeDifferential } from './differential';

let instance: PGlite;

beforeAll(async () => {
  instance = await openTestPGlite();
}, 60_000);
afterAll(() => instance.close());

// Streamed reads keep one snapshot here (PGlite's session held while a feed is written).
describeDifferential('Catalog, PGlite', async () => ({ db: pglite(instance), model: CATALOG, data: catalogData() }), CATALOG_CASES, { streamSnapshot: true });
