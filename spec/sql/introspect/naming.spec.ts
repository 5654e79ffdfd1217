/**
 * The naming rules as a table: SQL names in (tables with their columns, foreign keys, join
 * tables), model names out, in both styles. Each table is listed as
 * `Type Set (properties) [navigations]`, navigations in foreign-key order then join tables,
 * followed by the association names.
 */
import { nameModel, type ModelNames, type NamingInput, type NamingStyle } from '../../../lib/sql/introspect/naming';

/** A compact schema: `schema.table: col, col`, foreign keys `table.col,col -> table`, joins `table: a.col -> table, b.col -> table`. */
interface Schema {
  readonly tables: readonly string[];
  readonly foreignKeys?: readonly string[];
  readonly joins?: readonly string[];
  readonly firstSchema?: string;
}

function inputOf(schema: Schema): NamingInput {
  const tables = schema.tables.map((line) => {
    const [qualified, columns] = line.split(': ');
    const [schemaName, name] = qualified.includes('.') ? qualified.split('.') : ['public', qualified];
    return { schema: schemaName, name, columns: columns.split(', ') };
  });
  const index = (name: string): number => {
    const [schemaName, table] = name.includes('.') ? name.split('.') : ['public', name];
    const found = tables.findIndex((candidate) => candidate.schema === schemaName && candidate.name === table);
    if (found < 0) throw new Error(`no table ${name}`);
    return found;
  };
  const foreignKeys = (schema.foreignKeys ?? []).map((line) => {
    const [from, to] = line.split(' -> ');
    const dot = from.lastIndexOf('.');
    const table = from.slice(0, dot);
    const columns = from.slice(dot + 1).split(',');
    return { dependent: index(table), principal: index(to), columns, constraint: `${table.replace('.', '_')}_${columns.join('_')}_fkey` };
  });
  const joins = (schema.joins ?? []).map((line) => {
    const [table, ends] = line.split(': ');
    const [first, second] = ends.split(', ').map((end) => {
      const [column, target] = end.split(' -> ');
      return { target: index(target), columns: [column] };
    });
    return { schema: 'public', table, ends: [first, second] as const };
  });
  return { tables, foreignKeys, joins, firstSchema: schema.firstSchema ?? 'public' };
}

/** The names as lines: one per table, then the associations. */
function lines(input: NamingInput, names: ModelNames): string[] {
  const tables = input.tables.map((_, t) => {
    const { type, set, properties } = names.tables[t];
    const navigations = [
      ...input.foreignKeys.flatMap((key, i) => [
        ...(key.dependent === t ? [names.foreignKeys[i].toOne] : []),
        ...(key.principal === t ? [names.foreignKeys[i].toMany] : []),
      ]),
      ...input.joins.flatMap((join, j) => join.ends.flatMap((end, e) => (end.target === t ? [names.joins[j].navigations[e]] : []))),
    ];
    return `${type} ${set} (${properties.join(' ')}) [${navigations.join(' ')}]`;
  });
  const associations = [...names.foreignKeys.map((key) => key.association), ...names.joins.map((join) => join.association)];
  return [...tables, `associations: ${associations.join(' ')}`];
}

const name = (schema: Schema, style: NamingStyle): string[] => {
  const input = inputOf(schema);
  return lines(input, nameModel(input, style));
};

const NORTHWIND: Schema = {
  tables: [
    'customers: customer_id, company_name',
    'employees: employee_id, last_name, reports_to',
    'shippers: shipper_id, company_name',
    'orders: order_id, customer_id, employee_id, ship_via, order_date',
    'order_details: order_id, product_id, unit_price',
    'products: product_id, product_name',
  ],
  foreignKeys: [
    'employees.reports_to -> employees',
    'orders.customer_id -> customers',
    'orders.employee_id -> employees',
    'orders.ship_via -> shippers',
    'order_details.order_id -> orders',
    'order_details.product_id -> products',
  ],
};

describe('odata names', () => {
  it.each<[string, Schema, string[]]>([
    [
      'an order-entry schema: sets plural, types singular, properties with ID, a key without suffix by its target, a self-reference by its column',
      NORTHWIND,
      [
        'Customer Customers (CustomerID CompanyName) [Orders]',
        'Employee Employees (EmployeeID LastName ReportsToID) [ReportsTo Reports Orders]',
        'Shipper Shippers (ShipperID CompanyName) [Orders]',
        'Order Orders (OrderID CustomerID EmployeeID ShipVia OrderDate) [Customer Employee Shipper OrderDetails]',
        'OrderDetail OrderDetails (OrderID ProductID UnitPrice) [Order Product]',
        'Product Products (ProductID ProductName) [OrderDetails]',
        'associations: Employee_ReportsTo Order_Customer Order_Employee Order_Shipper OrderDetail_Order OrderDetail_Product',
      ],
    ],
    [
      'two keys to one table: to-one by role, the inverses by role too',
      {
        tables: ['addresses: address_id, street', 'orders: order_id, bill_to_address_id, ship_to_address_id'],
        foreignKeys: ['orders.bill_to_address_id -> addresses', 'orders.ship_to_address_id -> addresses'],
      },
      [
        'Address Addresses (AddressID Street) [OrdersByBillToAddress OrdersByShipToAddress]',
        'Order Orders (OrderID BillToAddressID ShipToAddressID) [BillToAddress ShipToAddress]',
        'associations: Order_BillToAddress Order_ShipToAddress',
      ],
    ],
    [
      'two keys to one table without key suffixes: the columns take ID, the navigations their names',
      {
        tables: ['addresses: address_id, street', 'orders: order_id, bill_to, ship_to'],
        foreignKeys: ['orders.bill_to -> addresses', 'orders.ship_to -> addresses'],
      },
      [
        'Address Addresses (AddressID Street) [OrdersByBillTo OrdersByShipTo]',
        'Order Orders (OrderID BillToID ShipToID) [BillTo ShipTo]',
        'associations: Order_BillTo Order_ShipTo',
      ],
    ],
    [
      'a key whose role is not its table: by role; one key between the two tables: the inverse is the plain set name',
      {
        tables: ['employee: employee_id, name', 'customer: customer_id, support_rep_id'],
        foreignKeys: ['customer.support_rep_id -> employee'],
      },
      ['Employee Employees (EmployeeID Name) [Customers]', 'Customer Customers (CustomerID SupportRepID) [SupportRep]', 'associations: Customer_SupportRep'],
    ],
    [
      'self-references: by role, the to-many by the role without its preposition, else by the set and role',
      {
        tables: ['employees: employee_id, manager_id, reports_to', 'categories: category_id, parent_id'],
        foreignKeys: ['employees.manager_id -> employees', 'employees.reports_to -> employees', 'categories.parent_id -> categories'],
      },
      [
        'Employee Employees (EmployeeID ManagerID ReportsToID) [Manager EmployeesByManager ReportsTo Reports]',
        'Category Categories (CategoryID ParentID) [Parent CategoriesByParent]',
        'associations: Employee_Manager Employee_ReportsTo Category_Parent',
      ],
    ],
    [
      'singular table names, irregular and uncountable plurals, run-together and upper-case names',
      {
        tables: [
          'artist: artist_id, name',
          'album: album_id, title, artist_id',
          'track: track_id, album_id',
          'people: person_id, full_name',
          'staff: staff_id, person_id',
          'orderdetails: orderdetailid, qty',
          'ORDER_LINES: ORDER_ID, LINE_NO',
        ],
        foreignKeys: ['album.artist_id -> artist', 'track.album_id -> album', 'staff.person_id -> people'],
      },
      [
        'Artist Artists (ArtistID Name) [Albums]',
        'Album Albums (AlbumID Title ArtistID) [Artist Tracks]',
        'Track Tracks (TrackID AlbumID) [Album]',
        'Person People (PersonID FullName) [Staff]',
        'Staff Staff (StaffID PersonID) [Person]',
        'Orderdetail Orderdetails (Orderdetailid Qty) []',
        'OrderLine OrderLines (OrderID LineNo) []',
        'associations: Album_Artist Track_Album Staff_Person',
      ],
    ],
    [
      'collisions: two tables of one name are numbered, a navigation a property has taken gets Navigation, two columns of one name are numbered',
      {
        tables: ['order: id, customer_id', 'orders: id', 'customers: id', 'invoices: id, customer, customer_id, CustomerID'],
        foreignKeys: ['order.customer_id -> customers', 'invoices.customer_id -> customers'],
      },
      [
        'Order Orders (ID CustomerID) [Customer]',
        'Order_2 Orders_2 (ID) []',
        'Customer Customers (ID) [Orders Invoices]',
        'Invoice Invoices (ID Customer CustomerID CustomerID_2) [CustomerNavigation]',
        'associations: Order_Customer Invoice_CustomerNavigation',
      ],
    ],
    [
      'a key without suffix named like its target: the column takes ID',
      { tables: ['customers: code, name', 'orders: id, customer'], foreignKeys: ['orders.customer -> customers'] },
      ['Customer Customers (Code Name) [Orders]', 'Order Orders (ID CustomerID) [Customer]', 'associations: Order_Customer'],
    ],
    [
      'schemas: the first keeps plain names, the others are qualified (adding a schema renames nothing)',
      {
        tables: ['orders: id', 'sales.orders: id, order_id', 'sales.leads: id'],
        foreignKeys: ['sales.orders.order_id -> orders'],
      },
      [
        'Order Orders (ID) [Sales_Orders]',
        'Sales_Order Sales_Orders (ID OrderID) [Order]',
        'Sales_Lead Sales_Leads (ID) []',
        'associations: Sales_Order_Order',
      ],
    ],
    [
      'join tables: the other set by name, or by column when two join one pair or a table joins itself',
      {
        tables: ['products: id', 'tags: name', 'people: id'],
        joins: ['product_tags: product_id -> products, tag_name -> tags', 'friendships: person_id -> people, friend_id -> people'],
      },
      ['Product Products (ID) [Tags]', 'Tag Tags (Name) [Products]', 'Person People (ID) [Friends People]', 'associations: Product_Tag Person_Person'],
    ],
  ])('%s', (_, schema, expected) => {
    expect(name(schema, 'odata')).toEqual(expected);
  });
});

describe('sql names', () => {
  it.each<[string, Schema, string[]]>([
    [
      'an order-entry schema: SQL names, to-one by the column without its suffix, else by the table',
      NORTHWIND,
      [
        'customers customers (customer_id company_name) [orders]',
        'employees employees (employee_id last_name reports_to) [reports_to_employees employees_by_reports_to orders]',
        'shippers shippers (shipper_id company_name) [orders]',
        'orders orders (order_id customer_id employee_id ship_via order_date) [customer employee shippers order_details]',
        'order_details order_details (order_id product_id unit_price) [order product]',
        'products products (product_id product_name) [order_details]',
        'associations: employees_reports_to_fkey orders_customer_id_fkey orders_employee_id_fkey orders_ship_via_fkey order_details_order_id_fkey order_details_product_id_fkey',
      ],
    ],
    [
      'two keys to one table and a second schema (qualified, also without a collision)',
      {
        tables: ['addresses: address_id', 'orders: order_id, bill_to_address_id, ship_to_address_id', 'sales.leads: id'],
        foreignKeys: ['orders.bill_to_address_id -> addresses', 'orders.ship_to_address_id -> addresses'],
      },
      [
        'addresses addresses (address_id) [orders_by_bill_to_address orders_by_ship_to_address]',
        'orders orders (order_id bill_to_address_id ship_to_address_id) [bill_to_address ship_to_address]',
        'sales_leads sales_leads (id) []',
        'associations: orders_bill_to_address_id_fkey orders_ship_to_address_id_fkey',
      ],
    ],
  ])('%s', (_, schema, expected) => {
    expect(name(schema, 'sql')).toEqual(expected);
  });
});
