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
type Abandon = () => void;

/** The bounded transaction running now: when it must end, and how to give it up. */
interface Watched {
  readonly end: number;
  readonly expire: () => void;
}

export class WriteLock {
  /** Settles when the last queued exclusive work has finished. */
  private queue: Promise<void> = Promise.resolve();
  private holder: Holder | undefined;
  /** Marks the async context of scope-less exclusive work. */
  private readonly owner = new AsyncLocalStorage<Holder>();
  /** The bounded transaction running now, and the one timer that watches it. */
  private watched: Watched | undefined;
  private watchdog: ReturnType<typeof setTimeout> | undefined;
  private watchdogAt = 0;
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

  /**
   * `work` raced against its timeout. One watchdog timer serves every transaction (they run one at
   * a time): it is armed when none is, and on firing abandons the running transaction if it is
   * past its end or re-arms for the rest; no timer is created or cleared per write.
   */
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
      const finite = Number.isFinite(timeout);
      const watched: Watched = {
        end: finite ? Date.now() + timeout : Infinity,
        expire: () => {
          const error = providerTimeoutError(timeout);
          close(error);
          abandon();
          reject(error);
        },
      };
      if (finite) this.watch(watched, timeout);
      const done = (): void => {
        if (this.watched === watched) this.watched = undefined;
      };
      work().then(
        (value) => {
          done();
          resolve(value);
        },
        (error: unknown) => {
          done();
          // Settled first: nothing below may keep the caller waiting, whatever `error` is.
          reject(error);
          // The service gave up on this work (its providerTimeout): the work may go on, so its later writes are refused too.
          if (isProviderTimeout(error)) close(error);
        },
      );
    });
  }

  /** Watch a transaction; arm the watchdog unless it is armed to fire by this one's end already. */
  private watch(watched: Watched, timeout: number): void {
    this.watched = watched;
    if (this.watchdog !== undefined && this.watchdogAt <= watched.end) return;
    clearTimeout(this.watchdog);
    this.arm(timeout);
  }

  private arm(delay: number): void {
    this.watchdogAt = Date.now() + delay;
    this.watchdog = setTimeout(() => this.check(), delay);
    // Never the reason a process stays alive: a script that is done exits.
    this.watchdog.unref();
  }

  /** The watchdog fired: abandon the running transaction when it is past its end, else sleep until then (or until the next one). */
  private check(): void {
    this.watchdog = undefined;
    const watched = this.watched;
    if (watched === undefined) return;
    const left = watched.end - Date.now();
    if (left > 0) {
      this.arm(left);
      return;
    }
    this.watched = undefined;
    watched.expire();
  }
}
