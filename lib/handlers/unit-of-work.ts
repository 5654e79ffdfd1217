/**
 * The one place where a request's provider work is bounded and made atomic. Every write (a single
 * POST, PUT, MERGE, PATCH or DELETE of any kind, a service operation invoked by POST, a `$batch`
 * changeset) runs inside the provider's `transaction`, when it has one, together with the writing
 * of its answer: the answer is released only after the commit, and any failure before that (the
 * provider throwing after it wrote, `etag()` throwing, a value the writers refuse) rolls it back.
 * A write of a request whose transaction is open (a changeset's operations) joins it instead of
 * nesting, so providers never see nested transactions from the service.
 *
 * With `providerTimeout`, the work of each unit is raced against it: 503 PROVIDER_TIMEOUT with
 * `Retry-After`, and the transaction's work rejects so the provider rolls it back.
 *
 * A write request that calls one write method is marked `singleWrite` for the provider
 * (`TransactionOptions`), which may then commit that write as soon as it is done; never with
 * `providerTimeout`, whose 503 must mean that nothing was written.
 */
import type { ODataError } from '../errors';
import type { RequestContext } from '../protocol/message';
import type { DataProvider, TransactionOptions } from '../provider/types';
import { providerTimeoutError } from '../provider/timeout';

/** Runs units of provider work for the service and `$batch`. */
export interface UnitOfWork {
  /** A read: bounded by the timeout, no transaction. */
  read<T>(context: RequestContext, work: () => Promise<T>): Promise<T>;
  /** A write: inside the provider's transaction (or the request's open one), bounded by the timeout. */
  write<T>(context: RequestContext, work: () => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** An async iterable whose every next item must come within the timeout (a streamed feed). */
  stream<T>(items: AsyncIterable<T>): AsyncIterable<T>;
}

/** One timer for one unit of work: every promise raced against it fails together when it fires. */
class Deadline {
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly waiting = new Set<(error: unknown) => void>();
  private error: ODataError | undefined;

  constructor(timeout: number) {
    this.timer = setTimeout(() => {
      this.error = providerTimeoutError(timeout);
      for (const reject of this.waiting) reject(this.error);
      this.waiting.clear();
    }, timeout);
  }

  /** True once the timer fired. */
  get expired(): boolean {
    return this.error !== undefined;
  }

  /** `promise`, or the timeout error if the timer fires first. A late rejection of `promise` is handled. */
  race<T>(promise: Promise<T>): Promise<T> {
    if (this.error !== undefined) {
      promise.catch(() => undefined);
      return Promise.reject(this.error);
    }
    return new Promise<T>((resolve, reject) => {
      this.waiting.add(reject);
      promise.then(
        (value) => {
          this.waiting.delete(reject);
          resolve(value);
        },
        (error: unknown) => {
          this.waiting.delete(reject);
          reject(error);
        },
      );
    });
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

const SINGLE_WRITE: TransactionOptions = Object.freeze({ singleWrite: true });

/** The unit of work of a service over `provider`; `timeout` in ms or undefined for none. */
export function createUnitOfWork(provider: DataProvider, timeout: number | undefined): UnitOfWork {
  // Contexts whose transaction is open: their writes join it. One per request (or per $batch).
  const open = new WeakSet<RequestContext>();

  async function read<T>(_context: RequestContext, work: () => Promise<T>): Promise<T> {
    if (timeout === undefined) return work();
    const deadline = new Deadline(timeout);
    try {
      return await deadline.race(work());
    } finally {
      deadline.clear();
    }
  }

  /** `work` with `context` marked as having its transaction open, so that its writes join it. */
  async function joined<T>(context: RequestContext, work: () => Promise<T>): Promise<T> {
    open.add(context);
    try {
      return await work();
    } finally {
      open.delete(context);
    }
  }

  function write<T>(context: RequestContext, work: () => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    if (open.has(context)) return work();
    if (timeout !== undefined) return boundedWrite(context, work, timeout);
    const inside = (): Promise<T> => joined(context, work);
    if (provider.transaction === undefined) return inside();
    return options.singleWrite === true ? provider.transaction(inside, context, SINGLE_WRITE) : provider.transaction(inside, context);
  }

  async function boundedWrite<T>(context: RequestContext, work: () => Promise<T>, limit: number): Promise<T> {
    const deadline = new Deadline(limit);
    const inside = (): Promise<T> => {
      // Queued behind other writers until past the deadline: the client has its 503 already.
      if (deadline.expired) return Promise.reject(providerTimeoutError(limit));
      // The same deadline: when it fires, the transaction's work fails at once and is rolled back.
      return joined(context, () => deadline.race(work()));
    };
    try {
      return await deadline.race(provider.transaction === undefined ? inside() : provider.transaction(inside, context));
    } finally {
      deadline.clear();
    }
  }

  async function* stream<T>(items: AsyncIterable<T>, limit: number): AsyncIterable<T> {
    const iterator = items[Symbol.asyncIterator]();
    try {
      for (;;) {
        const deadline = new Deadline(limit);
        let next: IteratorResult<T>;
        try {
          next = await deadline.race(iterator.next());
        } finally {
          deadline.clear();
        }
        if (next.done === true) return;
        yield next.value;
      }
    } finally {
      // A finished, timed-out or abandoned stream closes the provider's iterator (a cursor, a connection).
      void Promise.resolve(iterator.return?.()).catch(() => undefined);
    }
  }

  return { read, write, stream: (items) => (timeout === undefined ? items : stream(items, timeout)) };
}
