/**
 * The Fiori preview in a real browser: Chromium opens the launch page, then the Products app (a
 * Fiori elements List Report and Object Page over spec/fixtures/fiori/shop.xml) and uses it as a
 * person does: reads the list, grows it, searches, filters, sorts, opens an object, edits and
 * saves it, picks a category from the value help, creates a product and deletes it; then opens
 * the display-only Suppliers app. The steps run in order on one page, as one user's session;
 * what the service stored is read back over HTTP.
 */
import type { Page, Request } from 'playwright-core';
import { click, enterText, openBrowser, press, renderedControls, ui5Bootstrap, waitForUI5, type BrowserSession } from '../helpers/browser';
import { PRODUCT_COUNT, startFioriShop, type FioriShop } from '../helpers/fiori-shop';

/** The List Report's table: its title (`Products (45)`), column headers and rows (each row's cell texts). */
async function listReport(page: Page): Promise<{ title: string; columns: string[]; rows: string[][] }> {
  const [title] = await renderedControls(page, 'sap.m.Title', '--listReport-header$|::Table-header$|-header$');
  const [table] = await renderedControls(page, 'sap.m.Table', 'responsiveTable$');
  const columns = await page.locator(`[id="${table.id}"] th[role="columnheader"]`).allInnerTexts();
  // In the order a user sees them (UI5's registry keeps creation order, which rebinding changes).
  const rows = await page
    .locator(`[id="${table.id}"] tr.sapMLIB`)
    .evaluateAll((elements) =>
      elements.map((row) => Array.from(row.querySelectorAll('td.sapMListTblCell'), (cell: { textContent: string | null }) => (cell.textContent ?? '').trim())),
    );
  return { title: title.text.trim(), columns: columns.map((text) => text.trim()).filter((text) => text !== ''), rows };
}

/** A product as the service stores it, read over HTTP (undefined when it is gone). */
async function storedProduct(shop: FioriShop, id: number): Promise<Record<string, unknown> | undefined> {
  const response = await fetch(`${shop.url}odata/Products(${id})?$format=json`);
  if (response.status === 404) return undefined;
  expect(response.status).toBe(200);
  return ((await response.json()) as { d: Record<string, unknown> }).d;
}

/** The smart field's inner input for a property of the object page (edit mode). */
function field(property: string): { controlType: string; bindingPath: { propertyPath: string } } {
  return { controlType: 'sap.m.Input', bindingPath: { propertyPath: property } };
}

describe('the Fiori preview of the shop, in Chromium', () => {
  let shop: FioriShop;
  let browser: BrowserSession;
  const batches: Request[] = [];

  beforeAll(async () => {
    shop = await startFioriShop(ui5Bootstrap());
    browser = await openBrowser();
    browser.page.on('request', (request) => {
      if (request.url().endsWith('/odata/$batch')) batches.push(request);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await shop?.close();
  });

  afterEach(async () => {
    await browser.screenshot(expect.getState().currentTestName?.replace(/[^\w]+/g, '-') ?? 'step');
  });

  it('lists every entity set on the launch page, with its label and what it allows', async () => {
    const { page } = browser;
    await page.goto(shop.url);
    const sets = await page.locator('ul.sets a').evaluateAll((links) => links.map((link) => [link.getAttribute('href'), link.textContent]));
    expect(sets).toEqual([
      ['apps/Products/', 'Products create, edit, delete'],
      ['apps/Categories/', 'Categories create, edit, delete'],
      ['apps/Suppliers/', 'Suppliers display only'],
    ]);
  });

  it('opens the List Report of a set from the launch page: rows, the labels as column headers, the count', async () => {
    const { page } = browser;
    await page.click('a[data-entity-set="Products"]');
    await waitForUI5(page);
    const list = await listReport(page);
    expect(list.title).toBe(`Products (${PRODUCT_COUNT})`);
    // The last header is the row actions' (read by screen readers only).
    expect(list.columns).toEqual(['Product ID', 'Product Name', 'Price', 'Rating', 'Category', 'Released', 'Row Actions']);
    expect(list.rows).toHaveLength(20);
    expect(list.rows[1]).toEqual(['2', 'Milk', '2.25', '3', '3', 'Feb 2, 2020']);
  });

  it('grows to the next page when scrolled to the end', async () => {
    const { page } = browser;
    await page.locator('tr.sapMLIB').last().scrollIntoViewIfNeeded();
    await waitForUI5(page);
    const list = await listReport(page);
    expect(list.rows).toHaveLength(40);
    expect(list.rows[39][0]).toBe('40');
  });

  it("narrows the rows with the search field (SAP's search)", async () => {
    const { page } = browser;
    await enterText(page, { controlType: 'sap.m.SearchField' }, 'milk', true);
    const list = await listReport(page);
    expect(list.title).toBe('Products (2)');
    expect(list.rows.map((row) => row[1])).toEqual(['Milk', 'Chocolate Milk']);
    await enterText(page, { controlType: 'sap.m.SearchField' }, '', true);
    expect((await listReport(page)).title).toBe(`Products (${PRODUCT_COUNT})`);
  });

  it('filters by a selection field', async () => {
    const { page } = browser;
    const [rating] = await renderedControls(page, 'sap.m.MultiInput', 'Rating$');
    await enterText(page, { id: rating.id }, '5', true);
    await press(page, { controlType: 'sap.m.Button', properties: { text: 'Go' } });
    const list = await listReport(page);
    // Product n is rated n % 5 + 1: 4, 9, 14, ... 44.
    expect(list.title).toBe('Products (9)');
    expect(list.rows.map((row) => row[3])).toEqual(Array(9).fill('5'));
  });

  it('offers the rows of the referenced set in the value help of a foreign key', async () => {
    const { page } = browser;
    const [category] = await renderedControls(page, 'sap.m.MultiInput', 'filterItemControl.*CategoryID$');
    await click(page, `${category.id}-vhi`);
    const [dialog] = await renderedControls(page, 'sap.ui.comp.valuehelpdialog.ValueHelpDialog');
    await browser.screenshot('value-help-dialog');
    for (const name of ['Food', 'Beverages', 'Electronics']) expect(dialog.text).toContain(name);
    expect(dialog.text).toContain('Category Name');
    await press(page, { controlType: 'sap.m.Button', properties: { text: 'Cancel' }, searchOpenDialogs: true });
  });

  it("sorts by a column from its header's menu", async () => {
    const { page } = browser;
    const [table] = await renderedControls(page, 'sap.m.Table', 'responsiveTable$');
    await page.locator(`[id="${table.id}"] th[role="columnheader"]`, { hasText: 'Price' }).click();
    await page.locator('.sapMPopover').getByTitle('Descending', { exact: true }).click();
    await waitForUI5(page);
    await page.keyboard.press('Escape');
    await waitForUI5(page);
    const list = await listReport(page);
    expect(list.rows.map((row) => row[0])).toEqual(['44', '39', '34', '29', '24', '19', '14', '9', '4']);
  });

  it('opens the Object Page of a row, titled by the header info', async () => {
    const { page } = browser;
    await page.locator('tr.sapMLIB').first().click();
    await waitForUI5(page);
    const [title] = await renderedControls(page, 'sap.uxap.ObjectPageDynamicHeaderTitle');
    expect(title.text).toContain('Widget 44');
    const [form] = await renderedControls(page, 'sap.ui.comp.smartform.SmartForm');
    expect(form.text).toContain('Product Name');
    expect(form.text).toContain('44.25');
  });

  it('edits the object and saves it with If-Match: a decimal with its scale, the key not editable', async () => {
    const { page } = browser;
    await press(page, { controlType: 'sap.m.Button', properties: { text: 'Edit' } });
    expect(await renderedControls(page, 'sap.m.Input', 'ObjectPage.*::ID::')).toEqual([]);
    await enterText(page, field('Price'), '12.5');
    await press(page, { controlType: 'sap.m.Button', properties: { text: 'Save' } });
    const merge = batches.map((request) => request.postData() ?? '').find((body) => body.includes('MERGE Products(44)'));
    expect(merge).toMatch(/If-Match: W\/"[^"]+"/);
    expect(Number((await storedProduct(shop, 44))?.Price)).toBe(12.5);
    expect((await renderedControls(page, 'sap.ui.comp.smartform.SmartForm'))[0].text).toContain('12.50');
  });

  it('creates a product from the List Report', async () => {
    const { page } = browser;
    await page.goBack();
    await waitForUI5(page);
    await press(page, { controlType: 'sap.m.Button', properties: { text: 'Create' } });
    await enterText(page, field('ID'), '100');
    await enterText(page, field('Name'), 'Preview Tea');
    await enterText(page, field('Price'), '3.75');
    await enterText(page, field('Rating'), '4');
    await enterText(page, field('CategoryID'), '2');
    // A new object's page says Create where an edited one says Save.
    const [create] = await renderedControls(page, 'sap.m.Button', 'ObjectPage', { text: 'Create' });
    await click(page, create.id);
    expect(await storedProduct(shop, 100)).toMatchObject({ ID: 100, Name: 'Preview Tea', Rating: 4, CategoryID: 2 });
    expect(Number((await storedProduct(shop, 100))?.Price)).toBe(3.75);
    const [title] = await renderedControls(page, 'sap.uxap.ObjectPageDynamicHeaderTitle');
    expect(title.text).toContain('Preview Tea');
  });

  it('deletes it from its Object Page, after the confirmation', async () => {
    const { page } = browser;
    await press(page, { controlType: 'sap.m.Button', properties: { text: 'Delete' } });
    await press(page, { controlType: 'sap.m.Button', properties: { text: 'Delete' }, ancestor: { controlType: 'sap.m.Dialog' }, searchOpenDialogs: true });
    expect(await storedProduct(shop, 100)).toBeUndefined();
  });

  it('opens a display-only set without Create, Delete or Edit', async () => {
    const { page } = browser;
    await page.goto(`${shop.url}apps/Suppliers/`);
    await waitForUI5(page);
    expect((await listReport(page)).rows).toEqual([
      ['1', 'Exotic Liquids', 'UK'],
      ['2', 'Tokyo Traders', 'Japan'],
    ]);
    const buttons = (await renderedControls(page, 'sap.m.Button')).map((button) => button.text.trim());
    expect(buttons).not.toContain('Create');
    expect(buttons).not.toContain('Delete');
    await press(page, { controlType: 'sap.m.ColumnListItem', bindingPath: { path: '/Suppliers(1)' } });
    const [title] = await renderedControls(page, 'sap.uxap.ObjectPageDynamicHeaderTitle');
    expect(title.text).toContain('Exotic Liquids');
    expect((await renderedControls(page, 'sap.m.Button')).map((button) => button.text.trim())).not.toContain('Edit');
  });

  it('found every SAPUI5 module it asked for in the pinned packages, and the service answered every request', () => {
    // A language without its own texts falls back to the default texts: those 404s are how UI5 asks.
    const missing = browser.failedResponses.filter((failure) => !/_en(_US)?\.properties$/.test(failure));
    expect(missing).toEqual([]);
  });
});
