/**
 * createSchema and seed on PGlite: the DDL of the Catalog model read back from the catalog
 * (column types, precision, nullability, keys, foreign keys with their ON DELETE, unique
 * constraints, indexes), run twice without harm; what the constraints then do; and the Catalog
 * data seeded in dependency order (a self-association set after its rows exist, join-table rows,
 * dynamic properties with their EDM types), with bad data refused as MemoryProvider refuses it.
 */
import { sql } from 'kysely';
import type { PGlite } from '@electric-sql/pglite';
import { decodeDynamicProperties, encodeDynamicValue } from '../../lib/sql/dynamic';
import { SqlSeedError } from '../../lib/sql/errors';
import { pglite } from '../../lib/sql/pglite';
import { createSchema, schemaStatements } from '../../lib/sql/schema/create-schema';
import { resolveMapping } from '../../lib/sql/mapping/resolve';
import { seed } from '../../lib/sql/schema/seed';
import type { SqlDatabase } from '../../lib/sql/database';
import { DEMO_MODEL } from '../helpers/demo';
import { openTestPGlite } from '../helpers/pglite';
import { CATALOG, catalogData } from './provider/catalog';
import { compiled } from './support';

let instance: PGlite;
let db: SqlDatabase;

beforeAll(async () => {
  instance = await openTestPGlite();
  db = pglite(instance);
  await createSchema(db, CATALOG);
  // Idempotent: a second run changes nothing and fails on nothing.
  await createSchema(db, CATALOG);
  await seed(db, CATALOG, {}, catalogData());
}, 60_000);
afterAll(() => instance.close());

async function rows<T>(query: ReturnType<typeof sql<T>>): Promise<T[]> {
  return (await query.execute(db.kysely)).rows;
}

describe('createSchema', () => {
  it('writes the demo’s Products table as expected', () => {
    const statements = schemaStatements(DEMO_MODEL, resolveMapping(DEMO_MODEL), db.dialect);
    expect(compiled(statements.tables[0]).sql).toBe(
      'create table if not exists "Products" ("ID" integer not null, "Name" text collate "C", "Description" text collate "C", ' +
        '"ReleaseDate" timestamp(3) not null, "DiscontinuedDate" timestamp(3), "Rating" integer not null, "Price" numeric not null, ' +
        '"Category_ID" integer, "Supplier_ID" integer, constraint "Products_pkey" primary key ("ID"))',
    );
    expect(statements.foreignKeys.map((foreignKey) => compiled(foreignKey.statement).sql)).toEqual([
      'alter table "Products" add constraint "Products_Products_Category_Categories_fkey" foreign key ("Category_ID") references "Categories" ("ID") on delete set null',
      'alter table "Products" add constraint "Products_Products_Supplier_Suppliers_fkey" foreign key ("Supplier_ID") references "Suppliers" ("ID") on delete set null',
    ]);
    expect(statements.indexes.map((index) => compiled(index).sql)).toEqual([
      'create index if not exists "Products_Category_ID_idx" on "Products" ("Category_ID")',
      'create index if not exists "Products_Supplier_ID_idx" on "Products" ("Supplier_ID")',
    ]);
  });

  it('columns: the EDM type map, milliseconds unless Precision says more, required where every row has a value', async () => {
    const columns = await rows(sql<{ table_name: string; column_name: string; type: string; is_nullable: string }>`
      select table_name, column_name, format_type(a.atttypid, a.atttypmod) as type, is_nullable
      from information_schema.columns c join pg_attribute a on a.attrelid = ('"' || c.table_name || '"')::regclass and a.attname = c.column_name
      where table_schema = current_schema() and table_name in ('Products', 'Orders', 'Notes', 'Photos_media', 'Products_Tags') order by table_name, ordinal_position`);
    expect(columns.map((column) => `${column.table_name}.${column.column_name} ${column.type}${column.is_nullable === 'NO' ? ' not null' : ''}`)).toEqual([
      'Notes.ID integer not null',
      'Notes.Text text',
      'Notes.$dynamic jsonb',
      'Orders.ID uuid not null',
      'Orders.CustomerID bigint not null',
      'Orders.Total numeric not null',
      'Orders.Placed timestamp(3) with time zone',
      'Photos_media.ID integer not null',
      'Photos_media.ContentType text not null',
      'Photos_media.Body bytea not null',
      'Products.ID integer not null',
      'Products.Name text',
      'Products.Price numeric(12,2) not null',
      'Products.Weight double precision',
      'Products.Released timestamp(3) without time zone',
      'Products.Measured timestamp(6) with time zone',
      'Products.Dimensions boolean',
      'Products.Dimensions_Width double precision',
      'Products.Dimensions_Height double precision',
      'Products.Dimensions_Unit_Code text',
      'Products.Version integer not null',
      'Products.Category_ID integer',
      'Products_Tags.Products_ID integer not null',
      'Products_Tags.Tags_Code text not null',
    ]);
  });

  it('foreign keys: cascade where the principal’s end says so, set null for optional links, refuse for required ones', async () => {
    const constraints = await rows(sql<{ table_name: string; constraint_name: string; delete_rule: string }>`
      select t.table_name, r.constraint_name, r.delete_rule from information_schema.referential_constraints r
      join information_schema.table_constraints t on t.constraint_name = r.constraint_name and t.constraint_schema = r.constraint_schema
      where r.constraint_schema = current_schema() order by r.constraint_name`);
    expect(constraints.map((constraint) => `${constraint.constraint_name} ${constraint.delete_rule}`)).toEqual([
      'Categories_Categories_Parent_fkey SET NULL',
      'Lines_Orders_Lines_fkey CASCADE',
      'Orders_Customers_Orders_fkey NO ACTION',
      'Photos_media_fkey CASCADE',
      'Products_Products_Category_fkey SET NULL',
      'Products_Tags_Products_fkey CASCADE',
      'Products_Tags_Tags_fkey CASCADE',
      'Profiles_Customers_Profile_fkey CASCADE',
    ]);
  });

  it('indexes: keys, the foreign keys a primary key does not start with, the join table’s second end', async () => {
    const indexes = await rows(sql<{ indexname: string }>`select indexname from pg_indexes where schemaname = current_schema() order by indexname`);
    expect(indexes.map((index) => index.indexname)).toEqual([
      'Categories_Parent_ID_idx',
      'Categories_pkey',
      'Customers_pkey',
      'Lines_pkey',
      'Notes_pkey',
      'Orders_CustomerID_idx',
      'Orders_pkey',
      'Photos_media_pkey',
      'Photos_pkey',
      'Products_Category_ID_idx',
      'Products_Tags_Tags_Code_idx',
      'Products_Tags_pkey',
      'Products_pkey',
      'Profiles_pkey',
      'Tags_pkey',
    ]);
  });

  it('in effect: deleting a customer deletes its profile but is refused while it has orders; deleting a category unlinks its products', async () => {
    await db.kysely.transaction().execute(async (trx) => {
      await sql`delete from "Categories" where "ID" = 1`.execute(trx);
      const unlinked = await sql<{ n: string }>`select count(*) as n from "Products" where "Category_ID" is null`.execute(trx);
      expect(Number(unlinked.rows[0].n)).toBeGreaterThan(6);
      await sql`delete from "Orders" where "CustomerID" = 9007199254740990`.execute(trx);
      await sql`delete from "Customers" where "ID" = 9007199254740990`.execute(trx);
      expect((await sql`select 1 from "Profiles" where "CustomerID" = 9007199254740990`.execute(trx)).rows).toEqual([]);
      await expect(sql`delete from "Customers" where "ID" = 9007199254740991`.execute(trx)).rejects.toMatchObject({ code: '23503' });
      throw new Error('roll back');
    }).catch((error: unknown) => expect(error).toEqual(new Error('roll back')));
  });
});

describe('seed', () => {
  it('loads every set and link of the Catalog data', async () => {
    const counts = await rows(sql<{ name: string; n: string }>`
      select 'Categories' as name, count(*) as n from "Categories" union all select 'Products', count(*) from "Products"
      union all select 'Products_Tags', count(*) from "Products_Tags" union all select 'Lines', count(*) from "Lines"
      union all select 'Profiles', count(*) from "Profiles" union all select 'parents', count("Parent_ID") from "Categories"`);
    expect(Object.fromEntries(counts.map((row) => [row.name, Number(row.n)]))).toEqual({ Categories: 8, Products: 60, Products_Tags: 105, Lines: 19, Profiles: 3, parents: 6 });
  });

  it('sets a self-association’s links after its rows exist', async () => {
    expect(await rows(sql<{ ID: number; Parent_ID: number | null }>`select "ID", "Parent_ID" from "Categories" order by "ID"`)).toEqual(
      [0, 1, 2, 3, 4, 5, 6, 7].map((id) => ({ ID: id, Parent_ID: id < 2 ? null : id % 2 })),
    );
  });

  it('keeps each dynamic property’s EDM type in the JSON column', async () => {
    const [note] = await rows(sql<{ dynamic: string }>`select "$dynamic"::text as dynamic from "Notes" where "ID" = 1`);
    expect(JSON.parse(note.dynamic)).toEqual({ Size: { $type: 'Edm.Double', value: '2.5' } });
  });

  it('refuses data MemoryProvider refuses, with the same lines', async () => {
    const data = catalogData();
    const bad = { ...data, Products: [...data.Products, { ID: 0, Price: 'x', Version: 0 }] };
    const emptyInstance = await openTestPGlite();
    const empty = pglite(emptyInstance);
    try {
      await createSchema(empty, CATALOG);
      const error = await seed(empty, CATALOG, {}, bad).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SqlSeedError);
      expect((error as Error).message).toBe(
        "The seed data is invalid:\n- Products(0): Invalid value for property 'Price' of type Edm.Decimal: expected a decimal number without exponent overflow",
      );
    } finally {
      // pglite(instance) leaves an instance it did not open running: close both.
      await empty.close();
      await emptyInstance.close();
    }
  });
});

describe('dynamic property values', () => {
  it.each([
    ['a string', 'Edm.String', 'text', 'text'],
    ['a boolean', 'Edm.Boolean', true, true],
    ['an Int32', 'Edm.Int32', 7, 7],
    ['a Decimal', 'Edm.Decimal', '12345678901234567890.125', { $type: 'Edm.Decimal', value: '12345678901234567890.125' }],
    ['an Int64', 'Edm.Int64', '9007199254740993', { $type: 'Edm.Int64', value: '9007199254740993' }],
    ['a Double', 'Edm.Double', NaN, { $type: 'Edm.Double', value: 'NaN' }],
    ['a DateTime', 'Edm.DateTime', new Date('2020-01-02T03:04:05.678Z'), { $type: 'Edm.DateTime', value: '2020-01-02T03:04:05.678' }],
    ['a Guid', 'Edm.Guid', '01234567-89ab-cdef-0123-456789abcdef', { $type: 'Edm.Guid', value: '01234567-89ab-cdef-0123-456789abcdef' }],
    ['bytes', 'Edm.Binary', new Uint8Array([1, 2, 255]), { $type: 'Edm.Binary', value: 'AQL/' }],
  ] as const)('%s is stored as %j and read back as it went in', (_what, type, value, stored) => {
    expect(encodeDynamicValue(value, type)).toEqual(stored);
    const back = decodeDynamicProperties(JSON.stringify({ x: stored })).x;
    expect(back instanceof Uint8Array ? [...back] : back).toEqual(value instanceof Uint8Array ? [...value] : value);
  });

  it('a document it did not write is a TypeError naming the property', () => {
    expect(() => decodeDynamicProperties('{"Size": {"$type": "Edm.Nope", "value": "1"}}')).toThrow(new TypeError(`The dynamic property 'Size' holds {"$type":"Edm.Nope","value":"1"}, which is no stored EDM value.`));
  });
});
