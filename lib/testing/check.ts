/**
 * The checks cases make, on node's `assert` (framework-neutral): statuses with the error the
 * service answered, JSON payloads read leniently (feeds in the 1.0 and 2.0 shapes), and equality
 * with short messages that show the request.
 */
import { AssertionError, deepStrictEqual } from 'assert';
import type { HttpAnswer } from './client';

/** A JSON object of a verbose-JSON payload. */
export type JsonObject = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Short text of a value for messages. */
export function show(value: unknown): string {
  const text = JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? `${item}n` : item));
  return text === undefined ? String(value) : text.length > 600 ? `${text.slice(0, 600)}...` : text;
}

/** Fail with `message`. */
export function fail(message: string): never {
  throw new AssertionError({ message });
}

/** The OData error message of an answer, when it has one. */
function errorOf(answer: HttpAnswer): string {
  try {
    const body: unknown = JSON.parse(answer.text);
    if (isObject(body) && isObject(body.error)) {
      const message = isObject(body.error.message) ? body.error.message.value : body.error.message;
      return ` (${String(body.error.code)}: ${String(message)})`;
    }
  } catch {
    // Not JSON: show the start of the text.
  }
  return answer.text === '' ? '' : ` (${answer.text.slice(0, 200)})`;
}

/** The answer's status is `expected` (or one of them). */
export function expectStatus(answer: HttpAnswer, expected: number | readonly number[], request: string): void {
  const allowed = typeof expected === 'number' ? [expected] : expected;
  if (!allowed.includes(answer.status)) fail(`${request} answered ${answer.status}${errorOf(answer)}, expected ${allowed.join(' or ')}`);
}

/** `actual` deep-equals `expected`, else fail with `what` and both values. */
export function expectEqual<T>(actual: unknown, expected: T, what: string): asserts actual is T {
  try {
    deepStrictEqual(actual, expected);
  } catch {
    fail(`${what}: expected ${show(expected)}, got ${show(actual)}`);
  }
}

/** The parsed JSON body, or a failure naming the request. */
export function jsonOf(answer: HttpAnswer, request: string): JsonObject {
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    fail(`${request} did not answer JSON: ${answer.text.slice(0, 200)}`);
  }
  if (!isObject(body) || !('d' in body)) fail(`${request} answered ${show(body)}, expected {"d": ...}`);
  return body;
}

/** The entry of a single-entry answer (`{"d": {...}}`) with `status`. */
export function entryOf(answer: HttpAnswer, request: string, status = 200): JsonObject {
  expectStatus(answer, status, request);
  const { d } = jsonOf(answer, request);
  if (!isObject(d)) fail(`${request} answered ${show(d)}, expected an entry`);
  return d;
}

/** A feed page: its entries, its next link and its count. */
export interface FeedPage {
  readonly entries: readonly JsonObject[];
  readonly next: string | undefined;
  readonly count: string | undefined;
}

/** A feed in the JSON 1.0 (`{"d": [...]}`) or 2.0 (`{"d": {"results": [...]}}`) shape. */
export function feedValue(value: unknown, what: string): FeedPage {
  const results = Array.isArray(value) ? value : isObject(value) ? value.results : undefined;
  if (!Array.isArray(results) || !results.every(isObject)) fail(`${what}: expected a feed, got ${show(value)}`);
  const next = isObject(value) && typeof value.__next === 'string' ? value.__next : undefined;
  const count = isObject(value) && typeof value.__count === 'string' ? value.__count : undefined;
  return { entries: results, next, count };
}

/** The feed of a feed answer. */
export function feedOf(answer: HttpAnswer, request: string): FeedPage {
  expectStatus(answer, 200, request);
  return feedValue(jsonOf(answer, request).d, request);
}

export { isObject };
