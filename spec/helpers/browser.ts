/**
 * The browser lane's tools: Debian's Chromium started headless by playwright-core with a fresh
 * profile and nothing that reaches for the network on its own, and SAPUI5 driven as its own test
 * tools drive it (sap/ui/test/RecordReplay: control selectors, and waiting until UI5 has no
 * pending requests, timeouts or rendering). No fixed sleeps: every wait is for a UI5 state.
 * Screenshots go to .tmp/browser/ (ignored by git).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join, resolve } from 'path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { UI5_URL_VARIABLE } from './browser-global-setup';

/** Chromium's executable: Debian's package (`apt-get install chromium`), or CHROMIUM. */
const EXECUTABLE = process.env.CHROMIUM ?? '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-quic',
  '--disable-sync',
];

/** Where screenshots go. */
const SCREENSHOTS = resolve(__dirname, '..', '..', '.tmp', 'browser');

/** The URL of sap-ui-core.js on the lane's UI5 server (set by the global setup). */
export function ui5Bootstrap(): string {
  const url = process.env[UI5_URL_VARIABLE];
  if (url === undefined) throw new Error(`${UI5_URL_VARIABLE} is not set: run the browser specs with npm run test:browser`);
  return url;
}

/** A browser with one page, and what went wrong in it so far. */
export interface BrowserSession {
  readonly page: Page;
  /** Uncaught errors in the page. */
  readonly pageErrors: string[];
  /** Responses of 400 and above (status and URL), in order. */
  readonly failedResponses: string[];
  /** Save a screenshot as .tmp/browser/<name>.png. */
  screenshot(name: string): Promise<void>;
  close(): Promise<void>;
}

/** Start Chromium with a fresh profile in a temporary folder. */
export async function openBrowser(): Promise<BrowserSession> {
  const profile = mkdtempSync(join(tmpdir(), 'express-odata-v2-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: EXECUTABLE,
      headless: true,
      args: ARGS,
      viewport: { width: 1440, height: 900 },
      locale: 'en-US',
      timezoneId: 'UTC',
    });
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors: string[] = [];
  const failedResponses: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('response', (response) => {
    if (response.status() >= 400) failedResponses.push(`${response.status()} ${response.url()}`);
  });
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    page,
    pageErrors,
    failedResponses,
    screenshot: async (name) => {
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
    },
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A RecordReplay control selector (`{ controlType: 'sap.m.Button', properties: { text: 'Edit' } }`, or `{ id }`). */
export interface ControlSelector {
  readonly id?: string;
  readonly controlType?: string;
  readonly properties?: Readonly<Record<string, unknown>>;
  /** The binding: the context's path (`/Suppliers(1)`) and the bound property's (`Price`). */
  readonly bindingPath?: { readonly path?: string; readonly propertyPath?: string };
  readonly ancestor?: ControlSelector;
  readonly searchOpenDialogs?: boolean;
  readonly interactable?: boolean;
  /** The part of the control to press or type into (`{ idSuffix: 'vhi' }`: an input's value help icon). */
  readonly interaction?: { readonly idSuffix: string };
}

/** The page's `sap.ui.require`, typed for what these helpers ask of it. */
interface Ui5Loader {
  require(names: string[], done: (...modules: unknown[]) => void, fail: (error: unknown) => void): void;
}

/** What the page calls on RecordReplay. */
interface RecordReplay {
  waitForUI5(options: { timeout: number; interval: number }): Promise<void>;
  interactWithControl(options: { selector: ControlSelector; interactionType: string; enterText?: string; pressEnterKey?: boolean }): Promise<void>;
}

/** Until SAPUI5 has started and has nothing pending (requests, timeouts, rendering). */
export async function waitForUI5(page: Page, timeoutSeconds = 90): Promise<void> {
  await page.waitForFunction(() => (globalThis as { sap?: { ui?: { require?: unknown } } }).sap?.ui?.require !== undefined, null, {
    timeout: timeoutSeconds * 1000,
  });
  await page.evaluate(
    (timeout) =>
      new Promise<void>((done, fail) => {
        const ui5 = (globalThis as unknown as { sap: { ui: Ui5Loader } }).sap.ui;
        ui5.require(
          ['sap/ui/test/RecordReplay'],
          (module) => void (module as RecordReplay).waitForUI5({ timeout: timeout * 1000, interval: 100 }).then(done, fail),
          fail,
        );
      }),
    timeoutSeconds,
  );
}

/** Press a control (as a user clicks it), then wait for UI5. */
export async function press(page: Page, selector: ControlSelector): Promise<void> {
  await interact(page, selector, 'PRESS');
}

/** Type into a control (replacing its value), optionally pressing Enter, then wait for UI5. */
export async function enterText(page: Page, selector: ControlSelector, text: string, pressEnterKey = false): Promise<void> {
  await interact(page, selector, 'ENTER_TEXT', text, pressEnterKey);
}

async function interact(page: Page, selector: ControlSelector, interactionType: string, enterText?: string, pressEnterKey?: boolean): Promise<void> {
  await waitForUI5(page);
  await page.evaluate(
    ({ selector, interactionType, enterText, pressEnterKey }) =>
      new Promise<void>((done, fail) => {
        const ui5 = (globalThis as unknown as { sap: { ui: Ui5Loader } }).sap.ui;
        ui5.require(
          ['sap/ui/test/RecordReplay'],
          (module) =>
            void (module as RecordReplay)
              .interactWithControl({ selector, interactionType, ...(enterText === undefined ? {} : { enterText, pressEnterKey }) })
              .then(done, fail),
          fail,
        );
      }),
    { selector, interactionType, enterText, pressEnterKey },
  );
  await waitForUI5(page);
}

/** Click the rendered element with this id (a control's DOM root), as the mouse does, then wait for UI5. */
export async function click(page: Page, id: string): Promise<void> {
  await page.locator(`[id="${id}"]`).click();
  await waitForUI5(page);
}

/** A UI5 control as page-side code sees it. */
interface Ui5Control {
  getId(): string;
  getProperty(name: string): unknown;
  isA(type: string): boolean;
  getDomRef(): { readonly innerText: string } | null;
  getParent(): Ui5Control | null;
}

/**
 * The rendered controls (or items) of a type, whose id matches `idPattern` (a RegExp source) and
 * whose properties have the given values, with the text a user sees in each (its DOM's inner text).
 */
export async function renderedControls(
  page: Page,
  controlType: string,
  idPattern = '',
  properties: Readonly<Record<string, string | number | boolean>> = {},
): Promise<{ id: string; text: string }[]> {
  await waitForUI5(page);
  return page.evaluate(
    ({ controlType, idPattern, properties }) => {
      const ui5 = globalThis as unknown as { sap: { ui: { require(name: string): unknown } } };
      const element = ui5.sap.ui.require('sap/ui/core/Element') as { registry: { filter(test: (control: Ui5Control) => boolean): Ui5Control[] } };
      const pattern = new RegExp(idPattern);
      return element.registry
        .filter(
          (control) =>
            control.isA(controlType) &&
            pattern.test(control.getId()) &&
            Object.entries(properties).every(([name, value]) => control.getProperty(name) === value) &&
            control.getDomRef() !== null,
        )
        .map((control) => ({ id: control.getId(), text: control.getDomRef()?.innerText ?? '' }));
    },
    { controlType, idPattern, properties },
  );
}
