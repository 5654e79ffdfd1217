/**
 * The provider of docs/provider-tutorial.md is examples/sql-tutorial/provider.ts, shown whole in the
 * page's ```ts blocks (spec/package/typescript-blocks.spec.ts checks that the blocks are the file). Here
 * it serves the conformance suite's fixture on PGlite: each unit gets a schema of its own in one
 * PGlite instance (createSchema, then the fixture's rows by seed), as the tutorial's "Test it" does.
 */
import { createSchema, pglite, resolveMapping, seed, type SqlDatabase } from '../../lib/sql';
import { describeDataProvider } from '../../lib/testing';
import { tutorialProvider } from '../../examples/sql-tutorial/provider';
import type { PGlite } from '@electric-sql/pglite';
import { openTestPGlite } from '../helpers/pglite';

let instance: PGlite;
let db: SqlDatabase;

beforeAll(async () => {
  instance = await openTestPGlite();
  db = pglite(instance);
});
afterAll(() => instance.close());

let units = 0;

describeDataProvider(
  'the tutorial provider on PGlite',
  async ({ model, data }) => {
    const mapping = resolveMapping(model, { schema: `tutorial${++units}` });
    await createSchema(db, model, mapping);
    await seed(db, model, mapping, data);
    return { provider: tutorialProvider({ db, model, mapping }) };
  },
  { capabilities: { media: false, openTypes: false } },
);
