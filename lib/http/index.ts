export { readRawBody } from './raw-body';
export { toODataRequest, serviceRootOf, headersOf, splitUrl } from './request';
export type { ExpressLikeRequest } from './request';
export { sendResponse } from './response';
export { csrfPolicyOf, csrfFetchHeaders, checkCsrf } from './csrf';
export type { CsrfOptions, CsrfPolicy } from './csrf';
export { odataClientErrorHandler } from './client-error';
export type { ClientErrorListener } from './client-error';
export { standaloneErrorResponse } from './error-response';
