/**
 * introspect() on the real-schema spec database (spec/fixtures/sql/real-schema.sql) on PGlite:
 * golden metadata.xml and mapping.json in both naming styles, every navigation expanded, foreign
 * keys across integer widths (and the 400 for a value the narrower column cannot hold), keys of
 * partitioned tables from their partitions, key proposals for views from their tables, the
 * start-time check of keys nothing makes unique, interval and microsecond columns, short labels,
 * and the edit loop through metadata.xml keeping sap:quickinfo and Documentation.
 */
import type { PGlite } from '@electric-sql/pglite';
import { loadEdmx, writeEdmx } from '../../../lib';
import { checkKeys, introspect, pglite, SqlIntrospectionError, validateMapping, type SqlDatabase } from '../../../lib/sql';
import { openTestPGlite } from '../../helpers/pglite';
import { loadRealSchema } from '../../helpers/real-schema';
import type { RunningServer } from '../../helpers/server';
import { expandEveryNavigation, expectRealSchemaGolden, navigationPaths, REAL_SCHEMA_WARNINGS, realSchemaOptions } from './real-schema';
import { getJson, rows, serveModel } from './support';

let instance: PGlite;
let db: SqlDatabase;

beforeAll(async () => {
  instance = await openTestPGlite();
  await loadRealSchema(instance);
  db = pglite(instance);
}, 30_000);

afterAll(async () => {
  await db.close();
  await instance.close();
});

const warningText = (result: Awaited<ReturnType<typeof introspect>>): string[] =>
  result.warnings.map((warning) => `${warning.code} ${warning.target}: ${warning.message}`);

describe.each(['odata', 'sql'] as const)('%s names', (names) => {
  it('introspect to the golden metadata.xml and mapping.json, twice alike', async () => {
    const result = await introspect(db, realSchemaOptions(names));
    expectRealSchemaGolden(result, names);
    // category_log has no key; the two views have no row version, so no ETag.
    expect(result.warnings.map((warning) => `${warning.code} ${warning.target}`)).toEqual([
      'NO_ETAG public.active_products',
      'TABLE_WITHOUT_KEY public.category_log',
      'NO_ETAG public.order_overview',
    ]);
    const again = await introspect(db, realSchemaOptions(names));
    expect(writeEdmx(again.model)).toBe(writeEdmx(result.model));
  });

  it('introspect without the Fiori annotations to the golden -plain metadata.xml and the same mapping.json', async () => {
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

it('warns for a table and the views without a key, proposing only keys the database makes unique', async () => {
  const result = await introspect(db, { names: 'odata' });
  expect(warningText(result)).toEqual(REAL_SCHEMA_WARNINGS);
});

describe('served with OData names', () => {
  let server: RunningServer;
  let result: Awaited<ReturnType<typeof introspect>>;

  beforeAll(async () => {
    result = await introspect(db, realSchemaOptions('odata'));
    server = await serveModel(result.model, result.mapping, db);
  });
  afterAll(() => server.close());

  it('names sets plural, types singular, navigations by role', () => {
    const order = result.model.entityTypes.get('Shop.Order');
    expect(order?.properties.map((property) => property.name)).toEqual([
      'OrderID',
      'CustomerID',
      'EmployeeID',
      'ShipVia',
      'BillToAddressID',
      'ShipToAddressID',
      'Status',
      'OrderedAt',
      'ShippedAt',
      'Details',
      'ClientIp',
    ]);
    expect(order?.navigationProperties.map((navigation) => navigation.name)).toEqual([
      'OrderDetails',
      'BillToAddress',
      'Customer',
      'Employee',
      'ShipToAddress',
      'Shipper',
    ]);
    expect(result.model.entityTypes.get('Shop.Employee')?.navigationProperties.map((navigation) => navigation.name)).toEqual([
      'ReportsTo',
      'Reports',
      'Orders',
    ]);
    expect(result.model.entityTypes.get('Shop.Address')?.navigationProperties.map((navigation) => navigation.name)).toEqual([
      'OrdersByBillToAddress',
      'OrdersByShipToAddress',
    ]);
    expect(result.model.defaultContainer.entitySets.map((set) => `${set.name}:${set.entityType.name}`)).toEqual([
      'ActiveProducts:ActiveProduct',
      'Addresses:Address',
      'Albums:Album',
      'Artists:Artist',
      'Categories:Category',
      'Customers:Customer',
      'DiscountRates:DiscountRate',
      'Employees:Employee',
      'Events:Event',
      'OrderDetails:OrderDetail',
      'OrderOverviews:OrderOverview',
      'Orders:Order',
      'Products:Product',
      'Readings:Reading',
      'Sensors:Sensor',
      'Shippers:Shipper',
      'Tracks:Track',
    ]);
  });

  it('makes foreign keys across integer widths associations: the smallint column is Edm.Int32 like its key', async () => {
    const detail = result.model.entityTypes.get('Shop.OrderDetail');
    expect(detail?.properties.find((property) => property.name === 'OrderID')?.type).toMatchObject({ name: 'Edm.Int32' });
    expect(result.model.entityTypes.get('Shop.Product')?.properties.find((property) => property.name === 'CategoryID')?.type).toMatchObject({
      name: 'Edm.Int32',
    });
    const { d } = await getJson(server, 'OrderDetails(OrderID=10248,ProductID=2)?$expand=Order,DiscountRate&$select=Quantity,Order/OrderID,DiscountRate/Label');
    expect(rows(d)).toEqual([{ Quantity: 10, Order: { OrderID: 10248 }, DiscountRate: { Label: 'Regular' } }]);
  });

  it('refuses a value the narrower column cannot hold with a 400, and stores nothing', async () => {
    const response = await fetch(`${server.url}/odata/OrderDetails`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ OrderID: 70000, ProductID: 1, UnitPrice: '1', Quantity: 1 }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('BODY_INVALID');
    expect((await instance.query('select count(*)::int as n from order_details')).rows).toEqual([{ n: 3 }]);
  });

  it('takes a partitioned table’s key and foreign keys from its partitions, and lists a key without the partition key for the check', async () => {
    expect(result.model.entityTypes.get('Shop.Reading')?.key.map((property) => property.name)).toEqual(['ReadingID']);
    expect(result.model.entityTypes.get('Shop.Event')?.key.map((property) => property.name)).toEqual(['EventID', 'OccurredOn']);
    const { d } = await getJson(server, 'Sensors(1)/Readings?$select=ReadingID&$orderby=ReadingID');
    expect(rows(d)).toEqual([{ ReadingID: '1' }, { ReadingID: '3' }]);
    expect(result.uncheckedKeys).toEqual([
      { entitySet: 'OrderOverviews', schema: 'public', table: 'order_overview', columns: ['order_id'] },
      { entitySet: 'Readings', schema: 'public', table: 'readings', columns: ['reading_id'] },
    ]);
    expect(await checkKeys(db, result)).toEqual([]);
  });

  it('refuses a key two rows share at the start-time check, in one line', async () => {
    const shared = await introspect(db, { keys: { track: ['album_id'] }, include: ['track', 'album', 'artist'] });
    expect(shared.uncheckedKeys).toEqual([{ entitySet: 'Tracks', schema: 'public', table: 'track', columns: ['album_id'] }]);
    await expect(checkKeys(db, shared)).rejects.toThrow(
      new SqlIntrospectionError(
        "The key (album_id) of public.track (entity set Tracks) does not identify one row: two or more rows have album_id = '2'. Give key columns that are unique and never null.",
        [],
      ),
    );
  });

  it('serves an interval as its ISO 8601 duration and writes one back; a timestamp(6) as Precision 3, its digits in the mapping', async () => {
    const { d } = await getJson(server, 'Tracks?$select=TrackID,Duration&$orderby=TrackID');
    expect(rows(d)).toEqual([
      { TrackID: 1, Duration: 'PT5M43.719S' },
      { TrackID: 2, Duration: 'PT5M42.5S' },
      { TrackID: 3, Duration: null },
    ]);
    const response = await fetch(`${server.url}/odata/Tracks(3)`, {
      method: 'MERGE',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Duration: 'P1DT2H0.25S' }),
    });
    expect(response.status).toBe(204);
    expect((await instance.query("select duration = interval '1 day 2 hours 0.25 seconds' as same from track where track_id = 3")).rows).toEqual([
      { same: true },
    ]);
    const orderedAt = result.model.entityTypes.get('Shop.Order')?.properties.find((property) => property.name === 'OrderedAt');
    expect(orderedAt?.precision).toBe(3);
    expect(result.mapping.entitySets.Orders.columnTypes).toEqual({
      Status: '"public"."order_status"',
      OrderedAt: 'timestamp(6) without time zone',
      ShippedAt: 'timestamp(6) with time zone',
      Details: 'jsonb',
      ClientIp: 'inet',
    });
    const { d: filtered } = await getJson(server, `Orders?$filter=${encodeURIComponent("OrderedAt ge datetime'2024-07-04T10:00:00.123'")}&$select=OrderID`);
    expect(rows(filtered)).toEqual([{ OrderID: 10248 }, { OrderID: 10249 }]);
  });

  it('keeps labels short: a long comment is the quick info and the documentation, the label a readable name', () => {
    const xml = writeEdmx(result.model);
    expect(xml).toContain(
      '<Property Name="UnitPrice" Type="Edm.Decimal" Nullable="false" Precision="10" Scale="2" DefaultValue="0" sap:label="Unit Price" sap:quickinfo="The price of one unit in the currency of the company, before any discount an order line grants; what the order line stores is the price at the time of the order.">',
    );
    expect(xml).toContain('<Property Name="ProductName" Type="Edm.String" Nullable="false" MaxLength="40" sap:label="Product name">');
  });

  it('gives Fiori what it needs: keys not updatable, labels, searchable sets, value lists and texts of foreign keys, UI annotations', () => {
    const order = result.model.entityTypes.get('Shop.Order');
    const sap = (element: { annotationAttributes: readonly { name: string; value: string }[] } | undefined): string[] =>
      (element?.annotationAttributes ?? []).map((attribute) => `${attribute.name}=${attribute.value}`);
    expect(sap(order?.propertiesByName.get('OrderID'))).toEqual(['label=Order ID', 'updatable=false']);
    expect(sap(order?.propertiesByName.get('ShipVia'))).toEqual(['label=Ship Via', 'value-list=standard']);
    expect(sap(result.model.entityTypes.get('Shop.Product')?.propertiesByName.get('ProductName'))).toEqual(['label=Product name']);
    const searchable = result.model.defaultContainer.entitySets.filter((set) => sap(set).includes('searchable=true')).map((set) => set.name);
    // OrderDetails and Readings have no string property to search in.
    expect(result.model.defaultContainer.entitySets.map((set) => set.name).filter((name) => !searchable.includes(name))).toEqual(['OrderDetails', 'Readings']);
    const [schema] = result.model.schemas;
    const targets = schema.vocabularyAnnotations.map((group) => `${group.target}: ${group.annotations.map((annotation) => annotation.term).join(', ')}`);
    expect(targets.filter((target) => target.startsWith('Shop.Order'))).toEqual([
      'Shop.OrderDetail: UI.LineItem, UI.SelectionFields, UI.HeaderInfo, UI.Facets, UI.FieldGroup',
      'Shop.OrderDetail/OrderID: Common.ValueList',
      'Shop.OrderDetail/ProductID: Common.ValueList, Common.Text',
      'Shop.OrderDetail/Discount: Common.ValueList, Common.Text',
      'Shop.OrderOverview: UI.LineItem, UI.SelectionFields, UI.HeaderInfo, UI.Facets, UI.FieldGroup',
      'Shop.Order: UI.LineItem, UI.SelectionFields, UI.HeaderInfo, UI.Facets, UI.FieldGroup',
      'Shop.Order/CustomerID: Common.ValueList, Common.Text',
      'Shop.Order/EmployeeID: Common.ValueList, Common.Text',
      'Shop.Order/ShipVia: Common.ValueList, Common.Text',
      'Shop.Order/BillToAddressID: Common.ValueList',
      'Shop.Order/ShipToAddressID: Common.ValueList',
    ]);
    const xml = writeEdmx(result.model);
    expect(xml).toContain('<Annotation Term="Common.Text" Path="Shipper/CompanyName" />');
    expect(xml).toContain('<Annotation Term="Common.Text" Path="ReportsTo/LastName" />');
  });

  it('serves every path the annotations name: the texts of foreign keys expand, value lists read their sets', async () => {
    for (const path of [
      'Orders?$expand=Customer,Employee,Shipper&$select=OrderID,Customer/CompanyName,Employee/LastName,Shipper/CompanyName',
      'Shippers?$select=ShipperID,CompanyName&search=speedy',
    ]) {
      const { status } = await getJson(server, path);
      expect([path, status]).toEqual([path, 200]);
    }
    const { d } = await getJson(server, 'Shippers?$select=ShipperID,CompanyName&search=speedy');
    expect(rows(d)).toEqual([{ ShipperID: 1, CompanyName: 'Speedy Express' }]);
  });

  it('refuses a metadata.xml whose annotations target a renamed property, naming the target', () => {
    const renamed = writeEdmx(result.model).replace(/Name="ShipVia"/g, 'Name="ShipperID"');
    expect(() => loadEdmx(renamed)).toThrow(
      "Schema 'Shop' / Annotations 'Shop.Order/ShipVia': Target: 'Shop.Order' has no property or navigation property 'ShipVia'",
    );
  });

  it('serves the metadata.xml and mapping.json it wrote, labels, quick info and documentation included', async () => {
    const xml = writeEdmx(result.model);
    const model = loadEdmx(xml);
    const mapping = validateMapping(model, JSON.parse(JSON.stringify(result.mapping)));
    const again = await serveModel(model, mapping, db);
    try {
      const metadata = await fetch(`${again.url}/odata/$metadata`);
      expect(await metadata.text()).toBe(xml);
      const { status } = await getJson(again, 'Orders(10248)?$expand=Customer,OrderDetails/Product');
      expect(status).toBe(200);
    } finally {
      await again.close();
    }
  });
});
