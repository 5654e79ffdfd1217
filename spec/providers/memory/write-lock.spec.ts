/**
 * The store's write lock bounds a transaction by its timeout (MemoryProvider's `transactionTimeout`)
 * with one watchdog timer for all of them, on jest's fake clock: a transaction is abandoned exactly
 * at its own end, also when the watchdog was armed for an earlier one, and the next writer runs.
 */
import { ODataError } from '../../../lib/errors';
import { WriteLock } from '../../../lib/providers/memory/write-lock';

const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

/** The outcome of `promise` so far: pending, `value: <v>`, or the error's status and code. */
function watch(promise: Promise<unknown>): () => unknown {
  let outcome: unknown = 'pending';
  void promise.then(
    (value) => (outcome = `value: ${String(value)}`),
    (error: unknown) => (outcome = error instanceof ODataError ? [error.status, error.code] : error),
  );
  return () => outcome;
}

describe('WriteLock.runTransaction', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  it('abandons a transaction that has not settled after exactly its timeout: 503 PROVIDER_TIMEOUT, undone, the next writer served', async () => {
    const lock = new WriteLock();
    const undone: string[] = [];
    const hung = watch(lock.runTransaction(never, {}, 300, () => undone.push('hung')));
    const next = watch(lock.run(() => 'next'));
    await jest.advanceTimersByTimeAsync(299);
    expect([hung(), next(), undone]).toEqual(['pending', 'pending', []]);
    await jest.advanceTimersByTimeAsync(1);
    expect([hung(), next(), undone]).toEqual([[503, 'PROVIDER_TIMEOUT'], 'value: next', ['hung']]);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('gives a transaction that starts while the watchdog is armed for an earlier one its own full timeout', async () => {
    const lock = new WriteLock();
    let finishFirst: (value: string) => void = () => undefined;
    const first = watch(
      lock.runTransaction(
        () => new Promise<string>((resolve) => (finishFirst = resolve)),
        {},
        300,
        () => undefined,
      ),
    );
    const second = watch(lock.runTransaction(never, {}, 300, () => undefined));
    await jest.advanceTimersByTimeAsync(100);
    finishFirst('first');
    await jest.advanceTimersByTimeAsync(0);
    expect([first(), second()]).toEqual(['value: first', 'pending']);
    // The watchdog armed for the first (at 300) finds the second not yet due, and sleeps until 400.
    await jest.advanceTimersByTimeAsync(299);
    expect(second()).toBe('pending');
    await jest.advanceTimersByTimeAsync(1);
    expect(second()).toEqual([503, 'PROVIDER_TIMEOUT']);
  });

  it('refuses later work of an abandoned transaction’s scope', async () => {
    const lock = new WriteLock();
    const scope = {};
    const hung = watch(lock.runTransaction(never, scope, 50, () => undefined));
    await jest.advanceTimersByTimeAsync(50);
    expect(hung()).toEqual([503, 'PROVIDER_TIMEOUT']);
    await expect(lock.run(() => 'late write', scope)).rejects.toMatchObject({ code: 'PROVIDER_TIMEOUT' });
  });
});
