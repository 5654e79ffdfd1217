/**
 * `$batch` (MS-ODATA §2.2.7.6): a multiplexer around the single-request pipeline. `processBatch`
 * reads the multipart body into ODataRequests, runs them through `handle` (changesets inside
 * `transaction`) and writes the 202 multipart response.
 */
import { ODataError } from '../errors';
import { readBatchRequest } from './batch-request';
import { parseMultipartBoundary } from './content-type';
import { executeBatch } from './executor';
import { type BoundaryFactory, writeBatchResponse } from './multipart-writer';
import { type BatchErrorResponder, type BatchHandler, type BatchLimits, type BatchTransaction, DEFAULT_BATCH_LIMITS, type OuterRequest } from './types';

export type { BatchLimits, OuterRequest } from './types';
export { splitMultipart } from './multipart-reader';
export { parseRequestLine } from './http-message';

/** Everything `processBatch` needs: the outer request's body and headers, and the service's functions. */
export interface ProcessBatchInput {
  /** The raw body of `POST $batch`. */
  readonly body: Buffer;
  /** The outer Content-Type header. */
  readonly contentType: string | undefined;
  readonly outer: OuterRequest;
  /** The single-request pipeline (`service.handle`). */
  readonly handle: BatchHandler;
  /** Runs a changeset atomically (the provider's `transaction`, or `(fn) => fn()` without one). */
  readonly transaction: BatchTransaction;
  /** Error responses in the negotiated format (`service.fail`); a minimal writer otherwise. */
  readonly fail?: BatchErrorResponder;
  /** Limits; `ServiceLimits` fits as it is. Missing values take `DEFAULT_BATCH_LIMITS`. */
  readonly limits?: Partial<BatchLimits>;
  /** @internal Boundary factory; tests pin it for byte-exact goldens. */
  readonly createBoundary?: BoundaryFactory;
}

/** The outer response: always 202 with a multipart body once the batch headers are valid. */
export interface BatchHttpResponse {
  readonly status: 202;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/**
 * Process one `$batch` request. Throws a 4xx ODataError only when the batch as a whole is refused
 * and nothing ran: bad Content-Type (BATCH_CONTENT_TYPE), body over `maxBodyBytes` (BODY_TOO_LARGE),
 * unreadable structure (BATCH_SYNTAX) or a limit (BATCH_PART_LIMIT). Every part's own failure is
 * an embedded error response inside the 202 (MS-ODATA §2.2.7.6).
 */
export async function processBatch(input: ProcessBatchInput): Promise<BatchHttpResponse> {
  const limits = resolveBatchLimits(input.limits);
  if (input.body.length > limits.maxBodyBytes) throw ODataError.fromCode('BODY_TOO_LARGE', { limit: limits.maxBodyBytes });
  const boundary = parseMultipartBoundary(input.contentType, 'BATCH_CONTENT_TYPE');
  const parts = readBatchRequest(input.body, boundary, input.outer, limits);
  const responses = await executeBatch(parts, { handle: input.handle, transaction: input.transaction, fail: input.fail });
  const written = writeBatchResponse(responses, input.createBoundary);
  return {
    status: 202,
    headers: {
      'content-type': written.contentType,
      'content-length': String(written.body.length),
      dataserviceversion: '1.0;',
    },
    body: written.body,
  };
}

/** The four batch limits from any object that has them (such as `ServiceLimits`), defaults for the rest. */
export function resolveBatchLimits(limits: Partial<BatchLimits> | undefined): BatchLimits {
  const pick = (name: keyof BatchLimits): number => {
    const value = limits?.[name];
    return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : DEFAULT_BATCH_LIMITS[name];
  };
  return {
    maxBodyBytes: pick('maxBodyBytes'),
    maxBatchParts: pick('maxBatchParts'),
    maxChangesetOperations: pick('maxChangesetOperations'),
    maxBatchPartHeaderBytes: pick('maxBatchPartHeaderBytes'),
  };
}
