/**
 * Catching the ODataError a call must throw, for every spec. Anything else thrown (a bug, a
 * TypeError) fails the test as itself, and throwing nothing fails it with a clear message.
 */
import { type ODataError, isODataError } from '../../lib/errors';

/** Run `fn`, which must throw an ODataError, and return that error. */
export function catchODataError(fn: () => unknown): ODataError {
  try {
    fn();
  } catch (error) {
    if (isODataError(error)) return error;
    throw error;
  }
  throw new Error('expected an ODataError, but nothing was thrown');
}

/** Await `promise`, which must reject with an ODataError, and return that error. */
export async function rejectsWithODataError(promise: Promise<unknown>): Promise<ODataError> {
  try {
    await promise;
  } catch (error) {
    if (isODataError(error)) return error;
    throw error;
  }
  throw new Error('expected an ODataError, but the promise resolved');
}

/** `[code, status, message]` of the ODataError `fn` throws: one row of an invalid-input table. */
export function failureOf(fn: () => unknown): [string, number, string] {
  const error = catchODataError(fn);
  return [error.code, error.status, error.message];
}

/** `"404 ENTITY_NOT_FOUND: message"`: status, code and message of the ODataError `fn` throws. */
export function describeFailure(fn: () => unknown): string {
  const error = catchODataError(fn);
  return `${error.status} ${error.code}: ${error.message}`;
}

/** The same description for a promise that must reject. */
export async function describeRejection(promise: Promise<unknown>): Promise<string> {
  const error = await rejectsWithODataError(promise);
  return `${error.status} ${error.code}: ${error.message}`;
}
