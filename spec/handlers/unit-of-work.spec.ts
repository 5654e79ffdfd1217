/** The unit of work: writes in the provider's transaction (joined, never nested), and the provider timeout. */
import { createUnitOfWork } from '../../lib/handlers/unit-of-work';
import type { DataProvider } from '../../lib/provider/types';
import type { RequestContext } from '../../lib/protocol/message';
import { ODataError } from '../../lib/errors';

const context = (): RequestContext => ({ request: {} as RequestContext['request'], state: new Map() });
const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

/** A provider whose transaction records what happened to its work. */
function recordingProvider(events: string[]): DataProvider {
  return {
    query: async () => ({ entities: [] }),
    transaction: async (work) => {
      events.push('begin');
      try {
        const result = await work();
        events.push('commit');
        return result;
      } catch (error) {
        events.push(`rollback: ${error instanceof ODataError ? error.code : String(error)}`);
        throw error;
      }
    },
  };
}

describe('createUnitOfWork', () => {
  afterEach(() => jest.useRealTimers());

  it('runs a write inside the provider transaction, and a write of the same context inside it joins instead of nesting', async () => {
    const events: string[] = [];
    const unit = createUnitOfWork(recordingProvider(events), undefined);
    const request = context();
    const result = await unit.write(request, async () => {
      events.push('outer work');
      return unit.write(request, async () => {
        events.push('inner work');
        return 42;
      });
    });
    expect(result).toBe(42);
    expect(events).toEqual(['begin', 'outer work', 'inner work', 'commit']);
  });

  it('runs the work as it is for a provider without transactions', async () => {
    const unit = createUnitOfWork({ query: async () => ({ entities: [] }) }, undefined);
    await expect(unit.write(context(), async () => 'done')).resolves.toBe('done');
  });

  it('answers 503 PROVIDER_TIMEOUT with Retry-After when the work takes longer than the timeout, and the transaction rolls back', async () => {
    jest.useFakeTimers();
    const events: string[] = [];
    const unit = createUnitOfWork(recordingProvider(events), 30);
    let outcome: unknown = 'pending';
    void unit.write(context(), never).then(
      () => (outcome = 'resolved'),
      (reason: unknown) => (outcome = reason),
    );
    await jest.advanceTimersByTimeAsync(29);
    expect([outcome, events]).toEqual(['pending', ['begin']]);
    await jest.advanceTimersByTimeAsync(1);
    expect(outcome).toBeInstanceOf(ODataError);
    const error = outcome as ODataError;
    expect([error.status, error.code, error.headers, error.message]).toEqual([
      503,
      'PROVIDER_TIMEOUT',
      { 'retry-after': '1' },
      'The data provider did not finish within 30 ms; try again later.',
    ]);
    expect(events).toEqual(['begin', 'rollback: PROVIDER_TIMEOUT']);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('does not run a write whose transaction was granted only after its deadline', async () => {
    let grant = (): void => undefined;
    const granted = new Promise<void>((resolve) => (grant = resolve));
    let ran = false;
    const unit = createUnitOfWork(
      {
        query: async () => ({ entities: [] }),
        transaction: async (work) => {
          await granted;
          return work();
        },
      },
      20,
    );
    await expect(unit.write(context(), async () => (ran = true))).rejects.toMatchObject({ code: 'PROVIDER_TIMEOUT' });
    grant();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(ran).toBe(false);
  });

  it('bounds reads, and each next item of a stream, closing the provider iterator', async () => {
    const unit = createUnitOfWork({ query: async () => ({ entities: [] }) }, 20);
    await expect(unit.read(context(), never)).rejects.toMatchObject({ status: 503 });
    // A cursor that yields one item and then stalls; return() releases it.
    let closed = false;
    let calls = 0;
    const cursor: AsyncIterable<string> = {
      [Symbol.asyncIterator]: () => ({
        next: () => (calls++ === 0 ? Promise.resolve({ done: false, value: 'first' }) : never<IteratorResult<string>>()),
        return: async () => {
          closed = true;
          return { done: true, value: undefined };
        },
      }),
    };
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const item of unit.stream(cursor)) seen.push(item);
      })(),
    ).rejects.toMatchObject({ code: 'PROVIDER_TIMEOUT' });
    expect(seen).toEqual(['first']);
    expect(closed).toBe(true);
  });

  it('leaves reads and streams untouched without a timeout', async () => {
    const unit = createUnitOfWork({ query: async () => ({ entities: [] }) }, undefined);
    const items: AsyncIterable<number> = (async function* () {
      yield 1;
    })();
    expect(unit.stream(items)).toBe(items);
    await expect(unit.read(context(), async () => 7)).resolves.toBe(7);
  });
});
