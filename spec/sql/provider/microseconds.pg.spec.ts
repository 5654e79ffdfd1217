/** Paging by microsecond timestamps on a PostgreSQL server, plans included (the cases: microseconds.ts). */
import { postgres } from '../../../lib/sql/postgres/server';
import type { SqlDatabase } from '../../../lib/sql/database';
import { createTestDatabase } from '../../helpers/postgres-database';
import { describeMicrosecondPaging } from './microseconds';

let opened: { db: SqlDatabase; drop: () => Promise<void> } | undefined;

afterAll(async () => {
  await opened?.db.close();
  await opened?.drop();
});

describeMicrosecondPaging('PostgreSQL server', async () => {
  const created = await createTestDatabase();
  opened = { db: postgres(created.url), drop: created.drop };
  return opened.db;
});
