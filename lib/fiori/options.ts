/**
 * The preview's options, checked once when the middleware is made: a mistake is a TypeError
 * that names the option, never a broken page later.
 */
import type { EdmModel } from '../edm';

/** The SAPUI5 version the preview is tested with (the browser lane runs it). */
export const UI5_VERSION = '1.146.0';

/** Where the preview loads SAPUI5 from unless told otherwise: SAP's public CDN, at the tested version. */
export const DEFAULT_UI5_BOOTSTRAP = `https://ui5.sap.com/${UI5_VERSION}/resources/sap-ui-core.js`;

/** What `fiori()` takes. */
export interface FioriOptions {
  /** The model the OData service serves (the same object given to `odata()`). */
  readonly model: EdmModel;
  /**
   * The service root as the browser reaches it: an absolute path (`/odata/`) or an absolute
   * `http(s)` URL. The preview's apps send their requests there.
   */
  readonly service: string;
  /**
   * The URL of SAPUI5's bootstrap script, `sap-ui-core.js` (an absolute `http(s)` URL or an
   * absolute path on this server). Default: SAP's CDN at the tested version, {@link DEFAULT_UI5_BOOTSTRAP}.
   */
  readonly ui5?: string;
  /** The launch page's heading. Default: the entity container's name. */
  readonly title?: string;
}

/** The options after their checks, with the defaults filled in. */
export interface ResolvedFioriOptions {
  readonly model: EdmModel;
  /** The service root, ending in `/`. */
  readonly service: string;
  readonly ui5: string;
  readonly title: string;
}

/** Throw unless `value` is an absolute path or an absolute http(s) URL. */
function checkLocation(name: string, value: unknown): asserts value is string {
  if (typeof value !== 'string' || value === '') throw new TypeError(`express-odata-v2/fiori: option ${name} must be a non-empty string`);
  // A path on this server; `//host/...` would be another host, so it must be written with its scheme.
  if (value.startsWith('/') && !value.startsWith('//')) {
    if (/[\s"'<>\\]/.test(value))
      throw new TypeError(`express-odata-v2/fiori: option ${name} must be a URL without spaces, quotes or angle brackets, got '${value}'`);
    return;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`express-odata-v2/fiori: option ${name} must be an absolute path (/...) or an http(s) URL, got '${value}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`express-odata-v2/fiori: option ${name} must be an http(s) URL, got '${value}'`);
  if (url.username !== '' || url.password !== '') throw new TypeError(`express-odata-v2/fiori: option ${name} must not carry a user name or password`);
}

/** Check the options and fill in the defaults. */
export function resolveFioriOptions(options: FioriOptions): ResolvedFioriOptions {
  if (options === null || typeof options !== 'object') throw new TypeError('express-odata-v2/fiori: fiori(options) needs an options object');
  const { model } = options;
  if (model === null || typeof model !== 'object' || !(model.entitySets instanceof Map))
    throw new TypeError('express-odata-v2/fiori: option model must be an EdmModel (use defineModel or loadEdmx)');
  checkLocation('service', options.service);
  const ui5 = options.ui5 ?? DEFAULT_UI5_BOOTSTRAP;
  checkLocation('ui5', ui5);
  if (options.title !== undefined && typeof options.title !== 'string') throw new TypeError('express-odata-v2/fiori: option title must be a string');
  return {
    model,
    service: options.service.endsWith('/') ? options.service : `${options.service}/`,
    ui5,
    title: options.title ?? model.defaultContainer.name,
  };
}
