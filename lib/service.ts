/**
 * THE pipeline: ODataRequest in, ODataResponse out. The HTTP layer calls `handle`, and so does
 * `$batch` (a row of the dispatch table) for each of its operations; nothing here knows about
 * Express. Steps: versions -> resource path -> query options -> dispatch -> negotiation -> handler
 * -> response version -> writer. Errors at any step become an error body in the negotiated format;
 * foreign errors are masked as 500 and logged.
 */
import { createHash } from 'crypto';
import { processBatch } from './batch';
import { isODataError, normalizeError, ODataError } from './errors';
import { buildModel, writeEdmx } from './edm';
import { withEntitySetSwitch, type SetCapability } from './edm/sap';
import type { EdmEntityType, EdmModel } from './edm/model';
import { errorContentType, responseHeaders, writeError, writeResult, type WriterContext } from './format';
import { buildRoutes, chooseResponseVersion, createUnitOfWork, dispatch } from './handlers';
import type { Handler, Routes, ServiceConfig } from './handlers';
import { type ODataServiceOptions, type ResolvedOptions, resolveOptions } from './options';
import type { DataProvider, Entity } from './provider/types';
import {
  assertETagValue,
  assertHeaderValues,
  checkMethodImplemented,
  checkRequestFeatures,
  checkRequestVersion,
  checkResponseVersion,
  effectiveMethod,
  encodeETag,
  formatVersion,
  negotiateFor,
  preferredErrorFormat,
} from './protocol';
import type { ResponseFormat } from './protocol';
import type { ODataRequest, ODataResponse } from './protocol/message';
import type { HandlerOutcome } from './result';
import { parseQueryOptions, parseResourcePath } from './uri';
import { describeCaught } from './util';
import type { QueryOptions, ResourcePath, ServicePath } from './uri/types';

/** A built service: one per `odata(...)` call. */
export interface Service {
  readonly options: ResolvedOptions;
  handle(request: ODataRequest): Promise<ODataResponse>;
  /** The error response for a request that failed before the pipeline could run (URI length, CSRF, body). */
  fail(request: ODataRequest, error: unknown): ODataResponse;
  /** Log a response that failed after its headers were sent (its connection was closed). */
  reportCutOff(request: ODataRequest, reason: unknown, status: number): void;
}

/**
 * The model as the service describes it in `$metadata`: `model`, with every entity set marked
 * `sap:creatable/updatable/deletable="false"` for each write method `provider` lacks (a
 * `readOnlyProvider` serves sets none of which is), and `sap:searchable="false"` when `search` is
 * off (SAP clients show a search field only where it says true), so the document says what the
 * service allows. Give it to `fiori()` when the service's provider does not write, so the preview
 * says the same.
 */
export function modelAsServed(model: EdmModel, provider: DataProvider, search = true): EdmModel {
  const denied: SetCapability[] = [];
  if (provider.create === undefined) denied.push('creatable');
  if (provider.update === undefined) denied.push('updatable');
  if (provider.delete === undefined) denied.push('deletable');
  if (denied.length === 0 && search) return model;
  let definition = search ? model.definition : withEntitySetSwitch(model.definition, 'searchable', false);
  for (const capability of denied) definition = withEntitySetSwitch(definition, capability, false);
  return buildModel(definition);
}

/**
 * Build the service once: options validated, `$metadata` bytes and ETag precomputed, the dispatch
 * table derived from the methods the provider implements.
 */
export function createService(input: ODataServiceOptions): Service {
  const options = resolveOptions(input);
  const { model, provider } = options;
  const document = Buffer.from(writeEdmx(modelAsServed(model, provider, options.search)), 'utf8');
  const metadata = { document, etag: `"${createHash('sha1').update(document).digest('base64url')}"`, version: model.dataServiceVersion };
  const etagOf = (entity: Entity, entityType: EdmEntityType): string | undefined => {
    const custom = provider.etag?.(entity, entityType);
    if (custom === undefined) return encodeETag(entity, entityType);
    // It goes into a header and into bodies: a quote or a line break is a provider bug, not a tag.
    assertETagValue(custom);
    return `W/"${custom}"`;
  };
  const config: ServiceConfig = { options, etagOf, metadata };
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

  /**
   * `POST $batch` (MS-ODATA §2.2.7.6): a multiplexer around this same pipeline. Its operations run
   * through `handleOperation` with the outer request's context; each changeset is one unit of
   * work (the provider's transaction, bounded by `providerTimeout`), which its operations join.
   */
  const serveBatch: Handler<ServicePath<'Batch'>> = async ({ request }) => {
    const answer = await processBatch({
      body: request.body ?? Buffer.alloc(0),
      contentType: request.headers['content-type'],
      outer: { serviceRoot: request.serviceRoot, headers: request.headers, context: request.context },
      handle: handleOperation,
      transaction: <T>(work: () => Promise<T>): Promise<T> => unitOfWork.write(request.context, work),
      fail,
      limits: options.limits,
    });
    return { status: answer.status, result: { kind: 'Batch', contentType: answer.headers['content-type'], body: answer.body } };
  };
  // The batch reader refuses `$batch` parts; this row keeps any spelling of one from running a batch in a batch.
  const nestedBatch: Handler<ServicePath<'Batch'>> = async () => {
    throw ODataError.fromCode('BATCH_NOT_ALLOWED', { detail: 'a batch cannot contain another $batch request' });
  };
  const routes = buildRoutes(provider, { batch: serveBatch });
  const operationRoutes = buildRoutes(provider, { batch: nestedBatch });

  const handle = (request: ODataRequest): Promise<ODataResponse> => run(request, routes);
  const handleOperation = (request: ODataRequest): Promise<ODataResponse> => run(request, operationRoutes);

  async function run(incoming: ODataRequest, table: Routes): Promise<ODataResponse> {
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
      const query: QueryOptions = parseQueryOptions(request.query, path, model, options.limits, options);
      checkRequestFeatures(request, path, query);
      const { handler, unit } = dispatch(table, path, request.method);
      const negotiated = negotiateFor(path, request, query);
      format = negotiated.format;
      if (unit === 'read' && timeout === undefined) {
        // The hot path: nothing to bound, no closure per request.
        return writeOutcome(request, await handler({ request, path, query, config }), negotiated.format, negotiated.contentType);
      }
      const produce = async (): Promise<ODataResponse> =>
        writeOutcome(request, await handler({ request, path, query, config }), negotiated.format, negotiated.contentType);
      if (unit === 'read') return boundedStream(await unitOfWork.read(request.context, produce));
      // $batch runs each operation and changeset as a unit of its own.
      if (unit === 'multiplexer') return await produce();
      // A write's answer is written inside its transaction and released only after the commit.
      return await unitOfWork.write(request.context, async () => settled(await produce()), { singleWrite: unit === 'single-write' });
    } catch (thrown) {
      return errorResponse(request, thrown, format);
    }
  }

  function writeOutcome(request: ODataRequest, outcome: HandlerOutcome, format: ResponseFormat, contentType: string): ODataResponse {
    const { result } = outcome;
    const version = chooseResponseVersion(result, format, request.headers['maxdataserviceversion']);
    checkResponseVersion(version, request.headers['maxdataserviceversion']);
    const headers = responseHeaders(outcome.headers, formatVersion(version));
    // Values that came from the provider (ETags, media types) must be valid before anything is sent.
    assertHeaderValues(headers);
    const status = outcome.status ?? (result.kind === 'NoContent' ? 204 : 200);
    // RFC 9110 §15.4.5: a 304 "cannot contain content".
    if (result.kind === 'NoContent' || status === 304) return { status, headers, body: undefined };
    if (result.kind === 'RawValue' || result.kind === 'Batch') {
      headers['content-type'] = result.contentType;
      return { status, headers, body: request.method === 'HEAD' ? undefined : result.body };
    }
    headers['content-type'] = contentType;
    if (result.kind === 'Metadata') return { status, headers, body: request.method === 'HEAD' ? undefined : result.document };
    if (result.kind === 'Count') {
      return { status, headers, body: request.method === 'HEAD' ? undefined : String(result.count) };
    }
    const context: WriterContext = {
      serviceRoot: request.serviceRoot,
      model,
      version,
      now: options.now,
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
        message: error.cause === undefined ? error.message : messageOf(error.cause),
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
      message: `The response was cut off after its headers were sent: ${messageOf(reason)}`,
      status,
      error: reason,
      method: request.method,
      url: request.path + (request.query ? `?${request.query}` : ''),
    });
  }
  return Object.freeze({ options, handle, fail, reportCutOff });
}

/** A caught value's message for the logger (its summary when it has none), read without trusting it. */
function messageOf(caught: unknown): string {
  const described = describeCaught(caught);
  return described.message ?? described.summary;
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
