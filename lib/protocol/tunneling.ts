/**
 * The methods of the service: method tunneling (MS-ODATA §2.2.5.8 "X-HTTP-Method"): "A server
 * supporting it must check every POST for this header and, if the value is valid, process the
 * request as that method", and which methods are implemented at all.
 */
import { ODataError } from '../errors';

const TUNNELED = new Set(['PUT', 'MERGE', 'PATCH', 'DELETE']);

/** Every method this service implements on some resource (HEAD as GET). */
const SERVICE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'MERGE', 'PATCH', 'DELETE']);

/**
 * RFC 9110 §9.1: "An origin server that receives a request method that is unrecognized or not
 * implemented SHOULD respond with the 501 (Not Implemented) status code." A method the service
 * knows but the resource does not take stays 405 (with Allow), decided by the dispatch table.
 */
export function checkMethodImplemented(method: string): void {
  if (!SERVICE_METHODS.has(method)) throw ODataError.fromCode('METHOD_NOT_IMPLEMENTED', { method });
}

/** The effective method of a request, given its method and headers (lower-case names). */
export function effectiveMethod(method: string, headers: Readonly<Record<string, string | undefined>>): string {
  const upper = method.toUpperCase();
  const primary = headers['x-http-method'];
  const override = headers['x-http-method-override'];
  if (primary === undefined && override === undefined) return upper;
  if (upper !== 'POST') {
    throw ODataError.fromCode('TUNNELING_INVALID', { detail: `X-HTTP-Method is only allowed on POST requests, not on ${upper}.` });
  }
  const a = primary?.trim().toUpperCase();
  const b = override?.trim().toUpperCase();
  if (a !== undefined && b !== undefined && a !== b) {
    throw ODataError.fromCode('TUNNELING_INVALID', { detail: `X-HTTP-Method '${primary}' and X-HTTP-Method-Override '${override}' disagree.` });
  }
  const tunneled = (a ?? b) as string;
  if (!TUNNELED.has(tunneled)) {
    throw ODataError.fromCode('TUNNELING_INVALID', { detail: `X-HTTP-Method '${primary ?? override}' is not one of PUT, MERGE, PATCH, DELETE.` });
  }
  return tunneled;
}
