/**
 * SqlProvider with the fixture's required ends (Customer_Orders, Order_Lines: multiplicity 1) and
 * Item_Category kept in join tables instead of foreign keys: the write groups of the conformance
 * suite pass as they do with foreign keys. The database cannot enforce a `1` end in a join table,
 * so the provider counts the links before COMMIT (a POST without its required link, a removed
 * last link, a delete that leaves partners without theirs: 409, nothing written) and deletes
 * partners over a cascading end itself.
 */
import { SqlProvider, createSchema, pglite, seed, type SqlMappingOverrides, type SqlDatabase } from '../../../lib/sql';
import { describeDataProvider } from '../../../lib/testing';
import type { PGlite } from '@electric-sql/pglite';
import { openTestPGlite } from '../../helpers/pglite';

let instance: PGlite;
let db: SqlDatabase;

beforeAll(async () => {
  instance = await openTestPGlite();
  db = pglite(instance);
});
afterAll(() => instance.close());

let units = 0;

/** The groups that create, link, unlink and delete (the read groups do not depend on where links are kept). */
const WRITE_GROUPS = ['create with links', 'deep insert', 'PUT', 'MERGE and PATCH', 'delete', '$links', 'changesets', 'navigation'];

describeDataProvider(
  'SqlProvider on PGlite, required ends in join tables',
  async ({ model, data }) => {
    const mapping: SqlMappingOverrides = {
      schema: `joined${++units}`,
      associationSets: { Customer_Orders: { kind: 'joinTable' }, Order_Lines: { kind: 'joinTable' }, Item_Category: { kind: 'joinTable' } },
    };
    await createSchema(db, model, mapping);
    await seed(db, model, mapping, data);
    return { provider: new SqlProvider({ model, db, mapping }) };
  },
  { groups: WRITE_GROUPS },
);
