/**
 * SqlProvider passes the conformance suite on PGlite with `session` on: every request of every unit
 * runs as a database role (reads, counts, expansions, streamed feeds, media, writes, changesets,
 * retried transactions), and the `row visibility` groups check two contexts whose row-level
 * security policies hide some Items and Categories (conformance-session.ts). Each unit has a schema
 * of its own in the jest worker's PGlite instance (spec/helpers/pglite.ts).
 */
import type { PGlite } from '@electric-sql/pglite';
import { pglite, type SqlDatabase } from '../../../lib/sql';
import { describeDataProvider } from '../../../lib/testing';
import { openTestPGlite } from '../../helpers/pglite';
import { conformanceRoles, createConformanceRoles, sessionConformanceSetup } from './conformance-session';

let instance: PGlite;
let db: SqlDatabase;
const roles = conformanceRoles('conformance');
let units = 0;
let created: Promise<void> | undefined;

beforeAll(async () => {
  instance = await openTestPGlite();
  db = pglite(instance);
});
afterAll(() => instance.close());

describeDataProvider(
  'SqlProvider on PGlite with a database session',
  async (fixture) => {
    await (created ??= createConformanceRoles(db, roles));
    return sessionConformanceSetup(db, fixture, `session${++units}`, roles);
  },
  { capabilities: { storeDefaults: true, rowVisibility: true } },
);
