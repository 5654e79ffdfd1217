/**
 * The Shop: a small model and data set for SAP's `search`, shared by the MemoryProvider and
 * SqlProvider specs. Customers have a string key, names with non-ASCII letters (Ä, ß, a Greek
 * final sigma) and LIKE wildcards, a property marked `sap:searchable="false"` and a complex
 * address (neither is searched); Orders are many enough to page through; Secrets is a set marked
 * `sap:searchable="false"`. `expectedSearch` spells the rule out in plain code.
 */
import { defineModel } from '../../lib/edm';
import type { MemoryData } from '../../lib/provider/entity-data';

const SAP = { namespace: 'http://www.sap.com/Protocols/SAPData', prefix: 'sap', name: 'searchable', value: 'false' } as const;

export const SHOP_MODEL = defineModel({
  namespace: 'Shop',
  namespaces: { sap: SAP.namespace },
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
      name: 'Customer',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.String', nullable: false, maxLength: 5 },
        { name: 'Name', type: 'Edm.String', nullable: false },
        { name: 'City', type: 'Edm.String' },
        { name: 'Internal', type: 'Edm.String', annotationAttributes: [SAP] },
        { name: 'Rank', type: 'Edm.Int32', nullable: false },
        { name: 'Address', type: 'Shop.Address' },
      ],
      navigationProperties: [{ name: 'Orders', relationship: 'Shop.Customer_Orders', fromRole: 'Customer', toRole: 'Orders' }],
    },
    {
      name: 'Order',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.Int32', nullable: false },
        { name: 'Title', type: 'Edm.String', nullable: false },
        { name: 'Comment', type: 'Edm.String' },
        { name: 'Quantity', type: 'Edm.Int32', nullable: false },
      ],
      navigationProperties: [{ name: 'Customer', relationship: 'Shop.Customer_Orders', fromRole: 'Orders', toRole: 'Customer' }],
    },
    {
      name: 'Secret',
      key: ['ID'],
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
        { role: 'Customer', type: 'Shop.Customer', multiplicity: '0..1' },
        { role: 'Orders', type: 'Shop.Order', multiplicity: '*' },
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
        { name: 'Secrets', entityType: 'Shop.Secret', annotationAttributes: [SAP] },
      ],
      associationSets: [
        {
          name: 'Customer_Orders',
          association: 'Shop.Customer_Orders',
          ends: [
            { role: 'Customer', entitySet: 'Customers' },
            { role: 'Orders', entitySet: 'Orders' },
          ],
        },
      ],
    },
  ],
});

/** A customer as stored. */
export interface ShopCustomer {
  readonly ID: string;
  readonly Name: string;
  readonly City: string | null;
  readonly Internal: string | null;
  readonly Rank: number;
  readonly Address: { readonly Street: string | null; readonly City: string | null } | null;
}

/** An order as stored, with the key of its customer. */
export interface ShopOrder {
  readonly ID: number;
  readonly Title: string;
  readonly Comment: string | null;
  readonly Quantity: number;
  readonly CustomerID: string;
}

export const SHOP_CUSTOMERS: readonly ShopCustomer[] = [
  { ID: 'ALFKI', Name: 'Äpfel & Birnen GmbH', City: 'Berlin', Internal: 'milk supplier', Rank: 3, Address: { Street: 'Milchstraße 1', City: 'Milkton' } },
  { ID: 'BERGS', Name: 'Straße der Milch', City: 'Luleå', Internal: null, Rank: 1, Address: null },
  { ID: 'ONEIL', Name: "O'Neil Dairy", City: 'Cork', Internal: null, Rank: 2, Address: { Street: null, City: 'Cork' } },
  { ID: 'PURE1', Name: '100% Bio', City: 'Wien', Internal: null, Rank: 5, Address: null },
  { ID: 'ATRAD', Name: 'a_c Trading', City: null, Internal: null, Rank: 4, Address: null },
  { ID: 'SLASH', Name: 'Back\\slash Ltd', City: 'London', Internal: null, Rank: 2, Address: null },
  { ID: 'MILKY', Name: 'MILKY WAY dairy farm', City: 'Stockholm', Internal: null, Rank: 1, Address: null },
  { ID: 'GRUEN', Name: 'Grüne Wiese', City: 'München', Internal: 'ÄPFEL', Rank: 3, Address: null },
  { ID: 'ODOS1', Name: 'ΟΔΟΣ Taverna', City: 'Αθήνα', Internal: null, Rank: 2, Address: null },
  { ID: 'abc12', Name: 'lower key', City: null, Internal: null, Rank: 6, Address: null },
];

const TITLES = ['Milk', 'Bread', 'Milk and bread', 'Apples'];

export const SHOP_ORDERS: readonly ShopOrder[] = Array.from({ length: 30 }, (_, index) => {
  const id = index + 1;
  return {
    ID: id,
    Title: `${TITLES[id % TITLES.length]} #${id}`,
    Comment: id % 5 === 0 ? 'urgent delivery' : id % 7 === 0 ? 'MILK FREE' : null,
    Quantity: (id * 7) % 11,
    CustomerID: SHOP_CUSTOMERS[id % 4].ID,
  };
});

/** The Shop data as MemoryProvider and `seed` take it (orders link to customers by `CustomerID`, see SHOP_LINKS). */
export function shopData(): MemoryData {
  return {
    Customers: SHOP_CUSTOMERS.map((customer) => ({ ...customer })),
    Orders: SHOP_ORDERS.map((order) => ({ ...order })),
    Secrets: [
      { ID: 1, Text: 'milk' },
      { ID: 2, Text: 'bread' },
    ],
  };
}

export const SHOP_LINKS = { Orders: { Customer: 'CustomerID' } } as const;

/**
 * The rule, in plain code: every term (lowered with JavaScript's toLowerCase) is contained in the
 * lowered value of one of `properties` (the searchable ones; null never contains anything).
 */
export function expectedSearch<T>(rows: readonly T[], properties: readonly (keyof T)[], terms: readonly string[]): T[] {
  return rows.filter((row) =>
    terms.every((term) =>
      properties.some((property) => {
        const value = row[property];
        return typeof value === 'string' && value.toLowerCase().includes(term.toLowerCase());
      }),
    ),
  );
}

/** What `search` reads on each set: the top-level strings, keys included (Internal is marked unsearchable, Address is complex). */
export const CUSTOMER_SEARCHED: readonly (keyof ShopCustomer)[] = ['ID', 'Name', 'City'];
export const ORDER_SEARCHED: readonly (keyof ShopOrder)[] = ['Title', 'Comment'];
