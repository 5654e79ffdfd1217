/**
 * SqlProvider against MemoryProvider, end to end over HTTP: the ODataDemo model with a larger data
 * set (demo-data.ts), served by both with the same options, and a broad set of read URLs answered
 * by both: filters, orders, paging, `$skiptoken`, `$select`/`$expand` two levels deep, navigation
 * paths and their 404s, counts, properties, links, errors. The answers must be the same bytes (JSON
 * compared as data). Then whole feeds walked page by page through their next links under server
 * paging: the same pages, every entity exactly once. The same run against a real server is
 * demo-differential.pg.spec.ts.
 */
import { sql } from 'kysely';
import type { PGlite } from '@electric-sql/pglite';
import { pglite } from '../../../lib/sql/postgres/pglite';
import { DEMO_LINKS, DEMO_MODEL } from '../../helpers/demo';
import { openTestPGlite } from '../../helpers/pglite';
import { largerDemoData } from './demo-data';
import { describeDemoDifferential } from './differential';

let instance: PGlite;

beforeAll(async () => {
  instance = await openTestPGlite();
}, 60_000);
afterAll(() => instance.close());

describeDemoDifferential('PGlite, index scans preferred', async () => {
  const db = pglite(instance);
  // Plans as on a big table: rows in key order from the primary key, WHERE evaluated only as far
  // as a page needs (a failure on a later row then shows in a later chunk only).
  await sql`set enable_seqscan = off`.execute(db.kysely);
  return { db, model: DEMO_MODEL, data: largerDemoData(), links: DEMO_LINKS };
});
