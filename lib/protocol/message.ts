/**
 * The transport-neutral request and response the pipeline works on. `lib/http` builds an
 * ODataRequest from Express, `$batch` builds one per part; both hand it to `service.handle`.
 */
import type { IncomingMessage } from 'http';

/** Per-request context, handed unchanged to every provider call (and to every part of a `$batch`). */
export interface RequestContext {
  /** The incoming HTTP request (an Express request when mounted in Express): use it for auth. */
  readonly request: IncomingMessage;
  /**
   * Free-form per-request state a host app may use. Keys may be strings or symbols: a
   * module-private `Symbol('audit')` cannot collide with anyone else's key. A provider keeps its
   * open transaction in a typed `TransactionScope` (`createTransactionScope`), not here.
   */
  readonly state: Map<string | symbol, unknown>;
}

/** One request as the pipeline sees it. */
export interface ODataRequest {
  /** The effective method, after tunneling (`GET`, `POST`, `PUT`, `MERGE`, `PATCH`, `DELETE`, `HEAD`). */
  readonly method: string;
  /** The resource path relative to the service root, still percent-encoded, without a leading slash. */
  readonly path: string;
  /** The raw query string without `?` (still encoded). */
  readonly query: string;
  /** Header values by lower-case name. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The raw body bytes; undefined when the request had none. */
  readonly body: Buffer | undefined;
  /** The absolute service root URI, ending with `/` (e.g. `http://host/odata/`). */
  readonly serviceRoot: string;
  /** The per-request context every provider call receives (shared by all parts of a `$batch`). */
  readonly context: RequestContext;
  /** Inside a `$batch` changeset: resolves `$<Content-ID>` references. */
  readonly contentIds?: ReadonlyMap<string, string>;
  /**
   * Inside a `$batch`: the (lower-case) names of the headers this part took from the outer request
   * because it did not send them itself (DataServiceVersion, MaxDataServiceVersion, Accept-Language).
   */
  readonly inheritedHeaders?: ReadonlySet<string>;
}

/** A response body: bytes or text at once, or chunks for a streamed feed. */
export type ResponseBody = string | Buffer | AsyncIterable<string | Buffer>;

/** One response as the pipeline produces it. */
export interface ODataResponse {
  /** The HTTP status code (200, 201, 204, 304, or the error's 4xx/5xx). */
  readonly status: number;
  /** Header values by lower-case name. */
  readonly headers: Readonly<Record<string, string>>;
  /** Text, bytes, or chunks written as they come (a streamed feed); undefined for none (204, 304, HEAD). */
  readonly body: ResponseBody | undefined;
}
