'use strict';
/**
 * The EDM model of the app's OData service: what clients see in $metadata. Written with
 * defineModel (plain data in the shape of CSDL), so it lives next to the code it describes.
 *
 *   Customer 1 --- * Order     (Orders carry CustomerID; Version is their ETag)
 *   Customer 1 --- * Invoice   (Invoices are for the finance role only)
 */
const { defineModel } = require('express-odata-v2');

const key = (name) => ({ name, type: 'Edm.Int32', nullable: false });

const model = defineModel({
  namespace: 'Acme',
  entityTypes: [
    {
      name: 'Customer',
      key: ['ID'],
      properties: [key('ID'), { name: 'Name', type: 'Edm.String', nullable: false, maxLength: 100 }, { name: 'City', type: 'Edm.String' }],
      navigationProperties: [
        { name: 'Orders', relationship: 'Acme.Customer_Orders', fromRole: 'Customer', toRole: 'Order' },
        { name: 'Invoices', relationship: 'Acme.Customer_Invoices', fromRole: 'Customer', toRole: 'Invoice' },
      ],
    },
    {
      name: 'Order',
      key: ['ID'],
      properties: [
        key('ID'),
        { name: 'CustomerID', type: 'Edm.Int32', nullable: false },
        { name: 'Item', type: 'Edm.String', nullable: false },
        { name: 'Quantity', type: 'Edm.Int32', nullable: false, defaultValue: '1' },
        // Edm.Decimal travels as a string ("12.50"), never through a JS number.
        { name: 'Total', type: 'Edm.Decimal', nullable: false, precision: 12, scale: 2 },
        { name: 'Status', type: 'Edm.String', nullable: false, defaultValue: 'open' },
        // ConcurrencyMode Fixed: the ETag is built from this property; the provider bumps it on every write.
        { name: 'Version', type: 'Edm.Int32', nullable: false, concurrencyMode: 'Fixed' },
      ],
      navigationProperties: [{ name: 'Customer', relationship: 'Acme.Customer_Orders', fromRole: 'Order', toRole: 'Customer' }],
    },
    {
      name: 'Invoice',
      key: ['ID'],
      properties: [
        key('ID'),
        { name: 'CustomerID', type: 'Edm.Int32', nullable: false },
        { name: 'Amount', type: 'Edm.Decimal', nullable: false, precision: 12, scale: 2 },
        { name: 'Paid', type: 'Edm.Boolean', nullable: false, defaultValue: 'false' },
      ],
      navigationProperties: [{ name: 'Customer', relationship: 'Acme.Customer_Invoices', fromRole: 'Invoice', toRole: 'Customer' }],
    },
  ],
  associations: [
    {
      name: 'Customer_Orders',
      ends: [
        { role: 'Customer', type: 'Acme.Customer', multiplicity: '1' },
        { role: 'Order', type: 'Acme.Order', multiplicity: '*' },
      ],
      referentialConstraint: {
        principal: { role: 'Customer', propertyRefs: ['ID'] },
        dependent: { role: 'Order', propertyRefs: ['CustomerID'] },
      },
    },
    {
      name: 'Customer_Invoices',
      ends: [
        { role: 'Customer', type: 'Acme.Customer', multiplicity: '1' },
        { role: 'Invoice', type: 'Acme.Invoice', multiplicity: '*' },
      ],
      referentialConstraint: {
        principal: { role: 'Customer', propertyRefs: ['ID'] },
        dependent: { role: 'Invoice', propertyRefs: ['CustomerID'] },
      },
    },
  ],
  entityContainers: [
    {
      name: 'AcmeService',
      isDefaultEntityContainer: true,
      entitySets: [
        { name: 'Customers', entityType: 'Acme.Customer' },
        { name: 'Orders', entityType: 'Acme.Order' },
        { name: 'Invoices', entityType: 'Acme.Invoice' },
      ],
      associationSets: [
        {
          name: 'Customers_Orders',
          association: 'Acme.Customer_Orders',
          ends: [
            { role: 'Customer', entitySet: 'Customers' },
            { role: 'Order', entitySet: 'Orders' },
          ],
        },
        {
          name: 'Customers_Invoices',
          association: 'Acme.Customer_Invoices',
          ends: [
            { role: 'Customer', entitySet: 'Customers' },
            { role: 'Invoice', entitySet: 'Invoices' },
          ],
        },
      ],
      functionImports: [
        {
          // GET OrdersByStatus?status='open' (a service operation; the provider implements it)
          name: 'OrdersByStatus',
          returnType: 'Collection(Acme.Order)',
          entitySet: 'Orders',
          httpMethod: 'GET',
          parameters: [{ name: 'status', type: 'Edm.String', mode: 'In' }],
        },
      ],
    },
  ],
});

module.exports = { model };
