/**
 * The transaction contract, typed (issue 13). The service runs every write (a single POST, PUT,
 * MERGE, PATCH, DELETE, `$links`, property or media write, a service operation invoked by POST,
 * a `$batch` changeset) as `provider.transaction(work, context)` and calls the provider's write
 * methods inside `work` with the same `context`. A `TransactionScope` is how a provider keeps its
 * open transaction (a Kysely `Transaction`, a `pg` client) with that context, typed, instead of
 * under a string key of `context.state`: `scope.run` opens it, joins an open one, and retries
 * `work` after a serialization failure; `scope.current(context)` hands it to the write methods.
 */
import type { RequestContext } from '../protocol/message';

/** Options of `TransactionScope.run`. */
export interface TransactionRunOptions {
  /**
   * True for an error after which the whole transaction may be run again: PostgreSQL's
   * serialization failure (SQLSTATE 40001) and deadlock (40P01). Default: none is.
   */
  readonly isRetryable?: (error: unknown) => boolean;
  /** How many times `work` may run in all (default 3). */
  readonly attempts?: number;
}

/** Opens a transaction, runs `body` with its handle, commits when `body` resolves and rolls back when it throws. */
export type BeginTransaction<T> = <R>(body: (handle: T) => Promise<R>) => Promise<R>;

/** A provider's open transactions, one per request context (a `$batch` shares one context across its parts). */
export interface TransactionScope<T> {
  /** The transaction open for `context`, or undefined outside one (reads outside a changeset). */
  current(context: RequestContext): T | undefined;
  /**
   * Run `work` in a transaction for `context`. When one is already open for it (a provider's own
   * nested call: a deep insert, a service operation calling `create`), `work` joins it and runs
   * once. Otherwise `begin` opens one, its handle is `current(context)` while `work` runs, and when
   * it fails with an error `isRetryable` accepts, the whole transaction runs again from the start,
   * up to `attempts` times. The service's `work` may run more than once: it starts from a clean
   * slate each time and only the last attempt's answer is sent.
   */
  run<R>(context: RequestContext, begin: BeginTransaction<T>, work: () => Promise<R>, options?: TransactionRunOptions): Promise<R>;
}

const DEFAULT_ATTEMPTS = 3;

/** A new scope; `name` is for messages (`'orders database'`). */
export function createTransactionScope<T>(name: string): TransactionScope<T> {
  const open = new WeakMap<RequestContext, T>();

  async function attempt<R>(context: RequestContext, begin: BeginTransaction<T>, work: () => Promise<R>): Promise<R> {
    return begin(async (handle) => {
      open.set(context, handle);
      try {
        return await work();
      } finally {
        open.delete(context);
      }
    });
  }

  return {
    current: (context) => open.get(context),
    async run(context, begin, work, options = {}) {
      if (open.has(context)) return work();
      const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
      if (!Number.isInteger(attempts) || attempts < 1)
        throw new TypeError(`TransactionScope '${name}': attempts must be an integer >= 1, got ${String(attempts)}`);
      for (let tried = 1; ; tried++) {
        try {
          return await attempt(context, begin, work);
        } catch (error) {
          if (tried >= attempts || options.isRetryable?.(error) !== true) throw error;
        }
      }
    },
  };
}
