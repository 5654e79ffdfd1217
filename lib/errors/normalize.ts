import { ODataError, isODataError } from './odata-error';

/**
 * Turn anything thrown into an ODataError that is safe to send. Foreign errors (provider bugs,
 * library exceptions) become a 500 with a fixed message; the original stays reachable as `cause`
 * (non-enumerable) for the logger hook.
 */
export function normalizeError(error: unknown): ODataError {
  if (isODataError(error)) return error;
  return ODataError.fromCode('INTERNAL', {}, { cause: error });
}
