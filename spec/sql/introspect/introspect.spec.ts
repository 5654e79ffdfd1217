/**
 * introspect() on PGlite: the fixture schema against the golden EDMX and mapping (the same files
 * the server spec compares with), the warnings for what is left out, reads of every mapped type
 * through SqlProvider with the introspected mapping, and the options (schemas, include, exclude,
 * keys, version columns) on a second schema in the same database.
 */
import type { PGlite } from '@electric-sql/pglite';
import { writeEdmx } from '../../../lib';
import { introspect, pglite, SqlIntrospectionError, type IntrospectOptions, type SqlDatabase } from '../../../lib/sql';
import { openTestPGlite } from '../../helpers/pglite';
import type { RunningServer } from '../../helpers/server';
import { ALL_TYPES_ROW, FIXTURE_DATA, FIXTURE_OPTIONS, FIXTURE_SQL } from './fixture';
import { expectFixtureGolden, getJson, rows, serveModel, warningLines } from './support';

const SECOND_SCHEMA = `
create schema sales;
create table sales.orders (id integer primary key, ref text not null unique);
create table sales.leads (id integer primary key, customer_id integer references public.customers (id), tag varchar(30) references public.tags (name));
create table sales.moods (m mood primary key);
create table sales.no_key (x integer);
create schema empty_schema;
create schema org;
create table org.staff (id integer primary key, reports_to integer references org.staff, mentor integer references org.staff);
`;

let instance: PGlite;
let db: SqlDatabase;

beforeAll(async () => {
  instance = await openTestPGlite();
  await instance.exec(FIXTURE_SQL + FIXTURE_DATA + SECOND_SCHEMA);
  db = pglite(instance);
}, 30_000);

afterAll(async () => {
  await db.close();
  await instance.close();
});

const names = (result: Awaited<ReturnType<typeof introspect>>): string[] => result.model.defaultContainer.entitySets.map((set) => set.name);

describe('the fixture schema', () => {
  it('introspects to the golden metadata.xml and mapping.json, twice alike', async () => {
    const result = await introspect(db, FIXTURE_OPTIONS);
    expectFixtureGolden(result);
    const again = await introspect(db, FIXTURE_OPTIONS);
    expect(writeEdmx(again.model)).toBe(writeEdmx(result.model));
    expect(again.mapping).toEqual(result.mapping);
  });

  it('warns for each column type, table and view it leaves out, saying how to include it', async () => {
    const result = await introspect(db, FIXTURE_OPTIONS);
    expect(warningLines(result)).toEqual([
      'COLUMN_NOT_MAPPED public.all_types.c_tsvector',
      'COLUMN_NOT_MAPPED public.all_types.c_address',
      'COLUMN_NOT_MAPPED public.all_types.c_lsn',
      'TABLE_WITHOUT_KEY public.audit_log',
      'TABLE_WITHOUT_KEY public.plain_view',
      'NO_ETAG public.product_summary',
      'TABLE_WITHOUT_KEY public.scratch',
    ]);
    expect(result.warnings[2].message).toBe(
      'The column public.all_types.c_lsn of type pg_lsn (a write-ahead log position) is left out: it has no EDM type. A view that casts it (c_lsn::text) can show it.',
    );
    // The suggestion names a unique NOT NULL column where there is one.
    expect(result.warnings[3].message).toBe(
      "The table public.audit_log is left out: it has no primary key. Give its key columns to include it: keys: { 'audit_log': ['event_id'] }, or --key audit_log=event_id on the command line.",
    );
    expect(result.warnings[4].message).toContain("keys: { 'plain_view': ['id'] }, or --key plain_view=id");
  });

  it('makes a join table of two foreign keys forming the primary key a many-to-many association, not an entity set', async () => {
    const { model, mapping } = await introspect(db, FIXTURE_OPTIONS);
    expect(model.entitySets.has('product_tags')).toBe(false);
    expect(model.associations.get('Fixture.product_tags')?.ends.map((end) => end.multiplicity)).toEqual(['*', '*']);
    expect(mapping.associationSets.product_tags).toEqual({
      kind: 'joinTable',
      schema: 'public',
      table: 'product_tags',
      columns: { products: { id: 'product_id' }, tags: { name: 'tag_name' } },
    });
  });
});

describe('reads and writes through the introspected mapping', () => {
  let server: RunningServer;

  beforeAll(async () => {
    const { model, mapping } = await introspect(db, FIXTURE_OPTIONS);
    server = await serveModel(model, mapping, db);
  });
  afterAll(() => server.close());

  it('reads every mapped type: exact numbers, PostgreSQL text forms of arrays, ranges, JSON and enums, dates at midnight, char(n) without padding', async () => {
    const { status, d } = await getJson(server, 'all_types(1)');
    expect(status).toBe(200);
    expect(rows(d)[0]).toEqual(ALL_TYPES_ROW);
  });

  it.each([
    ["c_mood eq 'happy'", [2]],
    ["c_mood_array eq '{ok,sad}'", [1]],
    ["c_jsonb eq '[]'", [2]],
    ["c_char eq 'xyz'", [2]],
    ["startswith(c_range, '[1')", [1]],
    ["c_date ge datetime'2024-01-01T00:00' and c_date lt datetime'2024-03-01T00:00'", [1]],
    ["c_time lt time'PT9H'", [2]],
    ['c_money lt 0M', [2]],
    ['c_timetz eq null and c_inet eq null', [2]],
  ])('filters on converted columns: %s', async (filter, ids) => {
    const { status, d } = await getJson(server, `all_types?$filter=${encodeURIComponent(filter)}&$select=id`);
    expect(status).toBe(200);
    expect(rows(d).map((row) => row.id)).toEqual(ids);
  });

  it('orders and pages by converted and date columns (the skiptoken reads their values back)', async () => {
    const { d } = await getJson(server, 'all_types?$orderby=c_jsonb desc,c_date&$select=id,c_date&$top=1');
    expect(rows(d)).toEqual([{ id: 1, c_date: '/Date(1709164800000)/' }]);
    const { d: byDate } = await getJson(server, 'all_types?$orderby=c_date desc&$select=id');
    expect(rows(byDate).map((row) => row.id)).toEqual([1, 2]);
  });

  it('follows foreign keys both ways, composite keys, a self-reference, the one-to-one extension and the join table', async () => {
    const { d: customer } = await getJson(
      server,
      'customers(1)?$expand=customer_details,orders_by_customer/order_lines/product&$select=name,customer_details/notes,orders_by_customer/id,orders_by_customer/order_lines/line_no,orders_by_customer/order_lines/product/title',
    );
    expect(rows(customer)).toEqual([
      {
        name: 'Ann',
        customer_details: { notes: 'VIP' },
        orders_by_customer: [
          {
            id: '1',
            order_lines: [
              { line_no: 1, product: { title: 'Pen' } },
              { line_no: 2, product: { title: 'Ink' } },
            ],
          },
        ],
      },
    ]);
    expect(await getJson(server, 'order_lines(order_id=2L,line_no=1)/order/billing_customer')).toEqual({ status: 204, d: null });
    const { d: manager } = await getJson(server, "employees(guid'00000000-0000-0000-0000-000000000002')/manager?$select=first_name");
    expect(rows(manager)).toEqual([{ first_name: 'Eve' }]);
    const { d: reports } = await getJson(server, "employees(guid'00000000-0000-0000-0000-000000000001')/employees_by_manager?$select=first_name");
    expect(rows(reports)).toEqual([{ first_name: 'Dan' }]);
    const { d: tags } = await getJson(server, 'products?$expand=tags&$select=id,tags/name');
    expect(rows(tags)).toEqual([
      { id: 1, tags: [{ name: 'blue' }, { name: 'red' }] },
      { id: 2, tags: [{ name: 'red' }] },
    ]);
    const { d: notes } = await getJson(server, 'order_notes(order_id=1L,note_=1)?$expand=order&$select=body,order/id');
    expect(rows(notes)).toEqual([{ body: 'Gift wrap', order: { id: '1' } }]);
  });

  it('addresses and expands a char(n) key whatever its padding', async () => {
    const { status, d } = await getJson(server, "regions('N')?$expand=stores&$select=code,stores/id");
    expect(status).toBe(200);
    expect(rows(d)).toEqual([{ code: 'N', stores: [{ id: 1 }, { id: 3 }] }]);
    const { d: stores } = await getJson(server, 'stores?$expand=region&$select=id,region/code');
    expect(rows(stores)).toEqual([
      { id: 1, region: { code: 'N' } },
      { id: 2, region: { code: 'SOUT' } },
      { id: 3, region: { code: 'N' } },
    ]);
  });

  it('serves the view with its configured key', async () => {
    const { d } = await getJson(server, 'product_summary(1)');
    expect(rows(d)).toEqual([{ id: 1, title: 'Pen', tag_count: '2' }]);
  });

  it('creates through the mapping: identity columns from the database whatever the client sends, converted columns cast, expression defaults applied', async () => {
    const response = await fetch(`${server.url}/odata/customers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      // created_at (NOT NULL DEFAULT now()) is not sent: StoreGeneratedPattern="Identity" says the store makes it.
      body: JSON.stringify({ id: 99, name: 'Cy', email: 'cy@example.com', mood: 'sad' }),
    });
    expect(response.status).toBe(201);
    const created = rows(((await response.json()) as { d: unknown }).d)[0];
    expect(created).toMatchObject({ id: 3, name: 'Cy', mood: 'sad', version: 0 });
    expect(response.headers.get('location')).toBe(`${server.url}/odata/customers(3)`);
    expect(typeof created.created_at).toBe('string');
  });

  it('updates through the mapping: converted columns cast, computed columns left to the database (a body may repeat one, not change it)', async () => {
    const before = rows((await getJson(server, 'all_types(2)?$select=c_int4,c_generated')).d)[0];
    const merge = (body: Record<string, unknown>): Promise<Response> =>
      fetch(`${server.url}/odata/all_types(2)`, { method: 'MERGE', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const changed = await merge({ c_mood: 'happy', c_generated: 1 });
    expect(changed.status).toBe(400);
    expect(await changed.text()).toContain('PROPERTY_NOT_UPDATABLE');
    const response = await merge({
      c_mood: 'sad',
      c_jsonb: '{"c": 3}',
      c_char: 'q',
      c_date: '/Date(1704153600000)/',
      c_int_array: '{7,8}',
      c_generated: before.c_generated,
    });
    expect(response.status).toBe(204);
    const after = rows((await getJson(server, 'all_types(2)?$select=c_mood,c_jsonb,c_char,c_date,c_int_array,c_int4,c_generated')).d)[0];
    expect(after).toEqual({
      c_mood: 'sad',
      c_jsonb: '{"c": 3}',
      c_char: 'q',
      c_date: '/Date(1704153600000)/',
      c_int_array: '{7,8}',
      c_int4: before.c_int4,
      c_generated: before.c_generated,
    });
  });
});

describe('options', () => {
  const run = (options: IntrospectOptions) => introspect(db, { names: 'sql', ...options, namespace: 'Options' });

  it('reads the schemas given: a foreign key into a schema not read is a warning', async () => {
    const result = await run({ schemas: ['sales'] });
    expect(names(result)).toEqual(['leads', 'orders']);
    expect(warningLines(result)).toEqual([
      'KEY_NOT_SUPPORTED sales.moods',
      'TABLE_WITHOUT_KEY sales.no_key',
      'ASSOCIATION_NOT_MAPPED sales.leads.leads_customer_id_fkey',
      'ASSOCIATION_NOT_MAPPED sales.leads.leads_tag_fkey',
    ]);
    expect(result.warnings.find((warning) => warning.target === 'sales.moods')?.message).toBe(
      'The table sales.moods is left out: its key column m cannot be an OData key (its type mood cannot be compared with key values as it is).',
    );
    expect(result.warnings.find((warning) => warning.target === 'sales.leads.leads_tag_fkey')?.message).toBe(
      'The foreign key sales.leads.leads_tag_fkey is not an association: it refers to public.tags, which is not in the model.',
    );
  });

  it('qualifies the names of tables outside the first schema, so adding a schema renames nothing, and maps foreign keys across schemas', async () => {
    const result = await run({ schemas: ['public', 'sales'], include: ['orders', 'leads', 'customers'] });
    expect(names(result)).toEqual(['customers', 'orders', 'sales_leads', 'sales_orders']);
    expect(names(await run({ include: ['orders', 'leads', 'customers'] }))).toEqual(['customers', 'orders']);
    expect(result.mapping.entitySets.sales_orders).toMatchObject({ schema: 'sales', table: 'orders' });
    expect(result.model.entityTypes.get('Options.customers')?.navigationProperties.map((navigation) => navigation.name)).toEqual([
      'orders_by_billing_customer',
      'orders_by_customer',
      'orders_by_shipping_customer',
      'sales_leads',
    ]);
    const odata = await introspect(db, { schemas: ['public', 'sales'], include: ['orders', 'leads', 'customers'] });
    expect(names(odata)).toEqual(['Customers', 'Orders', 'Sales_Leads', 'Sales_Orders']);
  });

  it('names a self-reference by its column, also when the column has no _id suffix', async () => {
    const result = await run({ schemas: ['org'] });
    const staff = result.model.entityTypes.get('Options.staff');
    expect(staff?.navigationProperties.map((navigation) => `${navigation.name} ${navigation.toEnd.multiplicity}`)).toEqual([
      'mentor_staff 0..1',
      'staff_by_mentor *',
      'reports_to_staff 0..1',
      'staff_by_reports_to *',
    ]);
  });

  it('includes and excludes by table and schema patterns', async () => {
    expect(names(await run({ schemas: ['public', 'sales'], include: ['sales.*'] }))).toEqual(['sales_leads', 'sales_orders']);
    expect(names(await run({ include: ['order*', 'customers'], exclude: ['order_lines'] }))).toEqual(['customers', 'order_notes', 'orders']);
    expect(names(await run({ include: ['?ags'] }))).toEqual(['tags']);
  });

  it('takes key columns for views and tables without a primary key, and instead of a primary key; unknown names are warnings', async () => {
    const result = await run({
      schemas: ['public', 'sales'],
      include: ['audit_log', 'sales.orders', 'plain_view'],
      keys: { audit_log: ['event_id'], 'sales.orders': ['ref'], plain_view: ['nope'], missing: ['id'] },
    });
    expect(names(result)).toEqual(['audit_log', 'sales_orders']);
    expect(result.model.entityTypes.get('Options.sales_orders')?.key.map((key) => [key.name, key.nullable])).toEqual([['ref', false]]);
    expect(warningLines(result)).toEqual(['KEY_OPTION_UNUSED keys.missing', 'KEY_NOT_SUPPORTED public.plain_view']);
    expect(result.warnings[1].message).toContain('its key column nope cannot be an OData key (the view has no such column)');
  });

  it('finds version columns by name (any case) or by the @version comment marker', async () => {
    const tokens = async (options: IntrospectOptions): Promise<string[]> =>
      [...(await run({ include: ['customers', 'employees', 'products'], ...options })).model.entityTypes.values()].flatMap((type) =>
        type.concurrencyProperties.map((property) => `${type.name}.${property.name}`),
      );
    expect(await tokens({})).toEqual(['customers.version', 'employees.Version', 'products.row_stamp']);
    expect(await tokens({ versionColumns: ['EMAIL'] })).toEqual(['customers.email', 'products.row_stamp']);
  });

  it('fails with the warnings when nothing can be served, and refuses names that are not identifiers', async () => {
    await expect(run({ schemas: ['empty_schema'] })).rejects.toThrow(new SqlIntrospectionError("No table to serve in schema 'empty_schema'.", []));
    const error = await run({ include: ['scratch', 'audit_log'] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SqlIntrospectionError);
    expect((error as SqlIntrospectionError).message).toBe("No table to serve in schema 'public' (2 table(s) and view(s) read, none with a usable key).");
    expect((error as SqlIntrospectionError).warnings.map((warning) => warning.target)).toEqual(['public.audit_log', 'public.scratch']);
    await expect(introspect(db, { namespace: 'not a namespace' })).rejects.toThrow("introspect: the namespace 'not a namespace' is not a CSDL namespace name");
  });
});
