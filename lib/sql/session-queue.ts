/**
 * A first-come-first-served lock over one database session. PGlite is a single PostgreSQL session:
 * a transaction holds it from BEGIN to COMMIT, and everything else waits in line, so two changesets
 * never interleave their statements inside one transaction.
 */
import { SqlAcquireTimeoutError } from './errors';

/** Gives the session back; calling it again does nothing. */
export type ReleaseSession = () => void;

interface Waiter {
  readonly grant: (release: ReleaseSession) => void;
  timer: NodeJS.Timeout | undefined;
}

/** Hands out one session at a time, in arrival order, with an optional wait limit per request. */
export class SessionQueue {
  private busy = false;
  private readonly waiters: Waiter[] = [];

  /**
   * Wait for the session. With `timeoutMs`, a request still waiting after that long leaves the line
   * and rejects with SqlAcquireTimeoutError (`retryAfterSeconds` is passed through to the error).
   */
  acquire(timeoutMs?: number, retryAfterSeconds = 1): Promise<ReleaseSession> {
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { grant: resolve, timer: undefined };
      if (timeoutMs !== undefined) {
        waiter.timer = setTimeout(() => {
          const index = this.waiters.indexOf(waiter);
          if (index >= 0) this.waiters.splice(index, 1);
          reject(new SqlAcquireTimeoutError(timeoutMs, retryAfterSeconds));
        }, timeoutMs);
      }
      this.waiters.push(waiter);
    });
  }

  /** How many requests wait for the session now. */
  get waiting(): number {
    return this.waiters.length;
  }

  private releaser(): ReleaseSession {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next === undefined) {
        this.busy = false;
        return;
      }
      if (next.timer !== undefined) clearTimeout(next.timer);
      next.grant(this.releaser());
    };
  }
}
