/**
 * `odata(options)`: the one function a host app mounts. It builds the service once and returns a
 * plain Node/Express middleware (so it works on Express 4 and 5 without importing either). No
 * protocol logic lives here: it checks the URI length and CSRF token, reads the body, hands the
 * request to the pipeline (`$batch` included) and writes the answer.
 */
import type { ServerResponse } from 'http';
import { normalizeError, ODataError } from './errors';
import { writeError } from './format';
import {
  awaitTurn,
  checkCsrf,
  checkServiceRoot,
  clearHeaders,
  csrfFetchHeaders,
  csrfPolicyOf,
  type CsrfPolicy,
  type ExpressLikeRequest,
  readRawBody,
  ResponseCutOffError,
  sendResponse,
  toODataRequest,
} from './http';
import type { ODataServiceOptions } from './options';
import type { ODataRequest, ODataResponse, RequestContext } from './protocol/message';
import { createService, type Service } from './service';
import { caughtProperty, isInstanceOf } from './util';

/** The middleware `odata()` returns; mount it with `app.use('/odata', odata({...}))`. */
export type ODataMiddleware = (request: ExpressLikeRequest, response: ServerResponse, next: (error?: unknown) => void) => void;

const METHODS_WITHOUT_BODY = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Create the OData service middleware. Options are validated here, once; a mistake throws a TypeError. */
export function odata(options: ODataServiceOptions): ODataMiddleware {
  const service = createService(options);
  const csrf = csrfPolicyOf(options.csrf);
  const checkRoot = memoisedRootCheck();
  // Never `next(error)`: the host's error handler would answer with its own page (Express's shows
  // the stack). `serve` answers every failure itself; this is the net under it.
  return (request, response) => {
    serve(service, csrf, checkRoot, request, response).catch((error: unknown) => lastResort(response, error));
  };
}

/**
 * `checkServiceRoot` that skips the check for the root and mount path it last accepted: a service
 * sees one or a few hosts, and the check (a URL parse) costs ~0.5 µs.
 */
function memoisedRootCheck(): (serviceRoot: string, mountPath: string) => void {
  let validRoot: string | undefined;
  let validMount: string | undefined;
  return (serviceRoot, mountPath) => {
    if (serviceRoot === validRoot && mountPath === validMount) return;
    checkServiceRoot(serviceRoot, mountPath);
    validRoot = serviceRoot;
    validMount = mountPath;
  };
}

async function serve(
  service: Service,
  csrf: CsrfPolicy | undefined,
  checkRoot: (serviceRoot: string, mountPath: string) => void,
  httpRequest: ExpressLikeRequest,
  httpResponse: ServerResponse,
): Promise<void> {
  // A pipelined request waits for the answers before it (a request that is not pipelined does not
  // wait at all), and is dropped unread when one of them closed the connection (RFC 9112 §9.6).
  const turn = awaitTurn(httpRequest, httpResponse);
  if (turn !== true && !(await turn)) return;
  const context: RequestContext = { request: httpRequest, state: new Map() };
  const method = (httpRequest.method ?? 'GET').toUpperCase();
  const base: ODataRequest = toODataRequest(httpRequest, method, undefined, context);
  let result: ODataResponse;
  try {
    const { limits } = service.options;
    const url = httpRequest.url ?? '';
    if (url.length > limits.maxUriLength) throw ODataError.fromCode('URI_TOO_LONG', { limit: limits.maxUriLength });
    // Every link of the answer starts with the service root: a Host that cannot form one is a 400 up front.
    checkRoot(base.serviceRoot, httpRequest.baseUrl ?? '');
    if (csrf !== undefined) {
      checkCsrf(csrf, method, base.headers);
      const fetched = csrfFetchHeaders(csrf, method, base.headers, base.serviceRoot.startsWith('https:'));
      if (fetched !== undefined) for (const [name, value] of Object.entries(fetched)) httpResponse.setHeader(name, value);
    }
    const body = METHODS_WITHOUT_BODY.has(method) ? undefined : await readRawBody(httpRequest, limits.maxBodyBytes, limits.bodyTimeout);
    result = await service.handle({ ...base, body });
  } catch (error) {
    result = service.fail(base, error);
  }
  await send(service, base, httpResponse, result);
}

/**
 * Send the answer, up to its last byte. A failure before the headers are out (Node refusing a
 * header value, a body that throws before its first chunk) is answered with an OData error
 * instead; after that the connection is closed (sendResponse) and the failure logged.
 */
async function send(service: Service, request: ODataRequest, httpResponse: ServerResponse, result: ODataResponse): Promise<void> {
  try {
    await sendResponse(httpResponse, result);
  } catch (error) {
    if (isInstanceOf(error, ResponseCutOffError)) {
      service.reportCutOff(request, caughtProperty(error, 'reason'), httpResponse.statusCode);
      return;
    }
    clearHeaders(httpResponse);
    await sendResponse(httpResponse, service.fail(request, error));
  }
}

/** The last net: a fixed OData 500 when nothing was sent yet, else a closed connection. Never throws. */
function lastResort(httpResponse: ServerResponse, error: unknown): void {
  try {
    if (httpResponse.headersSent) {
      httpResponse.destroy();
      return;
    }
    clearHeaders(httpResponse);
    httpResponse.statusCode = 500;
    httpResponse.setHeader('content-type', 'application/xml;charset=utf-8');
    httpResponse.setHeader('dataserviceversion', '1.0;');
    httpResponse.end(writeError(normalizeError(error), 'xml', { debug: false }));
  } catch {
    httpResponse.destroy();
  }
}
