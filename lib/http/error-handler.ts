/**
 * `odataErrorHandler()`: Express error middleware for the service's routes. A body parser that the
 * host app runs before the service (`app.use(express.json())`) fails a malformed or oversized body
 * before the service sees it, and Express's default handler then answers with an HTML page and a
 * stack trace. This middleware answers those failures as OData errors instead, in the format the
 * client asked for (400, 413, 415). An `ODataError` the host's own middleware passes on (an
 * authentication check's 401) is answered as itself; every other error goes on to the next
 * handler unchanged.
 */
import type { ServerResponse } from 'http';
import { isODataError, normalizeError, ODataError } from '../errors';
import { caughtProperty } from '../util';
import type { ExpressLikeRequest } from './request';
import { headersOf, splitUrl } from './request';
import { sendResponse } from './response';
import { standaloneErrorResponse } from './error-response';

/** Express error middleware (four parameters, so Express calls it with the error). */
export type ODataErrorHandler = (error: unknown, request: ExpressLikeRequest, response: ServerResponse, next: (error?: unknown) => void) => void;

/** The fields body-parser (Express 4 and 5) and raw-body put on the errors they raise (via http-errors), read once each. */
interface BodyParserError {
  readonly type: string;
  readonly message: string;
  readonly limit: unknown;
}

/**
 * The fields of a body parser's error, or undefined for anything else. Read with caughtProperty:
 * whatever another middleware passed to `next(error)` reaches this handler, a Proxy included.
 */
function bodyParserError(error: unknown): BodyParserError | undefined {
  const type = caughtProperty(error, 'type');
  const message = caughtProperty(error, 'message');
  if (typeof type !== 'string' || typeof message !== 'string' || caughtProperty(error, 'expose') !== true) return undefined;
  return { type, message, limit: caughtProperty(error, 'limit') };
}

/**
 * The OData error for a body parser's failure, or undefined for any other error. Only the types
 * body-parser documents are mapped; their messages are written for clients (`expose: true`).
 */
export function bodyParserErrorToOData(error: unknown, contentType: string | undefined): ODataError | undefined {
  const parsed = bodyParserError(error);
  if (parsed === undefined) return undefined;
  switch (parsed.type) {
    case 'entity.too.large':
      return ODataError.fromCode('BODY_TOO_LARGE', { limit: typeof parsed.limit === 'number' ? parsed.limit : 'the host' }, { cause: error });
    case 'entity.parse.failed':
      return ODataError.fromCode('BODY_SYNTAX', { format: 'JSON', detail: parsed.message }, { cause: error });
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return ODataError.fromCode('UNSUPPORTED_MEDIA_TYPE', { contentType: contentType ?? '(none)', detail: parsed.message }, { cause: error });
    case 'request.size.invalid':
      return ODataError.fromCode('BAD_REQUEST', { detail: 'The request body is not as long as its Content-Length says.' }, { cause: error });
    case 'request.aborted':
      return ODataError.fromCode('BAD_REQUEST', { detail: 'The request was aborted before its body was read.' }, { cause: error });
    case 'parameters.too.many':
      return ODataError.fromCode('BAD_REQUEST', { detail: parsed.message }, { cause: error });
    default:
      return undefined;
  }
}

/**
 * Express error middleware that answers the host's body-parser failures on the service's routes
 * as OData errors, and an `ODataError` passed to `next(error)` as itself (its status, code,
 * message and headers). Mount it on the same path as the service, after it:
 * `app.use('/odata', odata(...)); app.use('/odata', odataErrorHandler());`
 */
export function odataErrorHandler(): ODataErrorHandler {
  // Four declared parameters: Express tells error middleware by the function's length.
  return function odataBodyParserErrors(error, request, response, next) {
    // normalizeError: an ODataError is answered as itself only when its fields are plain data.
    const odataError = isODataError(error) ? normalizeError(error) : bodyParserErrorToOData(error, request.headers['content-type']);
    if (odataError === undefined || response.headersSent) {
      next(error);
      return;
    }
    const method = (request.method ?? 'GET').toUpperCase();
    const { query } = splitUrl(request.url ?? '');
    // The rest of an oversized body is not read: close the connection after the answer.
    if (odataError.status === 413) response.setHeader('connection', 'close');
    sendResponse(response, standaloneErrorResponse({ method, query, headers: headersOf(request) }, odataError)).catch(next);
  };
}
