/**
 * Models for the MemoryProvider specs: the ODataDemo service from its $metadata, and a small "Shop"
 * model with what the demo lacks (Int64, Guid and composite keys, a required `1` end, cascading
 * deletes, a self-association, an open type, integer and DateTime concurrency tokens), and a
 * "Gallery" model of media link entries.
 */
import { buildModel } from '../../../lib/edm';
import { DEMO_MODEL } from '../../helpers/demo';
import type { ModelDefinition } from '../../../lib/edm/definition';
import type { EdmEntitySet, EdmModel, EdmNavigationProperty } from '../../../lib/edm/model';
import type { MemoryData } from '../../../lib/provider/entity-data';

/** The ODataDemo model, read from the fixture's $metadata. */
export function demoModel(): EdmModel {
  return DEMO_MODEL;
}

export { demoData, DEMO_LINKS } from '../../helpers/demo';

const SHOP: ModelDefinition = {
  schemas: [
    {
      namespace: 'Shop',
      entityTypes: [
        {
          name: 'Customer',
          key: ['ID'],
          properties: [
            { name: 'ID', type: 'Edm.Int64', nullable: false },
            { name: 'Name', type: 'Edm.String', maxLength: 20 },
            { name: 'Version', type: 'Edm.Int32', nullable: false, concurrencyMode: 'Fixed' },
          ],
          navigationProperties: [{ name: 'Orders', relationship: 'Shop.Customer_Orders', fromRole: 'Customer', toRole: 'Orders' }],
        },
        {
          name: 'Order',
          key: ['ID'],
          properties: [
            { name: 'ID', type: 'Edm.Guid', nullable: false },
            { name: 'Total', type: 'Edm.Decimal', nullable: false, defaultValue: '0' },
            { name: 'Modified', type: 'Edm.DateTime', nullable: false, concurrencyMode: 'Fixed' },
          ],
          navigationProperties: [
            { name: 'Customer', relationship: 'Shop.Customer_Orders', fromRole: 'Orders', toRole: 'Customer' },
            { name: 'Lines', relationship: 'Shop.Order_Lines', fromRole: 'Order', toRole: 'Lines' },
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
          navigationProperties: [
            { name: 'Order', relationship: 'Shop.Order_Lines', fromRole: 'Lines', toRole: 'Order' },
            { name: 'Product', relationship: 'Shop.Line_Product', fromRole: 'Lines', toRole: 'Product' },
          ],
        },
        {
          name: 'Product',
          key: ['Code'],
          properties: [
            { name: 'Code', type: 'Edm.String', nullable: false },
            { name: 'Picture', type: 'Edm.Binary' },
            { name: 'Released', type: 'Edm.DateTime' },
          ],
        },
        {
          name: 'Employee',
          key: ['ID'],
          properties: [{ name: 'ID', type: 'Edm.Int32', nullable: false }],
          navigationProperties: [
            { name: 'Manager', relationship: 'Shop.Employee_Manager', fromRole: 'Report', toRole: 'Manager' },
            { name: 'Reports', relationship: 'Shop.Employee_Manager', fromRole: 'Manager', toRole: 'Report' },
          ],
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
      ],
      associations: [
        {
          name: 'Customer_Orders',
          ends: [
            { role: 'Customer', type: 'Shop.Customer', multiplicity: '1' },
            { role: 'Orders', type: 'Shop.Order', multiplicity: '*' },
          ],
        },
        {
          name: 'Order_Lines',
          ends: [
            { role: 'Order', type: 'Shop.Order', multiplicity: '1', onDelete: 'Cascade' },
            { role: 'Lines', type: 'Shop.Line', multiplicity: '*' },
          ],
        },
        {
          name: 'Line_Product',
          ends: [
            { role: 'Lines', type: 'Shop.Line', multiplicity: '*' },
            { role: 'Product', type: 'Shop.Product', multiplicity: '0..1' },
          ],
        },
        {
          name: 'Employee_Manager',
          ends: [
            { role: 'Report', type: 'Shop.Employee', multiplicity: '*' },
            { role: 'Manager', type: 'Shop.Employee', multiplicity: '0..1' },
          ],
        },
      ],
      entityContainers: [
        {
          name: 'ShopService',
          isDefaultEntityContainer: true,
          entitySets: [
            { name: 'Customers', entityType: 'Shop.Customer' },
            { name: 'Orders', entityType: 'Shop.Order' },
            { name: 'Lines', entityType: 'Shop.Line' },
            { name: 'Products', entityType: 'Shop.Product' },
            { name: 'Employees', entityType: 'Shop.Employee' },
            { name: 'Notes', entityType: 'Shop.Note' },
          ],
          associationSets: [
            {
              name: 'Customers_Orders',
              association: 'Shop.Customer_Orders',
              ends: [
                { role: 'Customer', entitySet: 'Customers' },
                { role: 'Orders', entitySet: 'Orders' },
              ],
            },
            {
              name: 'Orders_Lines',
              association: 'Shop.Order_Lines',
              ends: [
                { role: 'Order', entitySet: 'Orders' },
                { role: 'Lines', entitySet: 'Lines' },
              ],
            },
            {
              name: 'Lines_Product',
              association: 'Shop.Line_Product',
              ends: [
                { role: 'Lines', entitySet: 'Lines' },
                { role: 'Product', entitySet: 'Products' },
              ],
            },
            {
              name: 'Employees_Manager',
              association: 'Shop.Employee_Manager',
              ends: [
                { role: 'Report', entitySet: 'Employees' },
                { role: 'Manager', entitySet: 'Employees' },
              ],
            },
          ],
        },
      ],
    },
  ],
};

/** The Shop model. */
export function shopModel(): EdmModel {
  return buildModel(SHOP);
}

export const ORDER_A = '0d9c1f9e-8d6a-4b61-9b39-5a0e8d3f4a11';
export const ORDER_B = '7f3e2a10-1b2c-4d5e-8f90-abcdefabcdef';

/** Shop data in the link convention: links as navigation property values holding keys. */
export function shopData(): MemoryData {
  return {
    Customers: [
      { ID: '9007199254740993', Name: 'Big', Version: 4, Orders: [ORDER_A.toUpperCase()] },
      { ID: 2, Name: 'Small' },
    ],
    Orders: [
      { ID: ORDER_A, Total: 12.5, Modified: '2020-01-01T10:00:00Z' },
      { ID: ORDER_B, Total: '7.00', Modified: '2020-01-02T10:00:00', Customer: 2 },
    ],
    Lines: [
      { OrderID: ORDER_A, No: 1, Quantity: 3, Order: ORDER_A, Product: 'P1' },
      { OrderID: ORDER_A, No: 2, Quantity: 1, Order: ORDER_A, Product: null },
      { OrderID: ORDER_B, No: 1, Quantity: 5, Order: ORDER_B, Product: 'P2' },
    ],
    Products: [
      { Code: 'P1', Picture: 'AQID', Released: '2019-05-01T00:00:00Z' },
      { Code: 'P2', Picture: null },
    ],
    Employees: [{ ID: 1 }, { ID: 2, Manager: 1 }, { ID: 3, Manager: 1 }, { ID: 4, Manager: 2 }],
    Notes: [{ ID: 1, Text: 'hello', Color: 'red', Size: 3 }],
  };
}

/** An entity set of a model by name (fails the test when absent). */
export function setOf(model: EdmModel, name: string): EdmEntitySet {
  const set = model.entitySets.get(name);
  if (set === undefined) throw new Error(`no entity set ${name}`);
  return set;
}

/** A navigation property of a set's type by name. */
export function navOf(model: EdmModel, setName: string, name: string): EdmNavigationProperty {
  const property = setOf(model, setName).entityType.navigationPropertiesByName.get(name);
  if (property === undefined) throw new Error(`no navigation property ${setName}/${name}`);
  return property;
}

const GALLERY: ModelDefinition = {
  schemas: [
    {
      namespace: 'Gallery',
      entityTypes: [
        {
          name: 'Album',
          key: ['ID'],
          properties: [
            { name: 'ID', type: 'Edm.Int64', nullable: false },
            { name: 'Name', type: 'Edm.String' },
          ],
          navigationProperties: [{ name: 'Photos', relationship: 'Gallery.Album_Photos', fromRole: 'Album', toRole: 'Photos' }],
        },
        {
          name: 'Photo',
          key: ['ID'],
          hasStream: true,
          properties: [
            { name: 'ID', type: 'Edm.Int32', nullable: false },
            { name: 'Title', type: 'Edm.String', maxLength: 20 },
            { name: 'Price', type: 'Edm.Decimal', precision: 6, scale: 2 },
            { name: 'Version', type: 'Edm.Int32', nullable: false, concurrencyMode: 'Fixed' },
          ],
          navigationProperties: [{ name: 'Album', relationship: 'Gallery.Album_Photos', fromRole: 'Photos', toRole: 'Album' }],
        },
        {
          name: 'Document',
          key: ['Name'],
          hasStream: true,
          properties: [
            { name: 'Name', type: 'Edm.String', nullable: false, maxLength: 40 },
            { name: 'Pages', type: 'Edm.Int32', nullable: false },
          ],
        },
      ],
      associations: [
        {
          name: 'Album_Photos',
          ends: [
            { role: 'Album', type: 'Gallery.Album', multiplicity: '0..1', onDelete: 'Cascade' },
            { role: 'Photos', type: 'Gallery.Photo', multiplicity: '*' },
          ],
        },
      ],
      entityContainers: [
        {
          name: 'GalleryService',
          isDefaultEntityContainer: true,
          entitySets: [
            { name: 'Albums', entityType: 'Gallery.Album' },
            { name: 'Photos', entityType: 'Gallery.Photo' },
            { name: 'Documents', entityType: 'Gallery.Document' },
          ],
          associationSets: [
            {
              name: 'Albums_Photos',
              association: 'Gallery.Album_Photos',
              ends: [
                { role: 'Album', entitySet: 'Albums' },
                { role: 'Photos', entitySet: 'Photos' },
              ],
            },
          ],
        },
      ],
    },
  ],
};

/** The Gallery model: media link entries (`HasStream`) with an integer and a string key, Decimal facets, a cascading album. */
export function galleryModel(): EdmModel {
  return buildModel(GALLERY);
}
