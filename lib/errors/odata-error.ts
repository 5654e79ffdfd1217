/**
 * The one error class of the library. Every layer throws it; only an ODataError reaches a client
 * as itself (anything else is masked by `normalizeError`).
 */
import { ERROR_CODES, type ErrorCode, formatMessage } from './codes';

/**
 * Every ODataError the constructor made. `isODataError` asks this set instead of `instanceof`: a
 * WeakSet lookup runs no code of the value (a thrown Proxy's `getPrototypeOf` trap can throw, or
 * claim ODataError's prototype for an object that is none).
 */
const constructed = new WeakSet<object>();

/** A detail a provider attaches to an error; clients such as SAPUI5 show them (`innererror.errordetails`). */
export interface ODataErrorDetail {
  /** A code for this detail. */
  readonly code: string;
  /** The message shown to users (SAPUI5 shows it in its message area). */
  readonly message: string;
  /** What it is about (a property, an option). */
  readonly target?: string;
  /** How serious it is. */
  readonly severity?: 'error' | 'warning' | 'info';
}

/** Optional parts of an ODataError. */
export interface ODataErrorOptions {
  /** What the error is about: `$filter`, `key`, `Products(1)/Name`. */
  readonly target?: string;
  /** Offset into the target's source text. */
  readonly position?: number;
  /** Extra headers the response must carry (e.g. `Allow` on 405). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Details that are safe to show to clients (sent as `innererror.errordetails`). */
  readonly details?: readonly ODataErrorDetail[];
  /** The underlying error; logged, never sent to clients. */
  readonly cause?: unknown;
}

/** An error with an HTTP status, a catalogue code and an English message. */
export class ODataError extends Error {
  /** The HTTP status of the response. */
  readonly status: number;
  /** The catalogue code (`ERROR_CODES`), sent as `<m:code>` / `error.code`. */
  readonly code: string;
  /** What the error is about (`$filter`, `key`, a property), when known. */
  readonly target: string | undefined;
  /** Offset of the problem in `target`'s text, when known. */
  readonly position: number | undefined;
  /** Extra response headers (`Allow` for 405, `x-csrf-token` for CSRF failures). */
  readonly headers: Readonly<Record<string, string>>;
  /** Further errors, sent in `innererror` only with `debug: true`. */
  readonly details: readonly ODataErrorDetail[];
  /** The underlying error (non-enumerable); goes to the logger, never to clients. */
  declare readonly cause: unknown;

  constructor(status: number, code: string, message: string, options: ODataErrorOptions = {}) {
    super(message);
    this.name = 'ODataError';
    this.status = status;
    this.code = code;
    this.target = options.target;
    this.position = options.position;
    this.headers = options.headers ?? {};
    this.details = options.details ?? [];
    // Non-enumerable so that a careless JSON.stringify never ships the cause to a client.
    Object.defineProperty(this, 'cause', { value: options.cause, enumerable: false, writable: false });
    constructed.add(this);
  }

  /** Build an error from the catalogue: `ODataError.fromCode('ENTITY_NOT_FOUND', { key: '(1)', entitySet: 'Products' })`. */
  static fromCode(code: ErrorCode, params: Readonly<Record<string, string | number>> = {}, options: ODataErrorOptions = {}): ODataError {
    const definition = ERROR_CODES[code];
    return new ODataError(definition.status, code, formatMessage(definition.message, params), options);
  }

  /** The fields that may reach the wire; a whitelist, as graphql-js does in `toJSON`. */
  toJSON(): { code: string; message: string; target?: string } {
    return this.target === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, target: this.target };
  }
}

/** Narrow an unknown thrown value: true for an error made by ODataError's constructor (a subclass's included), without running any code of the value. */
export function isODataError(value: unknown): value is ODataError {
  return typeof value === 'object' && value !== null && constructed.has(value);
}
