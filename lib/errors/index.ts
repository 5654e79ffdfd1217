export { ERROR_CODES, formatMessage } from './codes';
export type { ErrorCode, ErrorCodeDefinition } from './codes';
export { ODataError, isODataError } from './odata-error';
export type { ODataErrorDetail, ODataErrorOptions } from './odata-error';
export { normalizeError } from './normalize';
