/**
 * The Catalog model: what the ODataDemo model lacks, for the SQL provider's specs. Int64, Guid and
 * composite keys; ReferentialConstraints (a required `1` end, a `1`-`0..1` pair, a cascade);
 * a self-association; many-to-many; an open type; a media link entry type; nullable and nested
 * complex properties; a millisecond and a microsecond (Precision 6) timestamp. Plus data for it.
 */
import { defineModel } from '../../../lib/edm';
import type { MemoryData } from '../../../lib/provider/entity-data';
import { seededRandom } from '../../helpers/random';

export const CATALOG = defineModel({
  namespace: 'Catalog',
  entityTypes: [
    {
      name: 'Category',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.Int32', nullable: false },
        { name: 'Name', type: 'Edm.String' },
      ],
      navigationProperties: [
        { name: 'Products', relationship: 'Catalog.Product_Category', fromRole: 'Category', toRole: 'Products' },
        { name: 'Parent', relationship: 'Catalog.Category_Parent', fromRole: 'Child', toRole: 'Parent' },
        { name: 'Children', relationship: 'Catalog.Category_Parent', fromRole: 'Parent', toRole: 'Child' },
      ],
    },
    {
      name: 'Product',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.Int32', nullable: false },
        { name: 'Name', type: 'Edm.String' },
        { name: 'Price', type: 'Edm.Decimal', nullable: false, precision: 12, scale: 2 },
        { name: 'Weight', type: 'Edm.Double' },
        { name: 'Released', type: 'Edm.DateTime' },
        { name: 'Measured', type: 'Edm.DateTimeOffset', precision: 6 },
        { name: 'Dimensions', type: 'Catalog.Dimensions' },
        { name: 'Version', type: 'Edm.Int32', nullable: false, concurrencyMode: 'Fixed' },
      ],
      navigationProperties: [
        { name: 'Category', relationship: 'Catalog.Product_Category', fromRole: 'Products', toRole: 'Category' },
        { name: 'Tags', relationship: 'Catalog.Product_Tags', fromRole: 'Products', toRole: 'Tags' },
      ],
    },
    {
      name: 'Tag',
      key: ['Code'],
      properties: [
        { name: 'Code', type: 'Edm.String', nullable: false },
        { name: 'Label', type: 'Edm.String' },
      ],
      navigationProperties: [{ name: 'Products', relationship: 'Catalog.Product_Tags', fromRole: 'Tags', toRole: 'Products' }],
    },
    {
      name: 'Customer',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.Int64', nullable: false },
        { name: 'Name', type: 'Edm.String' },
      ],
      navigationProperties: [
        { name: 'Orders', relationship: 'Catalog.Customer_Orders', fromRole: 'Customer', toRole: 'Orders' },
        { name: 'Profile', relationship: 'Catalog.Customer_Profile', fromRole: 'Customer', toRole: 'Profile' },
      ],
    },
    {
      name: 'Profile',
      key: ['CustomerID'],
      properties: [
        { name: 'CustomerID', type: 'Edm.Int64', nullable: false },
        { name: 'Bio', type: 'Edm.String' },
      ],
      navigationProperties: [{ name: 'Customer', relationship: 'Catalog.Customer_Profile', fromRole: 'Profile', toRole: 'Customer' }],
    },
    {
      name: 'Order',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.Guid', nullable: false },
        { name: 'CustomerID', type: 'Edm.Int64', nullable: false },
        { name: 'Total', type: 'Edm.Decimal', nullable: false },
        { name: 'Placed', type: 'Edm.DateTimeOffset' },
      ],
      navigationProperties: [
        { name: 'Customer', relationship: 'Catalog.Customer_Orders', fromRole: 'Orders', toRole: 'Customer' },
        { name: 'Lines', relationship: 'Catalog.Order_Lines', fromRole: 'Order', toRole: 'Lines' },
      ],
    },
    {
      name: 'Line',
      key: ['OrderID', 'No'],
      properties: [
        { name: 'OrderID', type: 'Edm.Guid', nullable: false },
        { name: 'No', type: 'Edm.Int16', nullable: false },
        { name: 'Quantity', type: 'Edm.Int32', nullable: false },
      ],
      navigationProperties: [{ name: 'Order', relationship: 'Catalog.Order_Lines', fromRole: 'Lines', toRole: 'Order' }],
    },
    {
      name: 'Note',
      key: ['ID'],
      openType: true,
      properties: [
        { name: 'ID', type: 'Edm.Int32', nullable: false },
        { name: 'Text', type: 'Edm.String' },
      ],
    },
    {
      name: 'Photo',
      key: ['ID'],
      hasStream: true,
      properties: [
        { name: 'ID', type: 'Edm.Int32', nullable: false },
        { name: 'Caption', type: 'Edm.String' },
      ],
    },
  ],
  complexTypes: [
    {
      name: 'Dimensions',
      properties: [
        { name: 'Width', type: 'Edm.Double' },
        { name: 'Height', type: 'Edm.Double' },
        { name: 'Unit', type: 'Catalog.Unit', nullable: false },
      ],
    },
    { name: 'Unit', properties: [{ name: 'Code', type: 'Edm.String' }] },
  ],
  associations: [
    {
      name: 'Product_Category',
      ends: [
        { role: 'Products', type: 'Catalog.Product', multiplicity: '*' },
        { role: 'Category', type: 'Catalog.Category', multiplicity: '0..1' },
      ],
    },
    {
      name: 'Category_Parent',
      ends: [
        { role: 'Child', type: 'Catalog.Category', multiplicity: '*' },
        { role: 'Parent', type: 'Catalog.Category', multiplicity: '0..1' },
      ],
    },
    {
      name: 'Product_Tags',
      ends: [
        { role: 'Products', type: 'Catalog.Product', multiplicity: '*' },
        { role: 'Tags', type: 'Catalog.Tag', multiplicity: '*' },
      ],
    },
    {
      name: 'Customer_Orders',
      ends: [
        { role: 'Customer', type: 'Catalog.Customer', multiplicity: '1' },
        { role: 'Orders', type: 'Catalog.Order', multiplicity: '*' },
      ],
      referentialConstraint: { principal: { role: 'Customer', propertyRefs: ['ID'] }, dependent: { role: 'Orders', propertyRefs: ['CustomerID'] } },
    },
    {
      name: 'Customer_Profile',
      ends: [
        { role: 'Customer', type: 'Catalog.Customer', multiplicity: '1', onDelete: 'Cascade' },
        { role: 'Profile', type: 'Catalog.Profile', multiplicity: '0..1' },
      ],
      referentialConstraint: { principal: { role: 'Customer', propertyRefs: ['ID'] }, dependent: { role: 'Profile', propertyRefs: ['CustomerID'] } },
    },
    {
      name: 'Order_Lines',
      ends: [
        { role: 'Order', type: 'Catalog.Order', multiplicity: '1', onDelete: 'Cascade' },
        { role: 'Lines', type: 'Catalog.Line', multiplicity: '*' },
      ],
      referentialConstraint: { principal: { role: 'Order', propertyRefs: ['ID'] }, dependent: { role: 'Lines', propertyRefs: ['OrderID'] } },
    },
  ],
  entityContainers: [
    {
      name: 'CatalogService',
      isDefaultEntityContainer: true,
      entitySets: [
        { name: 'Categories', entityType: 'Catalog.Category' },
        { name: 'Products', entityType: 'Catalog.Product' },
        { name: 'Tags', entityType: 'Catalog.Tag' },
        { name: 'Customers', entityType: 'Catalog.Customer' },
        { name: 'Profiles', entityType: 'Catalog.Profile' },
        { name: 'Orders', entityType: 'Catalog.Order' },
        { name: 'Lines', entityType: 'Catalog.Line' },
        { name: 'Notes', entityType: 'Catalog.Note' },
        { name: 'Photos', entityType: 'Catalog.Photo' },
      ],
      associationSets: [
        {
          name: 'Products_Category',
          association: 'Catalog.Product_Category',
          ends: [
            { role: 'Products', entitySet: 'Products' },
            { role: 'Category', entitySet: 'Categories' },
          ],
        },
        {
          name: 'Categories_Parent',
          association: 'Catalog.Category_Parent',
          ends: [
            { role: 'Child', entitySet: 'Categories' },
            { role: 'Parent', entitySet: 'Categories' },
          ],
        },
        {
          name: 'Products_Tags',
          association: 'Catalog.Product_Tags',
          ends: [
            { role: 'Products', entitySet: 'Products' },
            { role: 'Tags', entitySet: 'Tags' },
          ],
        },
        {
          name: 'Customers_Orders',
          association: 'Catalog.Customer_Orders',
          ends: [
            { role: 'Customer', entitySet: 'Customers' },
            { role: 'Orders', entitySet: 'Orders' },
          ],
        },
        {
          name: 'Customers_Profile',
          association: 'Catalog.Customer_Profile',
          ends: [
            { role: 'Customer', entitySet: 'Customers' },
            { role: 'Profile', entitySet: 'Profiles' },
          ],
        },
        {
          name: 'Orders_Lines',
          association: 'Catalog.Order_Lines',
          ends: [
            { role: 'Order', entitySet: 'Orders' },
            { role: 'Lines', entitySet: 'Lines' },
          ],
        },
      ],
    },
  ],
});

const TAGS = ['red', 'green', 'blue', 'Big', 'small', 'sale', 'ünï'];
const GUID = (n: number): string => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** Catalog data: links given both ways (Tags from products, Parent from children, Orders by constraint). */
export function catalogData(products = 60): MemoryData {
  const next = seededRandom(2014);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)];
  const categories = Array.from({ length: 8 }, (_, i) => ({
    ID: i,
    Name: i === 5 ? null : `Category ${String.fromCharCode(72 - i)}`,
    Parent: i < 2 ? null : i % 2,
  }));
  const items = Array.from({ length: products }, (_, i) => ({
    ID: i,
    Name: i % 9 === 0 ? null : pick(['Lamp', 'desk', 'Chair', 'Desk', 'Ünï', 'a%b']),
    Price: pick(['1', '2.5', '10.25', '99.99', '2.5']),
    Weight: i % 7 === 0 ? null : pick([0.5, 1.25, 2, 1e10, 0.1]),
    Released: i % 5 === 0 ? null : new Date(Date.UTC(2020, i % 12, 1 + (i % 27), 0, 0, 0, i % 3)).toISOString(),
    Measured: i % 4 === 0 ? null : new Date(Date.UTC(2021, 0, 1, 0, 0, i % 10, 500)).toISOString(),
    Dimensions: i % 6 === 0 ? null : { Width: pick([1, 2.5, null]), Height: 3, Unit: { Code: pick(['cm', 'in', null]) } },
    Version: i % 3,
    Category: i % 10 === 9 ? null : i % 8,
    Tags: TAGS.filter((_, t) => (i + t) % 4 === 0),
  }));
  const customers = Array.from({ length: 6 }, (_, i) => ({ ID: String(9007199254740990n + BigInt(i)), Name: `Customer ${i}` }));
  const orders = Array.from({ length: 14 }, (_, i) => ({
    ID: GUID(i),
    CustomerID: String(9007199254740990n + BigInt(i % 5)),
    Total: pick(['10', '20.5', '12345678901234.5678']),
    Placed: i % 4 === 0 ? null : new Date(Date.UTC(2022, i % 12, 2)).toISOString(),
    Customer: String(9007199254740990n + BigInt(i % 5)),
  }));
  const lines = orders.flatMap((order, o) =>
    Array.from({ length: o % 4 }, (_, n) => ({ OrderID: order.ID, No: n + 1, Quantity: (o + n) % 5, Order: order.ID })),
  );
  const profiles = customers
    .filter((_, i) => i % 2 === 0)
    .map((customer) => ({ CustomerID: customer.ID, Bio: `About ${customer.Name}`, Customer: customer.ID }));
  const notes = Array.from({ length: 12 }, (_, i) => ({
    ID: i,
    Text: `Note ${i}`,
    ...(i % 2 === 0 ? { Color: pick(['red', 'blue']) } : {}),
    ...(i % 3 === 0 ? { Size: pick([1, 2, 3]) } : { Size: 2.5 }),
    ...(i % 4 === 0 ? { Flag: i % 8 === 0 } : {}),
  }));
  const photos = Array.from({ length: 4 }, (_, i) => ({ ID: i, Caption: `Photo ${i}` }));
  return {
    Categories: categories,
    Products: items,
    Tags: TAGS.map((code) => ({ Code: code, Label: code.toUpperCase() })),
    Customers: customers,
    Profiles: profiles,
    Orders: orders,
    Lines: lines,
    Notes: notes,
    Photos: photos,
  };
}
