/**
 * Error responses for requests that never reached the pipeline (Node's HTTP parser refused them,
 * or a host's body parser failed before the service ran): an OData error body in the format the
 * client prefers (verbose JSON when it asks for JSON, else `<m:error>` XML), as `service.fail`
 * writes them, without debug details.
 */
import type { ODataError } from '../errors';
import { errorContentType, writeError } from '../format';
import { preferredErrorFormat } from '../protocol';
import type { ODataRequest, ODataResponse } from '../protocol/message';

/** The response for `error` to a request known only by its method, query and headers. */
export function standaloneErrorResponse(request: Pick<ODataRequest, 'method' | 'query' | 'headers'>, error: ODataError): ODataResponse {
  const format = preferredErrorFormat(request);
  const headers: Record<string, string> = { ...error.headers, 'content-type': errorContentType(format), dataserviceversion: '1.0;' };
  return { status: error.status, headers, body: request.method === 'HEAD' ? undefined : writeError(error, format, { debug: false }) };
}
