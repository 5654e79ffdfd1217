/**
 * The transaction contract, typed (issue 13). The service runs every write (a single POST, PUT,
 * MERGE, PATCH, DELETE, `$links`, property or media write, a service operation invoked by POST,
 * a `$batch` changeset) as `provider.transaction(work, context)` and calls the provider's write
 * methods inside `work` with the same `context`. A `TransactionScope` is how a provider keeps its
 * open transaction (a Kysely `Transaction`, a `pg` client) with that context, typed, instead of
 * under a string key of `context.state`: `scope.run` opens it, joins an open one, and retries
 * `work` after a serialization failure (pausing between attempts, and answering 503
 * TRANSACTION_CONFLICT with `Retry-After` when every attempt failed so); `scope.current(context)`
 * hands it to the write methods.
 */
import { ODataError } from '../errors';
import type { RequestContext } from '../protocol/message';
import { pause } from '../util';

/** Options of `TransactionScope.run`. */
export interface TransactionRunOptions {
  /**
   * True for an error after which the whole transaction may be run again: PostgreSQL's
   * serialization failure (SQLSTATE 40001) and deadlock (40P01). Default: none is.
   */
  readonly isRetryable?: (error: unknown) => boolean;
  /** How many times `work` may run in all (default 3). */
  readonly attempts?: number;
  /**
   * Milliseconds to wait after failed attempt `attempt` (1, 2...) before the next one starts.
   * Default: none. Colliding transactions that retry at once tend to collide again: grow it with
   * the attempt and add jitter (`retryBackoff` is such a function).
   */
  readonly backoffMs?: (attempt: number) => number;
  /**
   * The `Retry-After` (seconds) of the 503 TRANSACTION_CONFLICT answered when the last attempt
   * failed with a retryable error too (default 1).
   */
  readonly retryAfterSeconds?: number;
}

/**
 * Opens a transaction, runs `body` with its handle, commits when `body` resolves and rolls back
 * when it throws. `attempt` is 1 for the first run of the work, 2 for its first retry...
 */
export type BeginTransaction<T> = <R>(body: (handle: T) => Promise<R>, attempt: number) => Promise<R>;

/** A provider's open transactions, one per request context (a `$batch` shares one context across its parts). */
export interface TransactionScope<T> {
  /** The transaction open for `context`, or undefined outside one (reads outside a changeset). */
  current(context: RequestContext): T | undefined;
  /**
   * Run `work` in a transaction for `context`. When one is already open for it (a provider's own
   * nested call: a deep insert, a service operation calling `create`), `work` joins it and runs
   * once. Otherwise `begin` opens one, its handle is `current(context)` while `work` runs, and when
   * it fails with an error `isRetryable` accepts, the whole transaction runs again from the start
   * after `backoffMs`, up to `attempts` times; when the last attempt fails so too, the answer is
   * 503 TRANSACTION_CONFLICT with `Retry-After` (the error is its `cause`). Any other error passes
   * through as it is. The service's `work` may run more than once: it starts from a clean slate
   * each time and only the last attempt's answer is sent.
   */
  run<R>(context: RequestContext, begin: BeginTransaction<T>, work: () => Promise<R>, options?: TransactionRunOptions): Promise<R>;
}

const DEFAULT_ATTEMPTS = 3;

/**
 * A backoff for `TransactionRunOptions.backoffMs`: 10, 20, 40... milliseconds after attempt 1, 2,
 * 3..., at most `maxMs` (default 200), each scaled by a random factor in [0.5, 1.5) so that
 * transactions that collided do not retry in step.
 */
export function retryBackoff(maxMs = 200): (attempt: number) => number {
  return (attempt) => Math.min(5 * 2 ** attempt, maxMs) * (0.5 + Math.random());
}

function checkedCount(value: number, minimum: number, what: string, name: string): number {
  if (!Number.isInteger(value) || value < minimum)
    throw new TypeError(`TransactionScope '${name}': ${what} must be an integer >= ${minimum}, got ${String(value)}`);
  return value;
}

/** A new scope; `name` is for messages (`'orders database'`). */
export function createTransactionScope<T>(name: string): TransactionScope<T> {
  const open = new WeakMap<RequestContext, T>();

  async function attempt<R>(context: RequestContext, begin: BeginTransaction<T>, work: () => Promise<R>, tried: number): Promise<R> {
    return begin(async (handle) => {
      open.set(context, handle);
      try {
        return await work();
      } finally {
        if (open.get(context) === handle) open.delete(context);
      }
    }, tried);
  }

  return {
    current: (context) => open.get(context),
    async run(context, begin, work, options = {}) {
      if (open.has(context)) return work();
      const attempts = checkedCount(options.attempts ?? DEFAULT_ATTEMPTS, 1, 'attempts', name);
      const retryAfterSeconds = checkedCount(options.retryAfterSeconds ?? 1, 0, 'retryAfterSeconds', name);
      for (let tried = 1; ; tried++) {
        try {
          return await attempt(context, begin, work, tried);
        } catch (error) {
          if (options.isRetryable?.(error) !== true) throw error;
          if (tried >= attempts) {
            throw ODataError.fromCode('TRANSACTION_CONFLICT', { attempts: tried }, { headers: { 'retry-after': String(retryAfterSeconds) }, cause: error });
          }
          await pause(options.backoffMs?.(tried) ?? 0);
        }
      }
    },
  };
}
