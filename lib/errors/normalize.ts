import { ownDataKeys, ownDataProperty } from '../util';
import { ODataError, isODataError } from './odata-error';

/**
 * Turn anything thrown into an ODataError that is safe to send. Foreign errors (provider bugs,
 * library exceptions) become a 500 with a fixed message; the original stays reachable as `cause`
 * (non-enumerable) for the logger hook. So does an ODataError whose fields a provider tampered
 * with (a getter where the status was, a Proxy for headers): what reaches the wire is read from
 * plain data only.
 */
export function normalizeError(error: unknown): ODataError {
  if (isODataError(error) && isSound(error)) return error;
  return ODataError.fromCode('INTERNAL', {}, { cause: error });
}

const isString = (value: unknown): value is string => typeof value === 'string';
const optional = (value: unknown, check: (value: unknown) => boolean): boolean => value === undefined || check(value);

/** True when every field an error response is written from is plain data of the right type (no getter runs to find out). */
function isSound(error: ODataError): boolean {
  const status = ownDataProperty(error, 'status');
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 599) return false;
  if (!isString(ownDataProperty(error, 'code')) || !isString(ownDataProperty(error, 'message'))) return false;
  if (!optional(ownDataProperty(error, 'target'), isString) || !optional(ownDataProperty(error, 'position'), Number.isInteger)) return false;
  return isStringRecord(ownDataProperty(error, 'headers')) && isDetailList(ownDataProperty(error, 'details'));
}

function isStringRecord(value: unknown): boolean {
  const keys = ownDataKeys(value);
  return keys !== undefined && !Array.isArray(value) && keys.every((name) => isString(ownDataProperty(value, name)));
}

function isDetailList(value: unknown): boolean {
  const keys = ownDataKeys(value);
  return keys !== undefined && Array.isArray(value) && keys.every((index) => isDetail(ownDataProperty(value, index)));
}

function isDetail(value: unknown): boolean {
  return (
    isString(ownDataProperty(value, 'code')) &&
    isString(ownDataProperty(value, 'message')) &&
    optional(ownDataProperty(value, 'target'), isString) &&
    optional(ownDataProperty(value, 'severity'), isString)
  );
}
