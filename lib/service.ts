/**
 * THE pipeline: ODataRequest in, ODataResponse out. The HTTP layer and `$batch` both call
 * `handle`; nothing here knows about Express. Steps: versions -> resource path -> query options ->
 * negotiation -> handler -> response version -> writer. Errors at any step become an error body in
 * the negotiated format; foreign errors are masked as 500 and logged.
 */
import { createHash } from 'crypto';
import { isODataError, normalizeError } from './errors';
import type { ODataError } from './errors';
import { writeEdmx } from './edm';
import type { EdmEntityType } from './edm/model';
import { errorContentType, writeError, writeResult, WriterContext } from './format';
import { chooseResponseVersion, createUnitOfWork, dispatch, ServiceConfig } from './handlers';
import { ODataServiceOptions, ResolvedOptions, resolveOptions } from './options';
import type { Entity } from './provider/types';
import { assertETagValue, assertHeaderValues, checkMethodImplemented, checkRequestFeatures, checkRequestVersion, checkResponseVersion, effectiveMethod, computeETag, formatVersion, negotiateFor, preferredErrorFormat } from './protocol';
import type { ResponseFormat } from './protocol';
import type { ODataRequest, ODataResponse, RequestContext } from './protocol/message';
import type { HandlerOutcome } from './result';
import { parseQueryOptions, parseResourcePath } from './uri';
import type { QueryOptions, ResourcePath } from './uri/types';

/** A built service: one per `odata(...)` call. */
export interface Service {
  readonly options: ResolvedOptions;
  handle(request: ODataRequest): Promise<ODataResponse>;
  /** The error response for a request that failed before the pipeline could run (tunneling, body, batch). */
  fail(request: ODataRequest, error: unknown): ODataResponse;
  /** Log a response that failed after its headers were sent (its connection was closed). */
  reportCutOff(request: ODataRequest, reason: unknown, status: number): void;
  /** Run a `$batch` changeset's work as one unit: the provider's transaction, bounded by `providerTimeout`. */
  transaction<T>(context: RequestContext, work: () => Promise<T>): Promise<T>;
}

/** Build the service once: options validated, `$metadata` bytes and ETag precomputed. */
export function createService(input: ODataServiceOptions): Service {
  const options = resolveOptions(input);
  const { model, provider } = options;
  const metadataBody = Buffer.from(writeEdmx(model), 'utf8');
  const metadataETag = `"${createHash('sha1').update(metadataBody).digest('base64url')}"`;
  const etagOf = (entity: Entity, entityType: EdmEntityType): string | undefined => {
    const custom = provider.etag?.(entity, entityType);
    if (custom === undefined) return computeETag(entity, entityType);
    // It goes into a header and into bodies: a quote or a line break is a provider bug, not a tag.
    assertETagValue(custom);
    return `W/"${custom}"`;
  };
  const config: ServiceConfig = { options, etagOf };
  const timeout = options.limits.providerTimeout;
  const unitOfWork = createUnitOfWork(provider, timeout);
  /** A streamed body whose every chunk must come within the provider timeout. */
  const boundedStream = (response: ODataResponse): ODataResponse => {
    const { body } = response;
    if (body === undefined || typeof body === 'string' || Buffer.isBuffer(body)) return response;
    return { status: response.status, headers: response.headers, body: unitOfWork.stream(body) };
  };
  // Media link entries need their media's content type (Atom content/@src, JSON media_src).
  const mediaOf = provider.mediaOf === undefined ? undefined : provider.mediaOf.bind(provider);

  async function handle(incoming: ODataRequest): Promise<ODataResponse> {
    let format: ResponseFormat | undefined;
    let request = incoming;
    try {
      // Method tunneling applies to every request, standalone or a $batch part (MS-ODATA §2.2.5.8).
      const method = effectiveMethod(incoming.method, incoming.headers);
      if (method !== incoming.method) request = { ...incoming, method };
      // 501 before anything else: no resource of this service takes the method.
      checkMethodImplemented(method);
      checkRequestVersion(request.headers);
      const path: ResourcePath = parseResourcePath(request.path, model);
      const query: QueryOptions = parseQueryOptions(request.query, path, model, options.limits);
      checkRequestFeatures(request, path, query);
      const handler = dispatch(path.kind, request.method);
      const negotiated = negotiateFor(path, request, query);
      format = negotiated.format;
      if (path.kind === 'Metadata') return metadataResponse(request, negotiated.contentType);
      const reads = request.method === 'GET' || request.method === 'HEAD';
      if (reads && timeout === undefined) {
        // The hot path: nothing to bound, no closure per request.
        return writeOutcome(request, await handler({ request, path, query, config }), negotiated.format, negotiated.contentType);
      }
      const produce = async (): Promise<ODataResponse> =>
        writeOutcome(request, await handler({ request, path, query, config }), negotiated.format, negotiated.contentType);
      if (reads) return boundedStream(await unitOfWork.read(request.context, produce));
      // A write's answer is written inside its transaction and released only after the commit.
      return await unitOfWork.write(request.context, async () => settled(await produce()));
    } catch (thrown) {
      return errorResponse(request, thrown, format);
    }
  }

  function metadataResponse(request: ODataRequest, contentType: string): ODataResponse {
    const version = formatVersion(model.dataServiceVersion);
    checkResponseVersion(model.dataServiceVersion, request.headers['maxdataserviceversion']);
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => tag.trim() === metadataETag || tag.trim() === '*')) {
      return { status: 304, headers: { etag: metadataETag, dataserviceversion: version }, body: undefined };
    }
    const body = request.method === 'HEAD' ? undefined : metadataBody;
    return { status: 200, headers: { 'content-type': contentType, etag: metadataETag, dataserviceversion: version }, body };
  }

  function writeOutcome(request: ODataRequest, outcome: HandlerOutcome, format: ResponseFormat, contentType: string): ODataResponse {
    const { result } = outcome;
    const version = chooseResponseVersion(result, format, request.headers['maxdataserviceversion']);
    checkResponseVersion(version, request.headers['maxdataserviceversion']);
    // A copy by loop: `{ ...outcome.headers, dataserviceversion }` (spread, then a new key) takes a slow path in V8, ~0.4 µs.
    const headers: Record<string, string> = {};
    const given = outcome.headers;
    if (given !== undefined) for (const name of Object.keys(given)) headers[name] = given[name];
    headers.dataserviceversion = formatVersion(version);
    // Values that came from the provider (ETags, media types) must be valid before anything is sent.
    assertHeaderValues(headers);
    const status = outcome.status ?? (result.kind === 'NoContent' ? 204 : 200);
    if (result.kind === 'NoContent') return { status, headers, body: undefined };
    if (result.kind === 'RawValue') {
      headers['content-type'] = result.contentType;
      return { status, headers, body: request.method === 'HEAD' ? undefined : result.body };
    }
    headers['content-type'] = contentType;
    if (result.kind === 'Count') {
      return { status, headers, body: request.method === 'HEAD' ? undefined : String(result.count) };
    }
    const context: WriterContext = {
      serviceRoot: request.serviceRoot,
      model,
      version,
      // Only Atom writes `<updated>`: JSON responses skip reading and formatting the clock (~0.6 µs).
      updated: format === 'json' ? '' : isoSeconds(options.now()),
      etagOf,
      mediaOf,
      expansionBudget: expands(result) ? { remaining: options.limits.maxExpandedEntities, limit: options.limits.maxExpandedEntities } : undefined,
    };
    const body = request.method === 'HEAD' ? undefined : writeResult(result, format, context);
    return { status, headers, body };
  }

  function errorResponse(request: ODataRequest, thrown: unknown, negotiated: ResponseFormat | undefined): ODataResponse {
    const error = withValidHeaders(normalizeError(thrown));
    if (error.status >= 500) {
      options.logger({
        level: 'error',
        message: error.cause instanceof Error ? error.cause.message : error.message,
        status: error.status,
        error: error.cause ?? error,
        method: request.method,
        url: request.path + (request.query ? `?${request.query}` : ''),
      });
    }
    // Counts and raw values have no JSON form of their own, but their errors do: follow the client.
    const followsClient = negotiated === undefined || negotiated === 'text' || negotiated === 'raw';
    const format = negotiated === 'json' || (followsClient && preferredErrorFormat(request) === 'json') ? 'json' : 'xml';
    const headers: Record<string, string> = {
      ...error.headers,
      'content-type': errorContentType(format),
      dataserviceversion: '1.0;',
    };
    const body = request.method === 'HEAD' ? undefined : writeError(error, format, { debug: options.debug });
    return { status: error.status, headers, body };
  }

  const fail = (request: ODataRequest, error: unknown): ODataResponse => errorResponse(request, error, undefined);

  function reportCutOff(request: ODataRequest, reason: unknown, status: number): void {
    const known = isODataError(reason) && reason.status < 500;
    options.logger({
      level: known ? 'warn' : 'error',
      message: `The response was cut off after its headers were sent: ${reason instanceof Error ? reason.message : String(reason)}`,
      status,
      error: reason,
      method: request.method,
      url: request.path + (request.query ? `?${request.query}` : ''),
    });
  }
  return Object.freeze({ options, handle, fail, reportCutOff, transaction: unitOfWork.write });
}

/** True for a feed or entry that expands navigation properties: its writing is counted against maxExpandedEntities. */
function expands(result: HandlerOutcome['result']): boolean {
  return (result.kind === 'Feed' || result.kind === 'Entry') && result.selectExpand.expand.length > 0;
}

/** A response with its body read whole (a write's answer is complete before its transaction commits). */
async function settled(response: ODataResponse): Promise<ODataResponse> {
  const { body } = response;
  if (body === undefined || typeof body === 'string' || Buffer.isBuffer(body)) return response;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  return { status: response.status, headers: response.headers, body: Buffer.concat(chunks) };
}

/**
 * An ODataError whose headers HTTP can carry: one with a header value a provider broke (a line
 * break in an ODataError's headers) becomes a 500 whose cause says why, and is logged as one.
 */
function withValidHeaders(error: ODataError): ODataError {
  try {
    assertHeaderValues(error.headers);
    return error;
  } catch (invalid) {
    return normalizeError(invalid);
  }
}

/** `2026-11-22T14:30:05Z`: Atom `updated` values without milliseconds, as the original servers wrote them. */
function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

