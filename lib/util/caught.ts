/**
 * Caught values, read without trusting them. Anything can be thrown or passed to a rejection: a
 * Proxy whose every trap throws, a revoked Proxy, an object whose getters throw, a symbol, a
 * bigint, null. Reading such a value must never throw in its turn (a handler that throws while it
 * handles an error leaves a request unanswered, or a rejection unhandled), so every read here is
 * guarded, and nothing runs `instanceof`, `in`, `String()` or a template literal on an object a
 * caller did not create. Nothing here throws.
 */
import { types } from 'util';

/** A caught value in plain strings, whatever it was. */
export interface CaughtDescription {
  /** The `name` of an error-like object (`TypeError`), else what the value is (`symbol`, `null`, `object`). */
  readonly name: string;
  /** The `message` of an error-like object, the text of a string or other primitive, else undefined. */
  readonly message: string | undefined;
  /** A string `code` (`ECONNRESET`, a SQLSTATE such as `57P01`), when the value has one. */
  readonly code: string | undefined;
  /** The `stack` of an error, when it has one. */
  readonly stack: string | undefined;
  /** Its `cause`, itself untrusted (describe it in its turn). */
  readonly cause: unknown;
  /** An AggregateError's `errors` (a connection tried over IPv4 and IPv6), each untrusted; else empty. */
  readonly errors: readonly unknown[];
  /** One line for a log: `TypeError: boom`, `symbol: Symbol(x)`, `null`. */
  readonly summary: string;
}

/** `value[name]`, or undefined when `value` is not an object or reading throws (a getter, a Proxy trap, a revoked Proxy). */
export function caughtProperty(value: unknown, name: string): unknown {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return undefined;
  try {
    return (value as Record<string, unknown>)[name];
  } catch {
    return undefined;
  }
}

/**
 * The value of `value`'s own data property `name`, read without running any code of `value`:
 * undefined for a Proxy, an accessor (a getter is never called) or a missing property. For
 * values whose fields must hold still between two reads (an error about to be written).
 */
export function ownDataProperty(value: unknown, name: string): unknown {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null || types.isProxy(value)) return undefined;
  const descriptor = Object.getOwnPropertyDescriptor(value, name);
  return descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined;
}

/** The own enumerable keys of an object that is not a Proxy (no trap or getter runs), else undefined. */
export function ownDataKeys(value: unknown): readonly string[] | undefined {
  if (typeof value !== 'object' || value === null || types.isProxy(value)) return undefined;
  return Object.keys(value);
}

/**
 * `value instanceof type` for a value nobody vouches for: false for a Proxy (whose `getPrototypeOf`
 * trap could throw, or claim any prototype) and when the check throws (a Proxy further up the
 * prototype chain). Fields of a match are still read with `caughtProperty`: an instance can carry
 * throwing accessors of its own.
 */
export function isInstanceOf<T>(value: unknown, type: abstract new (...args: never[]) => T): value is T {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null || types.isProxy(value)) return false;
  try {
    return value instanceof type;
  } catch {
    return false;
  }
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The elements of an array-valued field, copied under a guard (a Proxy of an array runs traps on every read). */
function elements(value: unknown): readonly unknown[] {
  try {
    return Array.isArray(value) ? Array.prototype.slice.call(value, 0, 100) : [];
  } catch {
    return [];
  }
}

/** Describe anything caught (see the module comment); never throws. */
export function describeCaught(value: unknown): CaughtDescription {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) {
    // String() is total on primitives (a symbol included, where a template literal would throw).
    const kind = value === null ? 'null' : typeof value;
    const shown = typeof value === 'string' ? value : String(value);
    return {
      name: kind,
      message: value === null || value === undefined ? undefined : shown,
      code: undefined,
      stack: undefined,
      cause: undefined,
      errors: [],
      summary: value === null || value === undefined ? kind : `${kind}: ${shown}`,
    };
  }
  const name = text(caughtProperty(value, 'name')) ?? typeof value;
  const message = text(caughtProperty(value, 'message'));
  return {
    name,
    message,
    code: text(caughtProperty(value, 'code')),
    stack: text(caughtProperty(value, 'stack')),
    cause: caughtProperty(value, 'cause'),
    errors: elements(caughtProperty(value, 'errors')),
    summary: message === undefined || message === '' ? name : `${name}: ${message}`,
  };
}
