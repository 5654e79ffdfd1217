/**
 * SqlProvider passes the provider kit's conformance suite on PGlite (in memory, no server): each
 * unit gets a fresh schema of its own (createSchema, then the fixture's rows by seed) in one PGlite
 * instance, which starts once for the file (starting PGlite takes seconds; a schema milliseconds).
 */
import { SqlProvider, createSchema, pglite, seed } from '../../../lib/sql';
import { describeDataProvider } from '../../../lib/testing';

const db = pglite();
let units = 0;

afterAll(() => db.close());

describeDataProvider('SqlProvider on PGlite', async ({ model, data }) => {
  const mapping = { schema: `unit${++units}` };
  await createSchema(db, model, mapping);
  await seed(db, model, mapping, data);
  return { provider: new SqlProvider({ model, db, mapping }) };
});
