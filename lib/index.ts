/**
 * express-odata-v2: the public surface. Everything exported here is supported API; anything
 * else is internal and may change.
 */
export { odata } from './middleware';
export type { ODataMiddleware } from './middleware';
export type { ODataServiceOptions, ServiceLimits, ServiceLogEvent } from './options';
export { DEFAULT_LIMITS } from './options';
export { ODataError, ERROR_CODES, isODataError } from './errors';
export type { ErrorCode, ODataErrorDetail, ODataErrorOptions } from './errors';
export { defineModel, buildModel, loadEdmx, readEdmx, writeEdmx } from './edm';
export type * from './edm/definition';
export type * from './edm/model';
export type { EdmPrimitiveTypeName, PrimitiveValue, ComplexValue, PropertyValue } from './edm/primitives';
export type * from './provider/types';
export type * from './uri/types';
export type * from './uri/expr/ast';
export type { RequestContext, ODataRequest, ODataResponse } from './protocol/message';
export { MemoryProvider } from './providers/memory';
