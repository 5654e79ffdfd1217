/**
 * introspect() against a PostgreSQL server (npm run test:postgres): the fixture schema gives the
 * same golden metadata.xml and mapping.json as on PGlite, reads through the mapping give the same
 * values, and the privileges of a restricted role show: columns it cannot read are left out,
 * sets and columns it cannot write are marked `sap:creatable`/`sap:updatable`/`sap:deletable`
 * false.
 */
import { Client } from 'pg';
import { writeEdmx } from '../../../lib';
import { introspect, postgres, type SqlDatabase } from '../../../lib/sql';
import { createTestDatabase } from '../../helpers/postgres-database';
import type { RunningServer } from '../../helpers/server';
import { ALL_TYPES_ROW, FIXTURE_DATA, FIXTURE_OPTIONS, FIXTURE_SQL } from './fixture';
import { expectFixtureGolden, getJson, rows, serveModel, warningLines } from './support';

let url: string;
let drop: () => Promise<void>;
let db: SqlDatabase;

async function run(connection: string, statements: string): Promise<void> {
  const client = new Client({ connectionString: connection });
  await client.connect();
  try {
    await client.query(statements);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  ({ url, drop } = await createTestDatabase());
  await run(url, FIXTURE_SQL + FIXTURE_DATA);
  db = postgres(url);
});

afterAll(async () => {
  await db.close();
  await drop();
});

it('introspects the fixture to the same golden files as PGlite, with the same warnings', async () => {
  const result = await introspect(db, FIXTURE_OPTIONS);
  expectFixtureGolden(result);
  expect(warningLines(result)).toEqual([
    'COLUMN_NOT_MAPPED public.all_types.c_tsvector',
    'COLUMN_NOT_MAPPED public.all_types.c_address',
    'COLUMN_NOT_MAPPED public.all_types.c_lsn',
    'TABLE_WITHOUT_KEY public.audit_log',
    'TABLE_WITHOUT_KEY public.plain_view',
    'NO_ETAG public.product_summary',
    'TABLE_WITHOUT_KEY public.scratch',
  ]);
});

it('reads every mapped type through the mapping as on PGlite', async () => {
  const { model, mapping } = await introspect(db, FIXTURE_OPTIONS);
  const server: RunningServer = await serveModel(model, mapping, db);
  try {
    const { status, d } = await getJson(server, 'all_types(1)');
    expect(status).toBe(200);
    expect(rows(d)[0]).toEqual(ALL_TYPES_ROW);
    const { d: regions } = await getJson(server, "regions('N')?$expand=stores&$select=code,stores/id");
    expect(rows(regions)).toEqual([{ code: 'N', stores: [{ id: 1 }, { id: 3 }] }]);
  } finally {
    await server.close();
  }
});

it("follows the user's privileges: unreadable columns left out, unwritable sets and columns marked", async () => {
  const role = `reader_${Math.random().toString(36).slice(2, 8)}`;
  await run(
    url,
    `create role ${role} login;
     grant usage on schema public to ${role};
     grant select (id, name, mood) on customers to ${role};
     grant select, insert on products to ${role};
     grant update (title) on products to ${role};
     grant select on tags to ${role};`,
  );
  const restricted = new URL(url);
  restricted.username = role;
  const restrictedDb = postgres(restricted.toString());
  try {
    const result = await introspect(restrictedDb, { namespace: 'Fixture', names: 'sql', include: ['customers', 'products', 'tags', 'orders'] });
    expect(warningLines(result)).toEqual([
      'COLUMN_NOT_READABLE public.customers.email',
      'COLUMN_NOT_READABLE public.customers.created_at',
      'COLUMN_NOT_READABLE public.customers.version',
      'TABLE_NOT_READABLE public.orders',
    ]);
    const xml = writeEdmx(result.model);
    expect(xml).toContain(
      '<EntitySet Name="customers" EntityType="Fixture.customers" sap:creatable="false" sap:updatable="false" sap:deletable="false" sap:searchable="true" />',
    );
    expect(xml).toContain('<EntitySet Name="products" EntityType="Fixture.products" sap:deletable="false" sap:searchable="true" />');
    expect(xml).toContain(
      '<EntitySet Name="tags" EntityType="Fixture.tags" sap:creatable="false" sap:updatable="false" sap:deletable="false" sap:searchable="true" />',
    );
    // On products only title can be updated: every other column says so (id also as the identity it is).
    const updatable = result.model.entityTypes
      .get('Fixture.products')
      ?.properties.map((property) => [property.name, property.annotationAttributes.find((attribute) => attribute.name === 'updatable')?.value]);
    expect(updatable).toEqual([
      ['id', 'false'],
      ['code', 'false'],
      ['title', undefined],
      ['price', 'false'],
      ['discontinued', 'false'],
      ['row_stamp', 'false'],
    ]);
  } finally {
    await restrictedDb.close();
    await run(url, `drop owned by ${role}; drop role ${role};`);
  }
});
