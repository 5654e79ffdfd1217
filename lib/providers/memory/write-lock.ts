/**
 * The store's write lock: one exclusive piece of work at a time (a single write, or a changeset's
 * transaction that spans awaits), in arrival order. Work that belongs to the running holder runs
 * at once instead of queueing behind it: recognised by its scope (the request context MemoryProvider
 * passes, no cost) or, for callers that give none, through an AsyncLocalStorage (which switches
 * promise hooks on for the whole process, so the provider never relies on it).
 *
 * A transaction that does not settle within its timeout is abandoned: rolled back, the lock
 * released, and its scope closed, so a write its hung work makes later is refused instead of
 * landing outside any transaction.
 */
import { AsyncLocalStorage } from 'async_hooks';
import type { ODataError } from '../../errors';
import { isProviderTimeout, providerTimeoutError } from '../../provider/timeout';

/** The running exclusive work. */
interface Holder {
  readonly scope: object | undefined;
  /** False once the work ended or was abandoned. */
  open: boolean;
  /** The timeout error that abandoned it, if one did. */
  abandonedBy?: ODataError;
}

/** How an abandoned transaction is cleaned up (the store undoes its writes). */
export type Abandon = () => void;

export class WriteLock {
  /** Settles when the last queued exclusive work has finished. */
  private queue: Promise<void> = Promise.resolve();
  private holder: Holder | undefined;
  /** Marks the async context of scope-less exclusive work. */
  private readonly owner = new AsyncLocalStorage<Holder>();
  /** Scopes whose transaction was abandoned (with the timeout error that did it): their later writes are refused. */
  private readonly closed = new WeakMap<object, ODataError>();

  /** True when work of `scope` (or of the current async context) belongs to the running holder. */
  private inside(scope: object | undefined): boolean {
    const holder = this.holder;
    if (holder === undefined || !holder.open) return false;
    return (scope !== undefined && holder.scope === scope) || this.owner.getStore() === holder;
  }

  /** 503 for work of a scope whose transaction was abandoned, or of an abandoned async context. */
  private refuseClosed(scope: object | undefined): void {
    const error = (scope === undefined ? undefined : this.closed.get(scope)) ?? this.owner.getStore()?.abandonedBy;
    if (error !== undefined) throw error;
  }

  /** Run `work` exclusively, or at once when it belongs to the running holder. */
  run<T>(work: () => T | Promise<T>, scope?: object): Promise<T> {
    try {
      this.refuseClosed(scope);
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.inside(scope)) return Promise.resolve().then(work);
    const run = this.queue.then(() => this.hold(scope, work));
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** `run` for synchronous work; refuses work that returns a promise with a TypeError. */
  runSync<T>(work: () => T, scope?: object): Promise<T> {
    return this.run(() => {
      const result = work();
      if (typeof (result as { then?: unknown } | null)?.then === 'function') {
        throw new TypeError('MemoryStore.exclusiveSync takes a synchronous function; use exclusive() for async work.');
      }
      return result;
    }, scope);
  }

  /**
   * Run a transaction's async `work` exclusively. After `timeout` ms without settling it is
   * abandoned: `abandon` undoes its writes, the lock moves on, its scope is closed, and the
   * returned promise rejects with 503 PROVIDER_TIMEOUT. Nested in the running holder, it runs at
   * once and the outer timeout applies.
   */
  runTransaction<T>(work: () => Promise<T>, scope: object | undefined, timeout: number, abandon: Abandon): Promise<T> {
    const nested = this.inside(scope);
    return this.run(() => (nested ? work() : this.bounded(work, scope, timeout, abandon)), scope);
  }

  private async hold<T>(scope: object | undefined, work: () => T | Promise<T>): Promise<T> {
    const holder: Holder = { scope, open: true };
    this.holder = holder;
    try {
      // Only scope-less work needs the async context to recognise its nested calls.
      return await (scope === undefined ? this.owner.run(holder, work) : work());
    } finally {
      holder.open = false;
      if (this.holder === holder) this.holder = undefined;
    }
  }

  private bounded<T>(work: () => Promise<T>, scope: object | undefined, timeout: number, abandon: Abandon): Promise<T> {
    const holder = this.holder;
    const close = (error: ODataError): void => {
      if (holder !== undefined) {
        holder.open = false;
        holder.abandonedBy = error;
      }
      if (scope !== undefined) this.closed.set(scope, error);
    };
    return new Promise<T>((resolve, reject) => {
      const timer = Number.isFinite(timeout)
        ? setTimeout(() => {
            const error = providerTimeoutError(timeout);
            close(error);
            abandon();
            reject(error);
          }, timeout)
        : undefined;
      work().then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          // The service gave up on this work (its providerTimeout): the work may go on, so its later writes are refused too.
          if (isProviderTimeout(error)) close(error);
          reject(error);
        },
      );
    });
  }
}
