/**
 * The conformance fixture's model: small, but with every shape a provider must store and query
 * exactly. Items carry one nullable property of each primitive type the filter cases need (with
 * nulls, duplicates, Int64 beyond 2^53, 30-digit Decimals, non-ASCII and supplementary
 * characters); Categories, Tags, Customers, Orders and OrderLines give to-one, to-many,
 * many-to-many, required (multiplicity 1), cascading and refused-delete associations, a composite
 * key with an Int64 part, a complex property, defaults and a ConcurrencyMode="Fixed" version;
 * Deliveries are items whose key holds their order's (a ReferentialConstraint);
 * Events hold the date/time values paging must not lose (and Edm.Time and Edm.Binary values),
 * Moments timestamps with microseconds and a store-generated Joined on Customers;
 * Photos are media link entries and Notes an open type.
 */
import { defineModel } from '../index';
import type { EdmModel, SingleSchemaDefinition } from '../index';

/** The namespace of the fixture's types (`Conformance.Item`). */
const FIXTURE_NAMESPACE = 'Conformance';

const nonNull = { nullable: false } as const;

/** CSDL's `annotation:StoreGeneratedPattern="Identity"`: the store makes the value when a row is inserted. */
const storeGenerated = {
  annotationAttributes: [
    { namespace: 'http://schemas.microsoft.com/ado/2009/02/edm/annotation', prefix: 'annotation', name: 'StoreGeneratedPattern', value: 'Identity' },
  ],
} as const;

const DEFINITION: SingleSchemaDefinition = {
  namespace: FIXTURE_NAMESPACE,
  complexTypes: [
    {
      name: 'Address',
      properties: [
        { name: 'Street', type: 'Edm.String' },
        { name: 'City', type: 'Edm.String' },
      ],
    },
  ],
  entityTypes: [
    {
      name: 'Item',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.Int32', ...nonNull },
        { name: 'Name', type: 'Edm.String', ...nonNull },
        { name: 'Note', type: 'Edm.String' },
        { name: 'Rank', type: 'Edm.Int32' },
        { name: 'Big', type: 'Edm.Int64' },
        { name: 'Amount', type: 'Edm.Decimal', precision: 30, scale: 10 },
        { name: 'Ratio', type: 'Edm.Double' },
        { name: 'Flag', type: 'Edm.Boolean' },
        { name: 'Created', type: 'Edm.DateTime', ...nonNull },
        { name: 'Updated', type: 'Edm.DateTimeOffset' },
        { name: 'Code', type: 'Edm.Guid' },
      ],
      navigationProperties: [
        { name: 'Category', relationship: 'Conformance.Item_Category', fromRole: 'Items', toRole: 'Category' },
        { name: 'Tags', relationship: 'Conformance.Item_Tags', fromRole: 'Items', toRole: 'Tags' },
      ],
    },
    {
      name: 'Category',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.Int32', ...nonNull },
        { name: 'Name', type: 'Edm.String', ...nonNull },
      ],
      navigationProperties: [{ name: 'Items', relationship: 'Conformance.Item_Category', fromRole: 'Category', toRole: 'Items' }],
    },
    {
      name: 'Tag',
      key: ['Code'],
      properties: [
        { name: 'Code', type: 'Edm.String', ...nonNull },
        { name: 'Label', type: 'Edm.String' },
      ],
      navigationProperties: [{ name: 'Items', relationship: 'Conformance.Item_Tags', fromRole: 'Tags', toRole: 'Items' }],
    },
    {
      name: 'Customer',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.Int32', ...nonNull },
        { name: 'Name', type: 'Edm.String', ...nonNull },
        { name: 'Address', type: 'Conformance.Address' },
        { name: 'Status', type: 'Edm.String', ...nonNull, defaultValue: 'new' },
        { name: 'Tier', type: 'Edm.Int16', ...nonNull, defaultValue: '1' },
        { name: 'Credit', type: 'Edm.Decimal', precision: 12, scale: 2, defaultValue: '100.5' },
        { name: 'Version', type: 'Edm.Int32', ...nonNull, concurrencyMode: 'Fixed' },
        // Left to the store on create: a store that keeps its defaults sets it (DEFAULT now()), else null.
        { name: 'Joined', type: 'Edm.DateTimeOffset', ...storeGenerated },
      ],
      navigationProperties: [{ name: 'Orders', relationship: 'Conformance.Customer_Orders', fromRole: 'Customer', toRole: 'Orders' }],
    },
    {
      name: 'Order',
      key: ['Region', 'Number'],
      properties: [
        { name: 'Region', type: 'Edm.String', ...nonNull },
        { name: 'Number', type: 'Edm.Int64', ...nonNull },
        { name: 'Placed', type: 'Edm.DateTimeOffset' },
        { name: 'Total', type: 'Edm.Decimal', ...nonNull, precision: 20, scale: 4, defaultValue: '0' },
      ],
      navigationProperties: [
        { name: 'Customer', relationship: 'Conformance.Customer_Orders', fromRole: 'Orders', toRole: 'Customer' },
        { name: 'Lines', relationship: 'Conformance.Order_Lines', fromRole: 'Order', toRole: 'Lines' },
        { name: 'Deliveries', relationship: 'Conformance.Order_Deliveries', fromRole: 'Order', toRole: 'Deliveries' },
      ],
    },
    {
      // Header/item: the order's key is part of the delivery's, fixed by the ReferentialConstraint.
      name: 'Delivery',
      key: ['Region', 'Number', 'Seq'],
      properties: [
        { name: 'Region', type: 'Edm.String', ...nonNull },
        { name: 'Number', type: 'Edm.Int64', ...nonNull },
        { name: 'Seq', type: 'Edm.Int32', ...nonNull },
        { name: 'Carrier', type: 'Edm.String' },
      ],
      navigationProperties: [{ name: 'Order', relationship: 'Conformance.Order_Deliveries', fromRole: 'Deliveries', toRole: 'Order' }],
    },
    {
      name: 'OrderLine',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.Int32', ...nonNull },
        { name: 'Product', type: 'Edm.String', ...nonNull },
        { name: 'Quantity', type: 'Edm.Int32', ...nonNull },
      ],
      navigationProperties: [{ name: 'Order', relationship: 'Conformance.Order_Lines', fromRole: 'Lines', toRole: 'Order' }],
    },
    {
      name: 'Event',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.Int32', ...nonNull },
        { name: 'Label', type: 'Edm.String', ...nonNull },
        { name: 'At', type: 'Edm.DateTime', ...nonNull },
        { name: 'AtOffset', type: 'Edm.DateTimeOffset' },
        { name: 'Duration', type: 'Edm.Time' },
        { name: 'Payload', type: 'Edm.Binary' },
      ],
    },
    {
      // Timestamps a store may keep to the microsecond (Precision 6): the suite compares them at
      // milliseconds, sorts and pages them by the stored value (docs/conformance.md "Timestamps").
      name: 'Moment',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.Int32', ...nonNull },
        { name: 'At', type: 'Edm.DateTime', ...nonNull, precision: 6 },
        { name: 'AtOffset', type: 'Edm.DateTimeOffset', precision: 6 },
      ],
    },
    {
      name: 'Photo',
      key: ['ID'],
      hasStream: true,
      properties: [
        { name: 'ID', type: 'Edm.Int32', ...nonNull },
        { name: 'Title', type: 'Edm.String' },
      ],
    },
    {
      name: 'Note',
      key: ['ID'],
      openType: true,
      properties: [
        { name: 'ID', type: 'Edm.Int32', ...nonNull },
        { name: 'Text', type: 'Edm.String' },
      ],
    },
  ],
  associations: [
    {
      name: 'Item_Category',
      ends: [
        { role: 'Items', type: 'Conformance.Item', multiplicity: '*' },
        { role: 'Category', type: 'Conformance.Category', multiplicity: '0..1' },
      ],
    },
    {
      name: 'Item_Tags',
      ends: [
        { role: 'Items', type: 'Conformance.Item', multiplicity: '*' },
        { role: 'Tags', type: 'Conformance.Tag', multiplicity: '*' },
      ],
    },
    {
      // Every order needs its customer; a customer with orders cannot be deleted (no cascade).
      name: 'Customer_Orders',
      ends: [
        { role: 'Customer', type: 'Conformance.Customer', multiplicity: '1' },
        { role: 'Orders', type: 'Conformance.Order', multiplicity: '*' },
      ],
    },
    {
      // Every line needs its order; deleting an order deletes its lines.
      name: 'Order_Lines',
      ends: [
        { role: 'Order', type: 'Conformance.Order', multiplicity: '1', onDelete: 'Cascade' },
        { role: 'Lines', type: 'Conformance.OrderLine', multiplicity: '*' },
      ],
    },
    {
      name: 'Order_Deliveries',
      ends: [
        { role: 'Order', type: 'Conformance.Order', multiplicity: '1', onDelete: 'Cascade' },
        { role: 'Deliveries', type: 'Conformance.Delivery', multiplicity: '*' },
      ],
      referentialConstraint: {
        principal: { role: 'Order', propertyRefs: ['Region', 'Number'] },
        dependent: { role: 'Deliveries', propertyRefs: ['Region', 'Number'] },
      },
    },
  ],
  entityContainers: [
    {
      name: 'ConformanceService',
      isDefaultEntityContainer: true,
      entitySets: [
        { name: 'Items', entityType: 'Conformance.Item' },
        { name: 'Categories', entityType: 'Conformance.Category' },
        { name: 'Tags', entityType: 'Conformance.Tag' },
        { name: 'Customers', entityType: 'Conformance.Customer' },
        { name: 'Orders', entityType: 'Conformance.Order' },
        { name: 'OrderLines', entityType: 'Conformance.OrderLine' },
        { name: 'Deliveries', entityType: 'Conformance.Delivery' },
        { name: 'Events', entityType: 'Conformance.Event' },
        { name: 'Moments', entityType: 'Conformance.Moment' },
        { name: 'Photos', entityType: 'Conformance.Photo' },
        { name: 'Notes', entityType: 'Conformance.Note' },
      ],
      associationSets: [
        {
          name: 'Item_Category',
          association: 'Conformance.Item_Category',
          ends: [
            { role: 'Items', entitySet: 'Items' },
            { role: 'Category', entitySet: 'Categories' },
          ],
        },
        {
          name: 'Item_Tags',
          association: 'Conformance.Item_Tags',
          ends: [
            { role: 'Items', entitySet: 'Items' },
            { role: 'Tags', entitySet: 'Tags' },
          ],
        },
        {
          name: 'Customer_Orders',
          association: 'Conformance.Customer_Orders',
          ends: [
            { role: 'Customer', entitySet: 'Customers' },
            { role: 'Orders', entitySet: 'Orders' },
          ],
        },
        {
          name: 'Order_Lines',
          association: 'Conformance.Order_Lines',
          ends: [
            { role: 'Order', entitySet: 'Orders' },
            { role: 'Lines', entitySet: 'OrderLines' },
          ],
        },
        {
          name: 'Order_Deliveries',
          association: 'Conformance.Order_Deliveries',
          ends: [
            { role: 'Order', entitySet: 'Orders' },
            { role: 'Deliveries', entitySet: 'Deliveries' },
          ],
        },
      ],
    },
  ],
};

let built: EdmModel | undefined;

/** The fixture model (built once: models are immutable, so every run shares it). */
export function fixtureModel(): EdmModel {
  built ??= defineModel(DEFINITION);
  return built;
}
