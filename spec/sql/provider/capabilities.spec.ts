/**
 * `sap:` capabilities enforced by the service over SqlProvider on PGlite: the same cases as over
 * MemoryProvider (spec/e2e/capabilities-cases.ts), each on a fresh copy of the data in a schema
 * of its own, in the jest worker's PGlite instance (spec/helpers/pglite.ts).
 */
import type { PGlite } from '@electric-sql/pglite';
import { createSchema, pglite, seed, SqlProvider, type SqlDatabase } from '../../../lib/sql';
import { createService } from '../../../lib/service';
import { CAPABILITIES_DATA, CAPABILITIES_MODEL, describeCapabilities } from '../../e2e/capabilities-cases';
import { openTestPGlite } from '../../helpers/pglite';

let instance: PGlite;
let db: SqlDatabase;
let schemas = 0;

beforeAll(async () => {
  instance = await openTestPGlite();
  db = pglite(instance);
});
afterAll(() => instance.close());

describeCapabilities(async () => {
  const mapping = { schema: `capabilities${++schemas}` };
  await createSchema(db, CAPABILITIES_MODEL, mapping);
  await seed(db, CAPABILITIES_MODEL, mapping, CAPABILITIES_DATA);
  const provider = new SqlProvider({ model: CAPABILITIES_MODEL, db, mapping });
  return { service: createService({ model: CAPABILITIES_MODEL, provider, requireIfMatch: false }), close: async () => undefined };
});
