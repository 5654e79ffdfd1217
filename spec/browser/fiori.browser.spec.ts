/**
 * The Fiori preview in a real browser: Chromium opens the launch page, then the Products app (a
 * Fiori elements List Report and Object Page over spec/fixtures/fiori/shop.xml), and uses it as
 * a person does. The steps run in order on one page, as one session of a user.
 */
import { controlIds, openBrowser, textOf, ui5Bootstrap, waitForUI5, type BrowserSession } from '../helpers/browser';
import { PRODUCT_COUNT, startFioriShop, type FioriShop } from '../helpers/fiori-shop';

describe('the Fiori preview of the shop, in Chromium', () => {
  let shop: FioriShop;
  let browser: BrowserSession;

  beforeAll(async () => {
    shop = await startFioriShop(ui5Bootstrap());
    browser = await openBrowser();
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

  it('opens the List Report of a set from the launch page, with its rows, labelled columns and count', async () => {
    const { page } = browser;
    await page.click('a[data-entity-set="Products"]');
    await waitForUI5(page);
    const [table] = await controlIds(page, { controlType: 'sap.m.Table' });
    const [title] = await controlIds(page, { controlType: 'sap.m.Title', ancestor: { controlType: 'sap.ui.comp.smarttable.SmartTable' } });
    expect(await textOf(page, title)).toBe(`Products (${PRODUCT_COUNT})`);
    const headers = await page.locator(`[id="${table}"] th`).allInnerTexts();
    expect(headers.map((text) => text.trim()).filter((text) => text !== '')).toEqual(
      expect.arrayContaining(['Product ID', 'Product Name', 'Price', 'Rating', 'Category', 'Released']),
    );
    expect(await controlIds(page, { controlType: 'sap.m.ColumnListItem', ancestor: { id: table } })).toHaveLength(20);
  });
});
