/**
 * The SqlProvider differentials against a real PostgreSQL server (`npm run test:postgres`): the
 * demo and the Catalog served by SqlProvider and by MemoryProvider, compared read by read, page
 * by page, and again in keyset chunks (in one snapshot for the demo, a statement per chunk for
 * the Catalog: the server defaults differ from PGlite's). Each model in a database of its own.
 */
import { postgres } from '../../../lib/sql/postgres/server';
import type { SqlDatabase } from '../../../lib/sql/database';
import { DEMO_LINKS, DEMO_MODEL } from '../../helpers/demo';
import { createTestDatabase } from '../../helpers/postgres-database';
import { CATALOG, catalogData } from './catalog';
import { CATALOG_CASES } from './catalog-cases';
import { largerDemoData } from './demo-data';
import { describeDifferential, DEMO_CASES } from './differential';

const opened: { db: SqlDatabase; drop: () => Promise<void> }[] = [];

async function freshDatabase(): Promise<SqlDatabase> {
  const created = await createTestDatabase();
  const db = postgres(created.url);
  opened.push({ db, drop: created.drop });
  return db;
}

afterAll(async () => {
  for (const { db, drop } of opened) {
    await db.close();
    await drop();
  }
});

describeDifferential(
  'ODataDemo, PostgreSQL server',
  async () => ({ db: await freshDatabase(), model: DEMO_MODEL, data: largerDemoData(), links: DEMO_LINKS }),
  DEMO_CASES,
  { streamSnapshot: true },
);
describeDifferential('Catalog, PostgreSQL server', async () => ({ db: await freshDatabase(), model: CATALOG, data: catalogData() }), CATALOG_CASES, {
  streamSnapshot: false,
});
