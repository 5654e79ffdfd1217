/** The one-session lock of PGlite: first come, first served, with a bounded wait. */
import { SqlAcquireTimeoutError } from '../../lib/sql/errors';
import { SessionQueue } from '../../lib/sql/session-queue';

describe('SessionQueue', () => {
  afterEach(() => jest.useRealTimers());

  it('hands the session out in arrival order, one holder at a time', async () => {
    const queue = new SessionQueue();
    const order: string[] = [];
    const hold = async (name: string, ms: number): Promise<void> => {
      const release = await queue.acquire();
      order.push(`${name}+`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      order.push(`${name}-`);
      release();
    };
    await Promise.all([hold('a', 20), hold('b', 1), hold('c', 1)]);
    expect(order).toEqual(['a+', 'a-', 'b+', 'b-', 'c+', 'c-']);
    expect(queue.waiting).toBe(0);
  });

  it('a second release does nothing (the next holder keeps the session)', async () => {
    const queue = new SessionQueue();
    const first = await queue.acquire();
    const second = queue.acquire();
    first();
    const releaseSecond = await second;
    first();
    let thirdGranted = false;
    const third = queue.acquire().then((release) => {
      thirdGranted = true;
      return release;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(thirdGranted).toBe(false);
    releaseSecond();
    (await third)();
  });

  it('gives up after exactly the wait with SqlAcquireTimeoutError and leaves the line', async () => {
    jest.useFakeTimers();
    const queue = new SessionQueue();
    const holder = await queue.acquire();
    let outcome: unknown = 'waiting';
    void queue.acquire(50, 3).then(
      () => (outcome = 'granted'),
      (error: unknown) => (outcome = error),
    );
    await jest.advanceTimersByTimeAsync(49);
    expect([outcome, queue.waiting]).toEqual(['waiting', 1]);
    await jest.advanceTimersByTimeAsync(1);
    expect(outcome).toBeInstanceOf(SqlAcquireTimeoutError);
    expect(outcome).toMatchObject({ waitedMs: 50, retryAfterSeconds: 3, message: 'No database connection became available within 50 ms.' });
    expect(queue.waiting).toBe(0);
    holder();
    // The session is free again: the timed-out request did not take it.
    (await queue.acquire(10))();
  });

  it('clears the wait timer of a request that got the session in time', async () => {
    jest.useFakeTimers();
    const queue = new SessionQueue();
    const holder = await queue.acquire();
    const waiting = queue.acquire(50);
    expect(jest.getTimerCount()).toBe(1);
    holder();
    (await waiting)();
    expect(jest.getTimerCount()).toBe(0);
  });
});
