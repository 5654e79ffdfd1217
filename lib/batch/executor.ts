/**
 * Runs parsed batch parts through the single-request pipeline, in request order (MS-ODATA
 * §2.2.7.6; consecutive retrievals side by side, answered in order). A changeset runs inside one transaction: all or nothing, and its responses are
 * reported only after the commit. No request kind is implemented here: every operation goes to
 * `handle`, exactly like a single request.
 */
import { ODataError, normalizeError } from '../errors';
import type { ODataRequest, ODataResponse, ResponseBody } from '../protocol/message';
import { referencedPath, resolveReferences } from './content-id';
import { defaultErrorResponse } from './error-response';
import { servicePathOf } from './request-target';
import type {
  BatchErrorResponder,
  BatchHandler,
  BatchOperation,
  BatchOperationResponse,
  BatchRequestOperation,
  BatchRequestPart,
  BatchResponsePart,
  BatchTransaction,
  BufferedResponse,
} from './types';

/** What the executor needs from the service. */
interface ExecuteOptions {
  /** The single-request pipeline. */
  readonly handle: BatchHandler;
  /** Runs a changeset atomically (the provider's transaction, or a pass-through). */
  readonly transaction: BatchTransaction;
  /** Writes an error response for a request (`service.fail`); defaults to a minimal writer. */
  readonly fail?: BatchErrorResponder;
}

/** Methods that only read: they are refused inside a changeset (MS-ODATA §2.2.7.6: changesets hold inserts, updates and deletes). */
const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

const NO_CONTENT_IDS: ReadonlyMap<string, string> = new Map();

/** Thrown inside the transaction to make it roll back; the failing response is kept aside. */
class ChangesetRollback extends Error {}

/**
 * Retrievals of one run started at once, at most. Enough for the usual batch of key reads to reach
 * the provider in one turn (SqlProvider then reads them with one statement), few enough that one
 * batch cannot take every pooled connection for long.
 */
const RETRIEVAL_CONCURRENCY = 16;

/** A GET or HEAD outside a changeset: it changes nothing, so its neighbours of the same kind may run beside it. */
function isRetrieval(part: BatchRequestPart): boolean {
  return part.kind === 'operation' && part.operation.kind === 'request' && READ_METHODS.has(part.operation.request.method);
}

/**
 * Execute every part; one response part per request part, in request order. Never rejects for a
 * part's failure. Consecutive retrievals outside changesets run concurrently (at most
 * RETRIEVAL_CONCURRENCY at a time): they change nothing, so none can see another's effect, and a
 * run ends before the next changeset or write starts, so every read still sees exactly the writes
 * of the parts before it (MS-ODATA §2.2.7.6: parts are processed in order).
 */
export async function executeBatch(parts: readonly BatchRequestPart[], options: ExecuteOptions): Promise<BatchResponsePart[]> {
  const run = new Runner(options);
  const responses: BatchResponsePart[] = [];
  let index = 0;
  while (index < parts.length) {
    let end = index;
    while (end < parts.length && isRetrieval(parts[end])) end++;
    if (end - index > 1) {
      responses.push(...(await inParallel(parts.slice(index, end), (part) => run.part(part))));
      index = end;
    } else {
      responses.push(await run.part(parts[index]));
      index++;
    }
  }
  return responses;
}

/** `work` for every item, at most RETRIEVAL_CONCURRENCY at a time; the results in the items' order. */
async function inParallel<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(RETRIEVAL_CONCURRENCY, items.length) }, worker));
  return results;
}

class Runner {
  private readonly handle: BatchHandler;
  private readonly transaction: BatchTransaction;
  private readonly failWith: BatchErrorResponder;

  constructor(options: ExecuteOptions) {
    this.handle = options.handle;
    this.transaction = options.transaction;
    this.failWith = options.fail ?? defaultErrorResponse;
  }

  async part(part: BatchRequestPart): Promise<BatchResponsePart> {
    switch (part.kind) {
      case 'invalid-changeset':
        return { kind: 'response', response: await this.fail(part.request, part.error), contentId: undefined };
      case 'operation': {
        const { operation } = part;
        if (operation.kind === 'invalid') {
          return {
            kind: 'response',
            response: await this.fail(operation.request, operation.error),
            contentId: operation.contentId,
            contentIdPlacement: operation.contentIdPlacement,
          };
        }
        if (READ_METHODS.has(operation.request.method)) {
          const response = await this.retrieve(operation);
          return { kind: 'response', response, contentId: operation.contentId, contentIdPlacement: operation.contentIdPlacement };
        }
        // A write outside a changeset is run as a changeset of one, so a failure leaves nothing
        // behind; it is answered as a plain part, like a retrieve.
        const outcome = await this.changeset([operation]);
        return outcome.kind === 'changeset' ? { kind: 'response', ...outcome.responses[0] } : outcome;
      }
      case 'changeset': {
        const checked = this.check(part.operations);
        if (checked.kind === 'refused') {
          const { operation, error } = checked;
          return {
            kind: 'response',
            response: await this.fail(operation.request, error),
            contentId: operation.contentId,
            contentIdPlacement: operation.contentIdPlacement,
          };
        }
        return this.changeset(checked.operations);
      }
    }
  }

  /** The changeset's requests, or the first reason to refuse it before running any of it: unreadable part, read method, duplicate Content-ID. */
  private check(
    operations: readonly BatchOperation[],
  ): { kind: 'refused'; operation: BatchOperation; error: ODataError } | { kind: 'ready'; operations: BatchRequestOperation[] } {
    const seen = new Map<string, string>();
    const ready: BatchRequestOperation[] = [];
    for (const operation of operations) {
      if (operation.kind === 'invalid') return { kind: 'refused', operation, error: operation.error };
      if (READ_METHODS.has(operation.request.method)) {
        const detail = `${operation.label} is a ${operation.request.method} request; a changeset may contain only POST, PUT, MERGE, PATCH and DELETE requests (MS-ODATA §2.2.7.6)`;
        return { kind: 'refused', operation, error: ODataError.fromCode('BATCH_NOT_ALLOWED', { detail }) };
      }
      if (operation.contentId !== undefined) {
        const first = seen.get(operation.contentId);
        if (first !== undefined) {
          const detail = `${operation.label}: the Content-ID '${operation.contentId}' is already used by ${first} in this changeset`;
          return { kind: 'refused', operation, error: ODataError.fromCode('BATCH_CONTENT_ID', { detail }, { target: 'Content-ID' }) };
        }
        seen.set(operation.contentId, operation.label);
      }
      ready.push(operation);
    }
    return { kind: 'ready', operations: ready };
  }

  private async retrieve(operation: BatchRequestOperation): Promise<BufferedResponse> {
    // Only to refuse a `$<id>` path: outside a changeset no Content-ID can be referenced. Other
    // paths skip the call (it copies the request and the id map).
    if (operation.request.path.startsWith('$')) {
      try {
        resolveReferences(operation.request, NO_CONTENT_IDS, operation.label);
      } catch (error) {
        return this.fail(operation.request, error);
      }
    }
    return this.call(operation.request);
  }

  /**
   * Run the operations in order inside one transaction. The first response with status >= 400
   * rolls the transaction back and becomes the changeset's single answer (MS-ODATA §2.2.7.6: "a
   * single response ... describing failure of the whole change set"); successful responses are
   * released only after the transaction resolved, so a rolled-back write is never reported.
   */
  private async changeset(operations: readonly BatchRequestOperation[]): Promise<BatchResponsePart> {
    let failure: BatchOperationResponse | undefined;
    // Collected outside the transaction's return value: a provider's transaction may not pass it on.
    const done: BatchOperationResponse[] = [];
    // Set when the transaction has settled: a run that was given up on (a timeout) and resumes
    // later must not go on with the next operations, outside any transaction.
    let settled = false;
    try {
      await this.transaction(async () => {
        // A transaction that retries its function starts from a clean slate.
        done.length = 0;
        failure = undefined;
        const ids = new Map<string, string>();
        for (const operation of operations) {
          if (settled) throw new ChangesetRollback();
          let request: ODataRequest;
          try {
            request = resolveReferences(operation.request, ids, operation.label);
          } catch (error) {
            failure = { response: await this.fail(operation.request, error), contentId: operation.contentId, contentIdPlacement: operation.contentIdPlacement };
            throw new ChangesetRollback();
          }
          const response = await this.call(request);
          if (response.status >= 400) {
            failure = { response, contentId: operation.contentId, contentIdPlacement: operation.contentIdPlacement };
            throw new ChangesetRollback();
          }
          if (operation.contentId !== undefined) {
            ids.set(operation.contentId, referencedPath(request, response.headers, servicePathOf(request.serviceRoot)));
          }
          done.push({ response, contentId: operation.contentId, contentIdPlacement: operation.contentIdPlacement });
        }
      });
    } catch (error) {
      settled = true;
      // Without a recorded failure, the transaction itself failed (commit refused, provider error, timeout).
      if (failure === undefined) return { kind: 'response', response: await this.fail(operations[0].request, error), contentId: undefined };
    }
    settled = true;
    // `failure` wins even over a faulty transaction that resolved after its function threw.
    if (failure !== undefined) return { kind: 'response', ...failure };
    if (done.length !== operations.length) {
      const error = new Error('The transaction resolved without running the changeset.');
      return { kind: 'response', response: await this.fail(operations[0].request, error), contentId: undefined };
    }
    return { kind: 'changeset', responses: done };
  }

  /** `handle` with its body read; a throw or an unreadable body becomes an error response. */
  private async call(request: ODataRequest): Promise<BufferedResponse> {
    let response: ODataResponse;
    try {
      response = await this.handle(request);
    } catch (error) {
      return this.fail(request, error);
    }
    try {
      // A text body (the usual one) is kept without an await.
      const body = typeof response.body === 'string' ? response.body : await settleBody(response.body);
      return headAware(request, { status: response.status, headers: response.headers, body });
    } catch (error) {
      return this.fail(request, error);
    }
  }

  private async fail(request: ODataRequest, error: unknown): Promise<BufferedResponse> {
    let response: ODataResponse;
    try {
      response = this.failWith(request, error);
    } catch {
      response = defaultErrorResponse(request, error);
    }
    try {
      return headAware(request, { status: response.status, headers: response.headers, body: await settleBody(response.body) });
    } catch {
      const fallback = defaultErrorResponse(request, normalizeError(undefined));
      return headAware(request, { status: fallback.status, headers: fallback.headers, body: await readBody(fallback.body) });
    }
  }
}

/** Marks the answer to a HEAD request, whose Content-Length (that of the GET) is unknown here. */
function headAware(request: ODataRequest, response: BufferedResponse): BufferedResponse {
  return request.method === 'HEAD' ? { ...response, body: undefined, head: true } : response;
}

/** A body read whole, text kept as text (the batch writer encodes it once, into the response). */
async function settleBody(body: ResponseBody | undefined): Promise<Buffer | string | undefined> {
  return typeof body === 'string' ? body : readBody(body);
}

/** A response body as bytes: embedded responses need their exact length before they are written. */
export async function readBody(body: ResponseBody | undefined): Promise<Buffer | undefined> {
  if (body === undefined) return undefined;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (Buffer.isBuffer(body)) return body;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  return Buffer.concat(chunks);
}
