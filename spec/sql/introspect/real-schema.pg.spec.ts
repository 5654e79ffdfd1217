/**
 * introspect() on the real-schema spec database against a PostgreSQL server (npm run
 * test:postgres): the same golden files as on PGlite in both naming styles, every navigation
 * expanded, the start-time key check, and the reader role of the schema (no INSERT on shippers)
 * seeing Shippers as not creatable; a foreign key beyond its smallint column is a 400 naming the property.
 */
import { sql } from 'kysely';
import { writeEdmx } from '../../../lib';
import { checkKeys, introspect, postgres, SqlIntrospectionError, type SqlDatabase } from '../../../lib/sql';
import { createTestDatabase } from '../../helpers/postgres-database';
import { dropRealSchemaRole, loadRealSchemaOnServer } from '../../helpers/real-schema';
import { expandEveryNavigation, expectRealSchemaGolden, navigationPaths, REAL_SCHEMA_WARNINGS, realSchemaOptions } from './real-schema';
import { serveModel } from './support';

const role = `real_schema_introspect_${Math.random().toString(36).slice(2, 8)}`;
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

describe.each(['odata', 'sql'] as const)('%s names', (names) => {
  it('introspect to the same golden files as on PGlite, with and without the Fiori annotations', async () => {
    expectRealSchemaGolden(await introspect(db, realSchemaOptions(names)), names);
    expectRealSchemaGolden(await introspect(db, realSchemaOptions(names, 'none')), names, 'none');
  });

  it('expand every navigation property to the entries its foreign key links', async () => {
    const { model, mapping } = await introspect(db, realSchemaOptions(names));
    const server = await serveModel(model, mapping, db);
    try {
      const counts = await expandEveryNavigation(server, model);
      expect(Object.entries(counts).filter(([, count]) => count === 0)).toEqual([]);
      expect(Object.keys(counts)).toHaveLength(navigationPaths(model).length);
    } finally {
      await server.close();
    }
  });
});

it('warns as on PGlite for the relations without a key', async () => {
  const result = await introspect(db, { names: 'odata' });
  expect(result.warnings.map((warning) => `${warning.code} ${warning.target}: ${warning.message}`)).toEqual(REAL_SCHEMA_WARNINGS);
});

it('checks the keys nothing makes unique: the partitions’ key passes, a key two rows share is refused', async () => {
  expect(await checkKeys(db, await introspect(db, realSchemaOptions('odata')))).toEqual([]);
  const shared = await introspect(db, { keys: { track: ['album_id'] }, include: ['track'] });
  await expect(checkKeys(db, shared)).rejects.toThrow(SqlIntrospectionError);
});

it('marks the set the reader role may not insert into as not creatable', async () => {
  await sql.raw(`alter role ${role} login`).execute(db.kysely);
  const reader = new URL(url);
  reader.username = role;
  const readerDb = postgres(reader.toString());
  try {
    const xml = writeEdmx((await introspect(readerDb, realSchemaOptions('odata'))).model);
    expect(xml).toContain('<EntitySet Name="Shippers" EntityType="Shop.Shipper" sap:creatable="false" sap:searchable="true" />');
    expect(xml).toContain('<EntitySet Name="Orders" EntityType="Shop.Order" sap:searchable="true" />');
  } finally {
    await readerDb.close();
  }
});

it.each([
  ['POST', 'OrderDetails', { OrderID: 70000, ProductID: 1, UnitPrice: '1', Quantity: 1 }, 'OrderID', 'order_details'],
  ['MERGE', 'Products(1)', { CategoryID: -40000 }, 'CategoryID', 'products'],
])('answers %s %s with a foreign key its smallint column cannot hold 400 naming the property, as on PGlite', async (method, path, body, property, table) => {
  const { model, mapping } = await introspect(db, realSchemaOptions('odata'));
  const server = await serveModel(model, mapping, db);
  try {
    const before = await sql.raw(`select * from ${table} order by 1, 2`).execute(db.kysely);
    const response = await fetch(`${server.url}/odata/${path}`, {
      method,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    const set = path.replace(/\(.*$/, '');
    expect([response.status, await response.json()]).toEqual([
      400,
      {
        error: {
          code: 'BODY_INVALID',
          message: { lang: 'en-US', value: `The request body is invalid: '${property}' of '${set}' is out of the range its column can hold.` },
        },
      },
    ]);
    expect((await sql.raw(`select * from ${table} order by 1, 2`).execute(db.kysely)).rows).toEqual(before.rows);
  } finally {
    await server.close();
  }
});
