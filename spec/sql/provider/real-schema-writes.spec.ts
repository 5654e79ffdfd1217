/**
 * Writes over the shared real-schema spec database (spec/fixtures/sql/real-schema.sql, introspected
 * with OData names and Fiori annotations, as the command line serves it) on PGlite: POST on every
 * creatable set (a table with a DO ALSO rule, partitioned tables keyed on the parent and on the
 * partitions only, a simple view, a view with INSTEAD OF triggers, enum, array, jsonb, inet,
 * domain and interval columns), order lines created through their order and inline with a new
 * one, values the database refuses as 400s naming the property, the reader role's missing INSERT
 * as 403, and ETags from the row version.
 */
import type { PGlite } from '@electric-sql/pglite';
import { pglite, type SqlDatabase } from '../../../lib/sql';
import { openTestPGlite } from '../../helpers/pglite';
import { loadRealSchema } from '../../helpers/real-schema';
import { realSchemaOptions } from '../introspect/real-schema';
import { serveIntrospected, type IntrospectedService } from './introspected';

const READER = 'writes_reader';

let instance: PGlite;
let db: SqlDatabase;
let service: IntrospectedService;

beforeAll(async () => {
  instance = await openTestPGlite();
  await loadRealSchema(instance, READER);
  db = pglite(instance);
  service = await serveIntrospected(db, realSchemaOptions('odata'));
}, 60_000);

afterAll(async () => {
  await service.server.close();
  await db.close();
  await instance.close();
});

const date = (iso: string): string => `/Date(${Date.parse(iso)})/`;

/** An entry of every creatable set, by table and column. */
const NEW_ENTRIES: readonly (readonly [string, Readonly<Record<string, unknown>>])[] = [
  ['categories', { category_id: 3, category_name: 'Produce' }],
  ['products', { product_id: 4, product_name: 'Tofu', category_id: 1, unit_price: '23.25' }],
  ['customers', { customer_id: 'BERGS', company_name: 'Berglunds', email: 'christina@berglunds.example', tags: '{north}' }],
  ['shippers', { shipper_id: 3, company_name: 'Federal Shipping' }],
  ['employees', { employee_id: 4, last_name: 'Peacock', first_name: 'Margaret', reports_to: 2 }],
  ['addresses', { address_id: 3, street: 'Berguvsvägen 8', city: 'Luleå' }],
  [
    'orders',
    { order_id: 10250, customer_id: 'ALFKI', ordered_at: date('2024-07-08T10:00:00Z'), status: 'new', details: '{"gift": false}', client_ip: '10.0.0.1' },
  ],
  ['discount_rates', { rate: '0.1', label: 'Ten percent' }],
  ['order_details', { order_id: 10249, product_id: 1, unit_price: '18' }],
  ['artist', { artist_id: 3, name: 'Aerosmith' }],
  ['album', { album_id: 3, title: 'Big Ones', artist_id: 3 }],
  ['track', { track_id: 4, name: 'Walk On Water', album_id: 3, duration: 'PT4M55S' }],
  ['events', { event_id: '3', occurred_on: date('2024-06-01T00:00:00Z'), kind: 'pause' }],
  ['sensors', { sensor_id: 3, location: 'Garden' }],
  ['readings', { reading_id: '4', sensor_id: 3, taken_on: date('2024-06-01T00:00:00Z'), value: '15.5' }],
  ['active_products', { product_id: 5, product_name: 'Ikura', unit_price: '31' }],
  ['order_overview', { order_id: 10251, customer_id: 'ANATR', status: 'new' }],
];

describe('POST on every creatable set of the shared schema', () => {
  it('marks no set of it sap:creatable="false" but the ones POST cannot work on (none), and records the insert modes', () => {
    const sets = service.result.model.defaultContainer.entitySets;
    const notCreatable = sets.filter((set) => set.annotationAttributes.some((attribute) => attribute.name === 'creatable' && attribute.value === 'false'));
    expect(notCreatable.map((set) => set.name)).toEqual([]);
    const modes = Object.fromEntries(
      ['categories', 'events', 'readings', 'active_products', 'order_overview', 'orders'].map((table) => [
        table,
        service.result.mapping.entitySets[service.setOf(table)].insert,
      ]),
    );
    expect(modes).toEqual({
      categories: 'readBack',
      events: undefined,
      readings: 'checked',
      active_products: 'checked',
      order_overview: 'checked',
      orders: undefined,
    });
  });

  it.each(NEW_ENTRIES)('POST %s creates the entry, which then reads back; its key again is 409', async (table, columns) => {
    const created = await service.send('POST', service.setOf(table), service.body(table, columns));
    expect([created.status, created.text.slice(0, 300)]).toEqual([201, expect.anything()]);
    const uri = (created.json().d?.__metadata as { uri: string }).uri;
    expect((await fetch(uri, { headers: { accept: 'application/json' } })).status).toBe(200);
    const again = await service.send('POST', service.setOf(table), service.body(table, columns));
    expect(again.status).toBe(409);
  });

  it('wrote what the rule, the view trigger and the partitions hold', async () => {
    expect((await instance.query('select category_id from category_log where category_id = 3')).rows).toEqual([{ category_id: 3 }]);
    expect((await instance.query('select customer_id from orders where order_id = 10251')).rows).toEqual([{ customer_id: 'ANATR' }]);
    expect((await instance.query('select reading_id::text as id from readings_2024 where reading_id = 4')).rows).toEqual([{ id: '4' }]);
  });
});

describe('order lines from their order', () => {
  it('POST Orders(10248)/<lines> takes the order’s key into the line’s', async () => {
    const lines = service.navigationOf('orders', 'order_details');
    const created = await service.send(
      'POST',
      `${service.setOf('orders')}(10248)/${lines}`,
      service.body('order_details', { product_id: 3, unit_price: '10' }),
    );
    expect(created.status).toBe(201);
    expect(created.json().d).toMatchObject(service.body('order_details', { order_id: 10248, product_id: 3 }));
  });

  it('a deep insert of an order with its lines keys each line by the new order', async () => {
    const lines = service.navigationOf('orders', 'order_details');
    const order = {
      ...service.body('orders', { order_id: 10252, customer_id: 'ALFKI', ordered_at: date('2024-07-09T10:00:00Z') }),
      [lines]: [service.body('order_details', { product_id: 1, unit_price: '18' }), service.body('order_details', { product_id: 2, unit_price: '19' })],
    };
    expect((await service.send('POST', service.setOf('orders'), order)).status).toBe(201);
    expect((await instance.query('select product_id from order_details where order_id = 10252 order by product_id')).rows).toEqual([
      { product_id: 1 },
      { product_id: 2 },
    ]);
  });
});

describe('values the database refuses, and the reader role', () => {
  it.each([
    ['status', 'lost', 'is not one of the values its column allows'],
    ['client_ip', 'not an address', 'is not an IP address or network its column accepts'],
    ['details', '{"gift":', 'is not valid JSON'],
  ])('MERGE Orders(10249) with a bad %s is 400 BODY_INVALID naming the property', async (column, value, problem) => {
    const answer = await service.send('MERGE', `${service.setOf('orders')}(10249)`, service.body('orders', { [column]: value }));
    expect([answer.status, answer.json().error?.code]).toEqual([400, 'BODY_INVALID']);
    expect(answer.json().error?.message?.value).toBe(
      `The request body is invalid: '${service.propertyOf('orders', column)}' of '${service.setOf('orders')}' ${problem}.`,
    );
  });

  // The dependent property of a smallint foreign key to an integer key takes the key's wider type.
  it.each([
    ['POST', 'order_details', '', { order_id: 70000, product_id: 1, unit_price: '1' }, 'order_id'],
    ['MERGE', 'products', '(1)', { category_id: -40000 }, 'category_id'],
  ])(
    '%s %s with a foreign key its smallint column cannot hold is 400 BODY_INVALID naming the property, and stores nothing',
    async (method, table, key, columns, column) => {
      const before = (await instance.query(`select * from ${table} order by 1, 2`)).rows;
      const answer = await service.send(method, `${service.setOf(table)}${key}`, service.body(table, columns));
      expect([answer.status, answer.json().error?.code]).toEqual([400, 'BODY_INVALID']);
      expect(answer.json().error?.message?.value).toBe(
        `The request body is invalid: '${service.propertyOf(table, column)}' of '${service.setOf(table)}' is out of the range its column can hold.`,
      );
      expect((await instance.query(`select * from ${table} order by 1, 2`)).rows).toEqual(before);
    },
  );

  it('MERGE Customers(ALFKI) with a bad array is 400 BODY_INVALID naming the property', async () => {
    const answer = await service.send('MERGE', `${service.setOf('customers')}('ALFKI')`, service.body('customers', { tags: '{north' }));
    expect([answer.status, answer.json().error?.code]).toEqual([400, 'BODY_INVALID']);
    expect(answer.json().error?.message?.value).toContain(`'${service.propertyOf('customers', 'tags')}' of '${service.setOf('customers')}' is not an array`);
  });

  it('MERGE Customers(ALFKI) breaking the e-mail domain’s CHECK is 400 BODY_INVALID (a domain over text is written as text: the property is not named)', async () => {
    const answer = await service.send('MERGE', `${service.setOf('customers')}('ALFKI')`, service.body('customers', { email: 'no at sign' }));
    expect([answer.status, answer.json().error?.code]).toEqual([400, 'BODY_INVALID']);
    expect(answer.json().error?.message?.value).toBe(
      `The request body is invalid: a value of '${service.setOf('customers')}' breaks a constraint of its type.`,
    );
    expect(answer.text).not.toMatch(/email_address|check constraint/);
  });

  it('answers the reader role’s POST on shippers (no INSERT) 403, and lets it update them', async () => {
    await instance.exec(`set role ${READER}`);
    try {
      const refused = await service.send('POST', service.setOf('shippers'), service.body('shippers', { shipper_id: 9, company_name: 'Nope' }));
      expect([refused.status, refused.json().error?.code]).toEqual([403, 'FORBIDDEN']);
      const updated = await service.send('MERGE', `${service.setOf('shippers')}(1)`, service.body('shippers', { company_name: 'Speedy' }));
      expect(updated.status).toBe(204);
    } finally {
      await instance.exec('reset role');
    }
  });
});

describe('ETags from the row version', () => {
  it('gives orders a row-version ETag that a stale If-Match cannot pass', async () => {
    const path = `${service.setOf('orders')}(10248)`;
    const read = await service.send('GET', path);
    expect(read.etag).toMatch(/^W\/"\d+"$/);
    const written = await service.send('MERGE', path, service.body('orders', { status: 'cancelled' }), { 'if-match': read.etag ?? '' });
    expect(written.status).toBe(204);
    expect((await service.send('MERGE', path, service.body('orders', { status: 'new' }), { 'if-match': read.etag ?? '' })).status).toBe(412);
    expect((await service.send('GET', path)).etag).toBe(written.etag);
  });
});
