/**
 * Service options: what `odata(options)` accepts, the defaults of every limit, and their
 * validation. Resolved once when the service is built; handlers read the frozen result.
 */
import type { EdmModel } from './edm/model';
import type { DataProvider } from './provider/types';
import { describeCaught, systemClock } from './util';
import type { Clock } from './util';

/** Every configurable limit. Bad input past a limit gets a 4xx, never unbounded work. */
export interface ServiceLimits {
  /** Largest request body in bytes (single requests and `$batch`). Default 10 MiB. */
  readonly maxBodyBytes: number;
  /** Largest `$top` a client may ask for. Default: unlimited (undefined). */
  readonly maxTop: number | undefined;
  /** Deepest `$expand` path (`A/B/C` is 3). Default 5. */
  readonly maxExpandDepth: number;
  /** Most `$expand` paths in one request. Default 20. */
  readonly maxExpandBreadth: number;
  /**
   * Most entries one response may write inside expanded navigation properties (all levels, all
   * entries together); counted while the response is written. Default 10,000.
   */
  readonly maxExpandedEntities: number;
  /** Longest `$filter` text in characters. Default 4096. */
  readonly maxFilterLength: number;
  /** Deepest nesting of a `$filter` expression. Default 50. */
  readonly maxFilterDepth: number;
  /** Most terms in SAP's `search` (each term is tested against every searchable property). Default 20. */
  readonly maxSearchTerms: number;
  /** Most top-level parts (retrieves and changesets) in a `$batch`. Default 100. */
  readonly maxBatchParts: number;
  /** Most operations in one changeset. Default 100. */
  readonly maxChangesetOperations: number;
  /** Largest header block of one batch part, in bytes. Default 16 KiB. */
  readonly maxBatchPartHeaderBytes: number;
  /** Longest request URI in characters. Default 8192. */
  readonly maxUriLength: number;
  /**
   * Milliseconds a request body may take to arrive, from the first byte read to the last; past it
   * the request is answered 408 and its connection closed. Default 60,000.
   */
  readonly bodyTimeout: number;
  /**
   * Milliseconds the service waits for the provider's work of one request (a single request's
   * handler with its transaction, a changeset's transaction, a batch retrieve), and for each next
   * chunk of a streamed feed. Past it: 503 PROVIDER_TIMEOUT with `Retry-After`, the transaction
   * rolled back. Default: none (undefined).
   */
  readonly providerTimeout: number | undefined;
  /**
   * Most provider reads one request runs at the same time: the batched follow-up reads of a
   * service operation's entities (a query per 100 keys, for `$expand` and for navigation that
   * `$filter`/`$orderby` read); the rest wait their turn. Default 4.
   */
  readonly maxConcurrentReads: number;
}

/**
 * A problem worth logging: every 5xx and every response cut off after its headers were sent, with
 * the original error and the request it happened in.
 */
export interface ServiceLogEvent {
  /**
   * `error` for a 5xx, or a response cut off for an unknown cause; `warn` for a response cut off by
   * a client error found while it was written (a 4xx such as `maxExpandedEntities`).
   */
  readonly level: 'error' | 'warn';
  /** The original error's message (never sent to clients). */
  readonly message: string;
  /** The HTTP status the client got. */
  readonly status: number;
  /**
   * The thrown value (e.g. your database error), as it was thrown: it may be anything, a Proxy or
   * an object whose getters throw included. Read it with `describeCaught(error)`, which never throws.
   */
  readonly error: unknown;
  /** The request method (after tunneling). */
  readonly method: string;
  /** The resource path and query, relative to the service root. */
  readonly url: string;
}

/** Options of `odata(...)`. */
export interface ODataServiceOptions {
  /** The EDM model (from `defineModel` or `loadEdmx`). */
  readonly model: EdmModel;
  /** The data provider (e.g. `new MemoryProvider(model, data)`). */
  readonly provider: DataProvider;
  /** Server-driven paging: at most this many entries per feed page. Default: no paging. */
  readonly maxPageSize?: number;
  /** Page sizes per entity set name, overriding `maxPageSize`. */
  readonly pageSizes?: Readonly<Record<string, number>>;
  /** Overrides of single limits; the others keep `DEFAULT_LIMITS`. */
  readonly limits?: Partial<ServiceLimits>;
  /** Send error details (cause message, stack) in `innererror`. Never in production. Default false. */
  readonly debug?: boolean;
  /** Receives 5xx details that clients never see. Default: `console.error`. */
  readonly logger?: (event: ServiceLogEvent) => void;
  /**
   * Refuse writes without `If-Match` to entities whose type has an ETag (428). Default true; set
   * false for last-writer-wins services.
   */
  readonly requireIfMatch?: boolean;
  /** The clock for Atom `<updated>` values; tests pin it. Default: the system time. */
  readonly now?: Clock;
  /**
   * The `x-csrf-token` handshake of SAP clients: `true` (or `{ cookieName }`) makes modifying
   * requests without a token fetched by `x-csrf-token: Fetch` fail with 403. Default off.
   */
  readonly csrf?: boolean | { readonly cookieName?: string };
  /**
   * SAP's `search` query option (the search field of SAP Fiori apps): `true` (the default) reads
   * it on every entity set that is not marked `sap:searchable="false"`; `false` refuses it with
   * 400 SEARCH_NOT_ALLOWED everywhere. docs/query-options.md "search".
   */
  readonly search?: boolean;
}

/** @internal The validated, frozen options with every default applied. */
export interface ResolvedOptions {
  readonly model: EdmModel;
  readonly provider: DataProvider;
  readonly maxPageSize: number | undefined;
  readonly pageSizes: ReadonlyMap<string, number>;
  readonly limits: ServiceLimits;
  readonly debug: boolean;
  readonly logger: (event: ServiceLogEvent) => void;
  readonly requireIfMatch: boolean;
  readonly now: Clock;
  readonly search: boolean;
}

/** The default of every limit; `odata({ limits })` overrides single ones. */
export const DEFAULT_LIMITS: ServiceLimits = Object.freeze({
  maxBodyBytes: 10 * 1024 * 1024,
  maxTop: undefined,
  maxExpandDepth: 5,
  maxExpandBreadth: 20,
  maxExpandedEntities: 10_000,
  maxFilterLength: 4096,
  maxFilterDepth: 50,
  maxSearchTerms: 20,
  maxBatchParts: 100,
  maxChangesetOperations: 100,
  maxBatchPartHeaderBytes: 16 * 1024,
  maxUriLength: 8192,
  bodyTimeout: 60_000,
  providerTimeout: undefined,
  maxConcurrentReads: 4,
});

function defaultLogger(event: ServiceLogEvent): void {
  const line = `[express-odata-v2] ${event.status} ${event.method} ${event.url}: ${event.message}`;
  try {
    console.error(line, event.error);
  } catch {
    // util.inspect reads Symbol.toStringTag and inspect.custom, getters that a thrown object can make throw.
    console.error(line, describeCaught(event.error).summary);
  }
}

/**
 * The logger, made total: it runs while an error response is being made, and a logger that throws
 * must not leave that request without an answer. What it failed to log is lost with it.
 */
function neverThrowing(logger: (event: ServiceLogEvent) => void): (event: ServiceLogEvent) => void {
  return (event) => {
    try {
      logger(event);
    } catch {
      // Nothing is left to report it to.
    }
  };
}

function assertPositiveInteger(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
    throw new TypeError(`express-odata-v2: option ${name} must be a positive integer, got ${String(value)}`);
  }
}

/** @internal Validate options once, at service construction; a mistake is a TypeError naming the option. */
export function resolveOptions(options: ODataServiceOptions): ResolvedOptions {
  if (options === null || typeof options !== 'object') throw new TypeError('express-odata-v2: odata(options) needs an options object');
  if (!options.model || typeof options.model.entitySets !== 'object') {
    throw new TypeError('express-odata-v2: option model must be an EdmModel (use defineModel or loadEdmx)');
  }
  if (!options.provider || typeof options.provider.query !== 'function') {
    throw new TypeError('express-odata-v2: option provider must implement DataProvider (at least query)');
  }
  assertPositiveInteger('maxPageSize', options.maxPageSize);
  const pageSizes = new Map<string, number>();
  for (const [name, size] of Object.entries(options.pageSizes ?? {})) {
    if (!options.model.entitySets.has(name)) throw new TypeError(`express-odata-v2: pageSizes names an unknown entity set '${name}'`);
    assertPositiveInteger(`pageSizes.${name}`, size);
    pageSizes.set(name, size);
  }
  const limits: ServiceLimits = Object.freeze({ ...DEFAULT_LIMITS, ...options.limits });
  for (const [name, value] of Object.entries(limits)) assertPositiveInteger(`limits.${name}`, value as number | undefined);
  return Object.freeze({
    model: options.model,
    provider: options.provider,
    maxPageSize: options.maxPageSize,
    pageSizes,
    limits,
    debug: options.debug === true,
    logger: neverThrowing(options.logger ?? defaultLogger),
    requireIfMatch: options.requireIfMatch !== false,
    now: options.now ?? systemClock,
    search: options.search !== false,
  });
}

/** @internal The page size for an entity set, if paging applies. */
export function pageSizeFor(options: ResolvedOptions, entitySetName: string): number | undefined {
  return options.pageSizes.get(entitySetName) ?? options.maxPageSize;
}
