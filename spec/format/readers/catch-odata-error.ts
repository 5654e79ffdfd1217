/** Run `fn`, which must throw an ODataError, and return that error (no model needed). */
import { ODataError } from '../../../lib/errors';

export function catchODataError(fn: () => unknown): ODataError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ODataError) return error;
    throw error;
  }
  throw new Error('expected an ODataError, but nothing was thrown');
}
