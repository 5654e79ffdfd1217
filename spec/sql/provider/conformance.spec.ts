/**
 * SqlProvider passes the provider kit's conformance suite on PGlite (in memory, no server): each
 * unit gets a fresh schema of its own (createSchema, then the fixture's rows by seed) in one PGlite
 * instance, the jest worker's (spec/helpers/pglite.ts: starting PGlite takes seconds; a schema
 * milliseconds).
 * With the suite's optional hooks (conformance-setup.ts): microsecond timestamps stored exactly and
 * the store's default for Customers.Joined. The provider runs with its defaults, so single write
 * requests of one statement run without BEGIN and COMMIT and the suite makes its retries itself
 * (retries the provider makes are writes.spec.ts's, and the SERIALIZABLE suite's on a server).
 */
import { pglite, type SqlDatabase } from '../../../lib/sql';
import { describeDataProvider } from '../../../lib/testing';
import { conformanceSetup } from './conformance-setup';
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

describeDataProvider('SqlProvider on PGlite', (fixture) => conformanceSetup(db, fixture, { schema: `unit${++units}` }), {
  capabilities: { storeDefaults: true },
});
