/**
 * A retried transaction on demand, for the `transaction retry` cases. The service under test gets
 * the provider behind a thin wrapper whose `transaction` runs as the provider's own until a case
 * arms it; the next transaction then runs its work twice, the first run rolled back: made by the
 * provider itself when the setup offers `retryNextTransaction` (a serialization failure before the
 * commit), else by the suite (the work inside `provider.transaction`, rolled back by a throw, then
 * `transaction` again). Either way the wrapper counts the runs, so a case can tell that the retry
 * happened. The contract allows it: `transaction(work)` may run `work` again after a failure that
 * rolled everything back, and only the last run's answer is sent.
 */
import type { DataProvider, RequestContext, TransactionOptions } from '../index';
import type { ProviderUnderTest } from './types';

/** How one armed transaction went. */
interface RetriedTransaction {
  /** Who made the retry: the provider (`retryNextTransaction`) or the suite around `transaction`. */
  readonly by: 'provider' | 'suite';
  /** How many times the service's work ran. */
  runs: number;
}

/** Arms a retry and reports how it went. */
export interface RetryControl {
  /** The next `transaction` call runs its work twice (the first run rolled back). */
  arm(): void;
  /** The armed transaction once it ran (undefined before). */
  readonly last: RetriedTransaction | undefined;
}

/** What the suite throws inside the first run to roll it back. */
class InjectedRollback extends Error {
  constructor() {
    super('The conformance suite rolls this transaction back to run it again.');
    this.name = 'InjectedRollback';
  }
}

/**
 * The provider the service under test is given, and its retry control. Every member but
 * `transaction` is the provider's own (methods bound to it); without a `transaction` the provider
 * is served as it is, and an armed retry never runs.
 */
export function withRetryControl(underTest: ProviderUnderTest): { provider: DataProvider; retry: RetryControl } {
  const inner = underTest.provider;
  let armed = false;
  let last: RetriedTransaction | undefined;
  const retry: RetryControl = {
    arm: () => {
      armed = true;
      last = undefined;
    },
    get last() {
      return last;
    },
  };
  if (inner.transaction === undefined) return { provider: inner, retry };
  const own = inner.transaction.bind(inner);

  async function transaction<T>(work: () => Promise<T>, context: RequestContext, options?: TransactionOptions): Promise<T> {
    if (!armed) return options === undefined ? own(work, context) : own(work, context, options);
    // An armed run is rolled back after its write: it needs a transaction around all of its work,
    // which `singleWrite` would let the provider leave out.
    const run = <R>(body: () => Promise<R>): Promise<R> => own(body, context);
    armed = false;
    const record: RetriedTransaction = { by: underTest.retryNextTransaction === undefined ? 'suite' : 'provider', runs: 0 };
    last = record;
    const counted = (): Promise<T> => {
      record.runs++;
      return work();
    };
    if (underTest.retryNextTransaction !== undefined) {
      await underTest.retryNextTransaction();
      return run(counted);
    }
    const rollback = new InjectedRollback();
    try {
      await run(async () => {
        await counted();
        throw rollback;
      });
    } catch (error) {
      if (error !== rollback) throw error;
    }
    return run(counted);
  }

  const provider = new Proxy(inner, {
    get(target, property) {
      if (property === 'transaction') return transaction;
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { provider, retry };
}
