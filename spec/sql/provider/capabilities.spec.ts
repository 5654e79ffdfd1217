/**
 * `sap:` capabilities enforced by the service over SqlProvider on PGlite: the same cases as over
 * MemoryProvider (spec/e2e/capabilities-cases.ts), each on a fresh copy of the data in a schema
 * of its own.
 */
import { createSchema, pglite, seed, SqlProvider } from '../../../lib/sql';
import { createService } from '../../../lib/service';
import { CAPABILITIES_DATA, CAPABILITIES_MODEL, describeCapabilities } from '../../e2e/capabilities-cases';

const db = pglite();
let schemas = 0;

afterAll(() => db.close());

describeCapabilities(async () => {
  const mapping = { schema: `capabilities${++schemas}` };
  await createSchema(db, CAPABILITIES_MODEL, mapping);
  await seed(db, CAPABILITIES_MODEL, mapping, CAPABILITIES_DATA);
  const provider = new SqlProvider({ model: CAPABILITIES_MODEL, db, mapping });
  return { service: createService({ model: CAPABILITIES_MODEL, provider, requireIfMatch: false }), close: async () => undefined };
});
