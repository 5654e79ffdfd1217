/**
 * The Fiori preview's shop (spec/fixtures/fiori/shop.xml: UI and Common annotations, labels,
 * capabilities) served in memory: products (more than a page of a growing table), categories and
 * suppliers, the OData service at /odata/ and the preview at /, on 127.0.0.1 and a free port.
 */
import express from 'express';
import { readFileSync } from 'fs';
import type { Server } from 'http';
import type { AddressInfo } from 'net';
import { join } from 'path';
import { loadEdmx, MemoryProvider, odata } from '../../lib';
import { fiori } from '../../lib/fiori';

/** The shop's model, with its annotations. */
const FIORI_SHOP_MODEL = loadEdmx(readFileSync(join(__dirname, '..', 'fixtures', 'fiori', 'shop.xml'), 'utf8'));

const NAMED = ['Bread', 'Milk', 'Chocolate Milk', 'Vint Soda', 'Havina Cola', 'Fruit Punch', 'Cranberry Juice', 'Pink Lemonade', 'DVD Player', 'LCD HDTV'];

/** How many products the shop has. */
export const PRODUCT_COUNT = 45;

/** The shop's rows: product n is rated n % 5 + 1, costs n + 0.25, and belongs to category n % 3 + 1. */
function fioriShopData(): Record<string, Record<string, unknown>[]> {
  return {
    Categories: [
      { ID: 1, Name: 'Food' },
      { ID: 2, Name: 'Beverages' },
      { ID: 3, Name: 'Electronics' },
    ],
    Suppliers: [
      { ID: 1, Name: 'Exotic Liquids', Country: 'UK' },
      { ID: 2, Name: 'Tokyo Traders', Country: 'Japan' },
    ],
    Products: Array.from({ length: PRODUCT_COUNT }, (_, index) => {
      const id = index + 1;
      return {
        ID: id,
        Name: NAMED[index] ?? `Widget ${String(id).padStart(2, '0')}`,
        Description: `Product number ${id}`,
        Price: `${id}.25`,
        Rating: (id % 5) + 1,
        ReleaseDate: new Date(Date.UTC(2020, index % 12, (index % 28) + 1)),
        CategoryID: (id % 3) + 1,
        SupplierID: (id % 2) + 1,
      };
    }),
  };
}

/** A running shop. */
export interface FioriShop {
  /** `http://127.0.0.1:<port>/`: the preview's launch page. */
  readonly url: string;
  readonly provider: MemoryProvider;
  close(): Promise<void>;
}

/** Serve the shop and its preview, loading SAPUI5 from `ui5` (the URL of sap-ui-core.js). */
export async function startFioriShop(ui5: string): Promise<FioriShop> {
  const provider = new MemoryProvider(FIORI_SHOP_MODEL, fioriShopData());
  const app = express();
  app.use('/odata', odata({ model: FIORI_SHOP_MODEL, provider }));
  app.use('/', fiori({ model: FIORI_SHOP_MODEL, service: '/odata/', ui5 }));
  const server = await new Promise<Server>((done) => {
    const listening = app.listen(0, '127.0.0.1', () => done(listening));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    provider,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
