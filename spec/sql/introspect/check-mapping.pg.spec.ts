/**
 * checkMapping against a PostgreSQL server (npm run test:postgres): the real-schema spec
 * database's introspected mapping fits it; a column and a table it lacks are one problem each.
 */
import { sql } from 'kysely';
import { checkMapping, introspect, postgres, SqlMappingError, type SqlDatabase } from '../../../lib/sql';
import { createTestDatabase } from '../../helpers/postgres-database';
import { dropRealSchemaRole, loadRealSchemaOnServer } from '../../helpers/real-schema';
import { realSchemaOptions } from './real-schema';

const role = `check_mapping_${Math.random().toString(36).slice(2, 8)}`;
let url: string;
let drop: () => Promise<void>;
let db: SqlDatabase;

beforeAll(async () => {
  ({ url, drop } = await createTestDatabase());
  await loadRealSchemaOnServer(url, role);
  db = postgres(url);
});

afterAll(async () => {
  await db.close();
  await dropRealSchemaRole(url, role);
  await drop();
});

it('passes the mapping introspect made, and names the column and the table the database then lacks', async () => {
  const { model, mapping } = await introspect(db, realSchemaOptions('odata'));
  await expect(checkMapping(db, model, mapping)).resolves.toBeUndefined();
  await sql`alter table public.customers rename column company_name to name`.execute(db.kysely);
  await sql`alter table public.shippers rename to carriers`.execute(db.kysely);
  const failed = await checkMapping(db, model, mapping).then(
    () => [],
    (error: unknown) => (error instanceof SqlMappingError ? error.problems : [String(error)]),
  );
  expect(failed).toEqual([
    "EntitySet 'Customers' / property 'CompanyName': no column company_name in public.customers.",
    "EntitySet 'Shippers': no table public.shippers.",
  ]);
});
