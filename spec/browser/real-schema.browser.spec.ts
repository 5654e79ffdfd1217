/**
 * The Fiori preview of a database as `serve --ui` shows it: the real-schema spec database
 * (spec/fixtures/sql/real-schema.sql) on PGlite, introspected with its Fiori annotations (labels,
 * line items, selection fields, value lists of foreign keys), served by SqlProvider, opened in
 * Chromium. Nothing in it is written by hand for the app: what it shows comes from the schema.
 */
import type { PGlite } from '@electric-sql/pglite';
import express from 'express';
import type { Server } from 'http';
import type { AddressInfo } from 'net';
import { odata } from '../../lib';
import { fiori } from '../../lib/fiori';
import { introspect, pglite, SqlProvider, type SqlDatabase } from '../../lib/sql';
import { click, enterText, openBrowser, renderedControls, ui5Bootstrap, waitForUI5, type BrowserSession } from '../helpers/browser';
import { openTestPGlite } from '../helpers/pglite';
import { loadRealSchema } from '../helpers/real-schema';
import { realSchemaOptions } from '../sql/introspect/real-schema';

describe('the Fiori preview of the real-schema database, in Chromium', () => {
  let instance: PGlite;
  let db: SqlDatabase;
  let server: Server;
  let root: string;
  let browser: BrowserSession;

  beforeAll(async () => {
    instance = await openTestPGlite();
    await loadRealSchema(instance, 'browser_reader');
    db = pglite(instance);
    const { model, mapping } = await introspect(db, realSchemaOptions('odata'));
    const app = express();
    app.use('/odata', odata({ model, provider: new SqlProvider({ model, db, mapping }) }));
    app.use('/', fiori({ model, service: '/odata/', ui5: ui5Bootstrap() }));
    server = await new Promise<Server>((done) => {
      const listening = app.listen(0, '127.0.0.1', () => done(listening));
    });
    root = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    browser = await openBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise((done) => server?.close(done));
    await db?.close();
    await instance?.close();
  });

  afterEach(async () => {
    await browser.screenshot(`real-schema-${expect.getState().currentTestName?.replace(/[^\w]+/g, '-') ?? 'step'}`);
  });

  it('lists the tables and keyed views on the launch page, labelled by their comments', async () => {
    const { page } = browser;
    await page.goto(root);
    const sets = await page.locator('ul.sets a').evaluateAll((links) => links.map((link) => link.getAttribute('data-entity-set')));
    expect(sets).toEqual(expect.arrayContaining(['Products', 'Categories', 'Customers', 'Orders', 'OrderDetails']));
    expect(await page.locator('a[data-entity-set="Products"] .label').innerText()).toBe('Products');
  });

  it('shows a table as a List Report with the generated columns, its rows and count, and searches it', async () => {
    const { page } = browser;
    await page.click('a[data-entity-set="Products"]');
    await waitForUI5(page);
    const [title] = await renderedControls(page, 'sap.m.Title', '-header$');
    expect(title.text.trim()).toBe('Products (3)');
    const [table] = await renderedControls(page, 'sap.m.Table', 'responsiveTable$');
    const columns = (await page.locator(`[id="${table.id}"] th[role="columnheader"]`).allInnerTexts()).map((text) => text.trim());
    expect(columns).toEqual(expect.arrayContaining(['Product ID', 'Product name', 'Category ID', 'Unit Price']));
    await enterText(page, { controlType: 'sap.m.SearchField' }, 'cha', true);
    expect((await renderedControls(page, 'sap.m.Title', '-header$'))[0].text.trim()).toBe('Products (2)');
    const names = await page.locator(`[id="${table.id}"] tr.sapMLIB`).allInnerTexts();
    expect(names.map((row) => row.includes('Chai') || row.includes('Chang'))).toEqual([true, true]);
  });

  it("offers the referenced table's rows, with their names, in the value help of a foreign key", async () => {
    const { page } = browser;
    const [category] = await renderedControls(page, 'sap.m.MultiInput', 'filterItemControl.*CategoryID$');
    await click(page, `${category.id}-vhi`);
    const [dialog] = await renderedControls(page, 'sap.ui.comp.valuehelpdialog.ValueHelpDialog');
    expect(dialog.text).toContain('Beverages');
    expect(dialog.text).toContain('Condiments');
  });

  it('found every SAPUI5 module it asked for, and the service answered every request', () => {
    expect(browser.failedResponses.filter((failure) => !/_en(_US)?\.properties$/.test(failure))).toEqual([]);
  });
});
