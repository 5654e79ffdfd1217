/**
 * `express-odata-v2/fiori`: a preview of an OData service as SAP Fiori elements apps. `fiori(options)`
 * is a middleware that serves a launch page listing the model's entity sets, each opening a
 * generic List Report with its Object Page, bootstrapping SAPUI5 from SAP's CDN or from a given
 * location. It reads the model only; the service itself is `odata()`, mounted beside it.
 */
export { fiori } from './middleware';
export type { FioriMiddleware } from './middleware';
export { DEFAULT_UI5_BOOTSTRAP, UI5_VERSION } from './options';
export type { FioriOptions } from './options';
