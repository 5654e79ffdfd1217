import { ownDataKeys } from '../util';
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
const isStatus = (value: unknown): boolean => typeof value === 'number' && Number.isInteger(value) && value >= 400 && value <= 599;
const isPosition = (value: unknown): boolean => value === undefined || Number.isInteger(value);
const isTarget = (value: unknown): boolean => value === undefined || isString(value);

/**
 * True when `object` (not a Proxy: checked) has an own data property `name` whose value passes
 * `check`; an absent one passes when `optional`. An accessor never does: a getter could answer
 * differently when the writer reads it.
 */
function hasData(object: unknown, name: string, check: (value: unknown) => boolean, optional = false): boolean {
  if (ownDataKeys(object) === undefined) return false;
  const descriptor = Object.getOwnPropertyDescriptor(object, name);
  if (descriptor === undefined) return optional;
  return 'value' in descriptor && check(descriptor.value);
}

/** True when every field an error response is written from is plain data of the right type (no getter runs to find out). */
function isSound(error: ODataError): boolean {
  return (
    hasData(error, 'status', isStatus) &&
    hasData(error, 'code', isString) &&
    hasData(error, 'message', isString) &&
    hasData(error, 'target', isTarget, true) &&
    hasData(error, 'position', isPosition, true) &&
    hasData(error, 'headers', isStringRecord) &&
    hasData(error, 'details', isDetailList)
  );
}

function isStringRecord(value: unknown): boolean {
  const keys = ownDataKeys(value);
  return keys !== undefined && !Array.isArray(value) && keys.every((name) => hasData(value, name, isString));
}

function isDetailList(value: unknown): boolean {
  const keys = ownDataKeys(value);
  return keys !== undefined && Array.isArray(value) && keys.every((index) => hasData(value, index, isDetail));
}

function isDetail(value: unknown): boolean {
  return (
    hasData(value, 'code', isString) &&
    hasData(value, 'message', isString) &&
    hasData(value, 'target', isTarget, true) &&
    hasData(value, 'severity', isTarget, true)
  );
}
