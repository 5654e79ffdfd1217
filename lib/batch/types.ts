/**
 * The shapes `$batch` passes between its steps: limits, the outer request, the parsed parts the
 * reader produces, and the buffered response parts the executor hands to the writer.
 */
import type { ODataError } from '../errors';
import type { ODataRequest, ODataResponse, RequestContext } from '../protocol/message';

/** Limits of one `$batch` request; names match `ServiceLimits`, so service limits can be passed as they are. */
export interface BatchLimits {
  /** Largest batch body in bytes (413 above it). Default 10 MiB. */
  readonly maxBodyBytes: number;
  /** Most top-level parts (retrieves and changesets). Default 100. */
  readonly maxBatchParts: number;
  /** Most operations in one changeset. Default 100. */
  readonly maxChangesetOperations: number;
  /** Largest header block of one part: MIME headers, or request line plus headers. Default 16 KiB. */
  readonly maxBatchPartHeaderBytes: number;
}

/** Defaults of every batch limit. */
export const DEFAULT_BATCH_LIMITS: BatchLimits = Object.freeze({
  maxBodyBytes: 10 * 1024 * 1024,
  maxBatchParts: 100,
  maxChangesetOperations: 100,
  maxBatchPartHeaderBytes: 16 * 1024,
});

/** The outer `POST $batch` request as the http layer saw it. */
export interface OuterRequest {
  /** Absolute service root ending with `/`, e.g. `http://host/odata/`. */
  readonly serviceRoot: string;
  /** Mount path of the service without a trailing slash (`/odata`, or `` at the root); derived from serviceRoot when absent. */
  readonly servicePath?: string;
  /** Headers of the outer request by lower-case name. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The outer request's context: the same object for every part (MS-ODATA: parts are authorised like single requests). */
  readonly context: RequestContext;
}

/**
 * Where an operation's Content-ID came from, so that its response echoes it in the same place
 * (MS-ODATA §2.2.7.6.6): the MIME part headers (`part`, the default: MS-ODATA's examples, SAP Cloud
 * SDK), the embedded request's own headers (`message`: the .NET clients, SAPUI5), or both.
 */
export type ContentIdPlacement = 'part' | 'message' | 'both';

/** A batch operation that was read into a request. */
export interface BatchRequestOperation {
  readonly kind: 'request';
  readonly request: ODataRequest;
  readonly contentId: string | undefined;
  /** Where `contentId` was read; undefined means the MIME part headers. */
  readonly contentIdPlacement?: ContentIdPlacement;
  /** `part 2, operation 1`: names the operation in messages. */
  readonly label: string;
}

/** A batch operation that could not be read; `request` is the best approximation, used to pick the error format. */
interface BatchInvalidOperation {
  readonly kind: 'invalid';
  readonly error: ODataError;
  readonly request: ODataRequest;
  readonly contentId: string | undefined;
  /** Where `contentId` was read; undefined means the MIME part headers. */
  readonly contentIdPlacement?: ContentIdPlacement;
  readonly label: string;
}

/** One operation of a batch: a retrieve, or one request of a changeset. */
export type BatchOperation = BatchRequestOperation | BatchInvalidOperation;

/** A top-level part of a batch request. */
export type BatchRequestPart =
  | { readonly kind: 'operation'; readonly operation: BatchOperation }
  | { readonly kind: 'changeset'; readonly operations: readonly BatchOperation[] }
  | { readonly kind: 'invalid-changeset'; readonly error: ODataError; readonly request: ODataRequest };

/** A response whose body has been read whole: bytes, or text that is written as UTF-8. */
export interface BufferedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Text stays text (the writers' output): it is encoded once, into the batch body. */
  readonly body: Buffer | string | undefined;
  /** The answer to a HEAD request: written without a body and without Content-Length (RFC 7230 §3.3.2). */
  readonly head?: boolean;
}

/** The response to one operation, with the Content-ID to echo and where to echo it. */
export interface BatchOperationResponse {
  readonly response: BufferedResponse;
  readonly contentId: string | undefined;
  /** Where the request carried `contentId`; undefined means the MIME part headers. */
  readonly contentIdPlacement?: ContentIdPlacement;
}

/** A top-level part of a batch response: one response, or the responses of a committed changeset. */
export type BatchResponsePart =
  ({ readonly kind: 'response' } & BatchOperationResponse) | { readonly kind: 'changeset'; readonly responses: readonly BatchOperationResponse[] };

/** The single-request pipeline (`service.handle`). */
export type BatchHandler = (request: ODataRequest) => Promise<ODataResponse>;

/** Runs `fn` atomically: resolves after commit, rejects (after rollback) when `fn` rejects. */
export type BatchTransaction = <T>(fn: () => Promise<T>) => Promise<T>;

/** Turns an error into an error response in the format the request negotiates (`service.fail`). */
export type BatchErrorResponder = (request: ODataRequest, error: unknown) => ODataResponse;
