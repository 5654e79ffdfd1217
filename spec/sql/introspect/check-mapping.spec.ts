/**
 * checkMapping on PGlite: the Catalog model's tables as createSchema makes them fit its mapping;
 * each table and column the mapping names and the database lacks is one problem (a set's table, a
 * property's column, a foreign key held by the dependent's table, a join table's column, the
 * dynamic-properties column, the media side table), and a table without a schema is looked up on
 * the search path, as the database does. The real-schema spec database's introspected mapping
 * (partitioned tables, views, enums) fits it in both naming styles.
 */
import { sql } from 'kysely';
import type { PGlite } from '@electric-sql/pglite';
import { SqlMappingError } from '../../../lib/sql/errors';
import { checkMapping, introspect } from '../../../lib/sql/introspect';
import { resolveMapping } from '../../../lib/sql/mapping/resolve';
import { pglite } from '../../../lib/sql/postgres/pglite';
import { createSchema } from '../../../lib/sql/schema/create-schema';
import type { SqlDatabase } from '../../../lib/sql/database';
import { openTestPGlite } from '../../helpers/pglite';
import { loadRealSchema } from '../../helpers/real-schema';
import { CATALOG } from '../provider/catalog';
import { realSchemaOptions } from './real-schema';

let instance: PGlite;
let db: SqlDatabase;

beforeAll(async () => {
  instance = await openTestPGlite();
  db = pglite(instance);
}, 60_000);
afterAll(() => instance.close());

async function problemsOf(check: Promise<void>): Promise<readonly string[]> {
  try {
    await check;
  } catch (error) {
    if (error instanceof SqlMappingError) {
      expect(error.message.split('\n')[0]).toBe('The SQL mapping does not fit the database:');
      return error.problems;
    }
    throw error;
  }
  return [];
}

it('passes the tables createSchema made for the mapping', async () => {
  const mapping = await createSchema(db, CATALOG, { schema: 'fits' });
  expect(await problemsOf(checkMapping(db, CATALOG, mapping))).toEqual([]);
}, 30_000);

it('names every table and column the database lacks, once', async () => {
  const mapping = await createSchema(db, CATALOG, { schema: 'broken' });
  await instance.exec(`
    drop table broken."Photos_media";
    alter table broken."Products" drop column "Weight", drop column "Dimensions_Unit_Code", drop column "Category_ID";
    alter table broken."Products_Tags" rename column "Tags_Code" to tag;
    alter table broken."Notes" rename column "$dynamic" to extra;
    drop table broken."Lines";
  `);
  expect(await problemsOf(checkMapping(db, CATALOG, mapping))).toEqual([
    "EntitySet 'Products' / property 'Weight': no column Weight in broken.Products.",
    "EntitySet 'Products' / property 'Dimensions/Unit/Code': no column Dimensions_Unit_Code in broken.Products.",
    "AssociationSet 'Products_Category' / Products 'ID': no column Category_ID in broken.Products.",
    "EntitySet 'Lines': no table broken.Lines.",
    "EntitySet 'Notes' / dynamic properties: no column $dynamic in broken.Notes.",
    "EntitySet 'Photos' / media: no table broken.Photos_media.",
    "AssociationSet 'Products_Tags' / Tags 'Code': no column Tags_Code in broken.Products_Tags.",
  ]);
}, 30_000);

it('looks a table without a schema up on the search path', async () => {
  await createSchema(db, CATALOG, { schema: 'elsewhere' });
  const mapping = resolveMapping(CATALOG);
  const problems = await problemsOf(checkMapping(db, CATALOG, mapping));
  expect(problems).toHaveLength(CATALOG.defaultContainer.entitySets.length + 2); // the media and join tables too
  expect(problems[0]).toBe("EntitySet 'Categories': no table Categories in the schemas of the search path (public).");
  await sql`set search_path to elsewhere, public`.execute(db.kysely);
  try {
    expect(await problemsOf(checkMapping(db, CATALOG, mapping))).toEqual([]);
  } finally {
    await sql`reset search_path`.execute(db.kysely);
  }
}, 30_000);

it.each(['odata', 'sql'] as const)(
  'passes the mapping introspect made of the real schema (%s names)',
  async (names) => {
    const real = await openTestPGlite();
    try {
      await loadRealSchema(real, 'check_mapping_reader');
      const database = pglite(real);
      const { model, mapping } = await introspect(database, realSchemaOptions(names));
      expect(await problemsOf(checkMapping(database, model, mapping))).toEqual([]);
    } finally {
      await real.close();
    }
  },
  60_000,
);
