/**
 * The one error of work that did not finish in time (the service's `limits.providerTimeout`, a
 * MemoryProvider transaction's `transactionTimeout`): 503 PROVIDER_TIMEOUT with `Retry-After`.
 * Providers recognise it to know that the service gave up on their work.
 */
import { ODataError, isODataError } from '../errors';
import { ownDataProperty } from '../util';

/** 503 PROVIDER_TIMEOUT for work that did not finish within `timeout` ms; `Retry-After` is the timeout in seconds (at least 1). */
export function providerTimeoutError(timeout: number): ODataError {
  return ODataError.fromCode('PROVIDER_TIMEOUT', { timeout }, { headers: { 'retry-after': String(Math.max(1, Math.ceil(timeout / 1000))) } });
}

/** True for the timeout error: the work it interrupted may still be running. Total: `error` may be anything a provider threw. */
export function isProviderTimeout(error: unknown): error is ODataError {
  return isODataError(error) && ownDataProperty(error, 'code') === 'PROVIDER_TIMEOUT';
}
