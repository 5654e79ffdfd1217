/**
 * The transaction contract (issue 13): a provider keeps its open transaction in a typed
 * TransactionScope; nested use joins the open one; `work` runs again after a retryable failure
 * (a serialization failure), and the service's work, a single write as a `$batch` changeset,
 * starts from a clean slate each time: a provider that fails the first attempt of every
 * transaction still creates each entity exactly once and answers as if nothing had happened.
 */
import express from 'express';
import { readFileSync } from 'fs';
import { join } from 'path';
import { createTransactionScope, loadEdmx, MemoryProvider, ODataError, odata, retryBackoff } from '../../lib';
import type { BeginTransaction, EdmModel } from '../../lib';
import type { RequestContext } from '../../lib/protocol/message';
import { storeOf } from '../../lib/providers/memory';
import { batchBody, changeset, changesetOf, jsonOf, operation, readBatchResponse, send, statuses } from '../helpers/batch-http';
import { startServer } from '../helpers/server';
import type { RunningServer } from '../helpers/server';

const MODEL: EdmModel = loadEdmx(readFileSync(join(__dirname, '..', 'fixtures', 'provider', 'orders.xml'), 'utf8'));

const context = (): RequestContext => ({ request: {} as RequestContext['request'], state: new Map() });

/** What PostgreSQL's SQLSTATE 40001 looks like to a provider. */
class SerializationFailure extends Error {
  readonly code = '40001';
}

const isRetryable = (error: unknown): boolean => error instanceof SerializationFailure;

describe('createTransactionScope', () => {
  afterEach(() => jest.useRealTimers());

  /** A begin function that records what happens to each transaction it opens. */
  function recorder(events: string[], failures = 0): BeginTransaction<number> {
    let opened = 0;
    let failing = failures;
    return async (body) => {
      const handle = ++opened;
      events.push(`begin ${handle}`);
      try {
        const result = await body(handle);
        if (failing > 0) {
          failing--;
          throw new SerializationFailure('could not serialize access due to concurrent update');
        }
        events.push(`commit ${handle}`);
        return result;
      } catch (error) {
        events.push(`rollback ${handle}`);
        throw error;
      }
    };
  }

  it('hands the open transaction to code running for the same context, and only to it', async () => {
    const scope = createTransactionScope<number>('test');
    const mine = context();
    const other = context();
    const seen = await scope.run(mine, recorder([]), async () => [scope.current(mine), scope.current(other)]);
    expect(seen).toEqual([1, undefined]);
    expect(scope.current(mine)).toBeUndefined();
  });

  it('joins the open transaction on nested use: one begin, one commit', async () => {
    const events: string[] = [];
    const scope = createTransactionScope<number>('test');
    const begin = recorder(events);
    const request = context();
    await scope.run(request, begin, async () => {
      events.push('outer');
      await scope.run(request, begin, async () => {
        events.push(`inner in ${String(scope.current(request))}`);
      });
    });
    expect(events).toEqual(['begin 1', 'outer', 'inner in 1', 'commit 1']);
  });

  it('runs the whole transaction again after a retryable failure, up to `attempts` times, telling begin the attempt', async () => {
    const events: string[] = [];
    const scope = createTransactionScope<number>('test');
    let runs = 0;
    const attempts: number[] = [];
    const begin = recorder(events, 2);
    const counted: BeginTransaction<number> = (body, attempt) => {
      attempts.push(attempt);
      return begin(body, attempt);
    };
    await expect(scope.run(context(), counted, async () => ++runs, { isRetryable })).resolves.toBe(3);
    expect(events).toEqual(['begin 1', 'rollback 1', 'begin 2', 'rollback 2', 'begin 3', 'commit 3']);
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('answers 503 TRANSACTION_CONFLICT with Retry-After when the last attempt fails with a retryable error too', async () => {
    const scope = createTransactionScope<number>('test');
    const exhausted: string[] = [];
    const failure = await scope
      .run(context(), recorder(exhausted, 5), async () => 'never committed', { isRetryable, attempts: 2, retryAfterSeconds: 4 })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(exhausted).toEqual(['begin 1', 'rollback 1', 'begin 2', 'rollback 2']);
    expect(failure).toBeInstanceOf(ODataError);
    const conflict = failure as ODataError;
    expect([conflict.status, conflict.code, conflict.headers]).toEqual([503, 'TRANSACTION_CONFLICT', { 'retry-after': '4' }]);
    expect(conflict.message).toBe('The transaction kept conflicting with concurrent ones (2 attempts); try again later.');
    expect(conflict.cause).toBeInstanceOf(SerializationFailure);
    const byDefault = await scope.run(context(), recorder([], 1), async () => 'x', { isRetryable, attempts: 1 }).catch((error: unknown) => error);
    expect((byDefault as ODataError).headers).toEqual({ 'retry-after': '1' });
  });

  it('waits backoffMs(attempt) between attempts, and not after the last one', async () => {
    jest.useFakeTimers({ now: 0 });
    const scope = createTransactionScope<number>('test');
    const asked: number[] = [];
    const events: string[] = [];
    const begin = recorder(events, 3);
    // Each transaction, stamped with the time of jest's fake clock it began at.
    const timed: BeginTransaction<number> = (body, attempt) => {
      events.push(`at ${jest.now()}`);
      return begin(body, attempt);
    };
    const finished = scope
      .run(context(), timed, async () => 'x', {
        isRetryable,
        attempts: 3,
        backoffMs: (attempt) => {
          asked.push(attempt);
          return 40 * attempt;
        },
      })
      .catch((error: { code?: string }) => error.code);
    await jest.advanceTimersByTimeAsync(39);
    expect(events).toEqual(['at 0', 'begin 1', 'rollback 1']);
    await jest.advanceTimersByTimeAsync(1);
    expect(events.slice(3)).toEqual(['at 40', 'begin 2', 'rollback 2']);
    await jest.advanceTimersByTimeAsync(80);
    expect(events.slice(6)).toEqual(['at 120', 'begin 3', 'rollback 3']);
    expect(await finished).toBe('TRANSACTION_CONFLICT');
    expect(asked).toEqual([1, 2]);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('retryBackoff grows with the attempt up to its maximum, jittered by 0.5x to 1.5x', () => {
    const backoff = retryBackoff(100);
    for (let i = 0; i < 50; i++) {
      const first = backoff(1);
      expect(first).toBeGreaterThanOrEqual(5);
      expect(first).toBeLessThan(15);
      const late = backoff(10);
      expect(late).toBeGreaterThanOrEqual(50);
      expect(late).toBeLessThan(150);
    }
  });

  it('does not retry an error that is not retryable, nor without isRetryable', async () => {
    const scope = createTransactionScope<number>('test');
    const events: string[] = [];
    await expect(scope.run(context(), recorder(events), async () => Promise.reject(new Error('constraint')), { isRetryable })).rejects.toThrow('constraint');
    await expect(scope.run(context(), recorder(events, 1), async () => 'x')).rejects.toBeInstanceOf(SerializationFailure);
    await expect(scope.run(context(), recorder([], 1), async () => 'x', { isRetryable, retryAfterSeconds: -1 })).rejects.toThrow(
      "TransactionScope 'test': retryAfterSeconds must be an integer >= 0, got -1",
    );
    expect(events).toEqual(['begin 1', 'rollback 1', 'begin 1', 'rollback 1']);
  });

  it('refuses a nonsensical number of attempts', async () => {
    const scope = createTransactionScope<number>('orders database');
    await expect(scope.run(context(), recorder([]), async () => 1, { attempts: 0 })).rejects.toThrow(
      "TransactionScope 'orders database': attempts must be an integer >= 1, got 0",
    );
  });
});

/**
 * MemoryProvider whose every transaction fails once with a serialization failure after its work
 * ran (as a commit under SERIALIZABLE can), so the service's work runs twice.
 */
class FlakyProvider extends MemoryProvider {
  readonly scope = createTransactionScope<{ readonly attempt: number }>('flaky');
  attempts = 0;
  failNext = true;

  override async transaction<T>(work: () => Promise<T>, context: RequestContext): Promise<T> {
    const begin: BeginTransaction<{ readonly attempt: number }> = (body) =>
      super.transaction(async () => {
        const result = await body({ attempt: ++this.attempts });
        if (this.failNext) {
          this.failNext = false;
          throw new SerializationFailure('could not serialize access');
        }
        return result;
      }, context);
    return this.scope.run(context, begin, work, { isRetryable });
  }
}

describe('the service runs a write again after a serialization failure, from a clean slate', () => {
  let server: RunningServer;
  let provider: FlakyProvider;
  const JSON_TYPE = 'application/json';

  beforeEach(async () => {
    provider = new FlakyProvider(MODEL, { Customers: [{ ID: 1, Name: 'Ada' }], Orders: [], Lines: [] });
    const app = express();
    app.use('/odata', odata({ model: MODEL, provider, requireIfMatch: false, logger: () => undefined }));
    server = await startServer(app);
  });

  afterEach(() => server.close());

  const order = (id: number) => ({ ID: id, CustomerID: 1, Total: '1.00', ShipTo: { City: 'Oslo' }, Customer: { __metadata: { uri: 'Customers(1)' } } });

  it('a single POST: 201 with the entity, created once, after two attempts', async () => {
    const created = await send(`${server.url}/odata/Orders`, 'POST', { 'content-type': JSON_TYPE, accept: JSON_TYPE }, JSON.stringify(order(7)));
    expect([created.status, created.headers.location]).toEqual([201, `${server.url}/odata/Orders(7)`]);
    expect(provider.attempts).toBe(2);
    expect(
      storeOf(provider)
        .all(MODEL.defaultContainer.entitySets[1])
        .map((values) => values.ID),
    ).toEqual([7]);
  });

  it('a changeset with a Content-ID reference: every operation answered once, each entity created once', async () => {
    const body = batchBody([
      changeset(
        'changeset_1',
        operation('POST', 'Customers', {
          headers: { 'Content-Type': JSON_TYPE, Accept: JSON_TYPE },
          body: JSON.stringify({ ID: 2, Name: 'Grace' }),
          contentId: 'c',
        }),
        operation('POST', '$c/Orders', {
          headers: { 'Content-Type': JSON_TYPE, Accept: JSON_TYPE },
          body: JSON.stringify({ ID: 8, CustomerID: 2, Total: '2.00', ShipTo: { City: 'Rome' } }),
        }),
      ),
    ]);
    const result = await send(`${server.url}/odata/$batch`, 'POST', { 'content-type': 'multipart/mixed; boundary=batch_1' }, body);
    const parts = readBatchResponse(result);
    expect(statuses(parts)).toEqual([[201, 201]]);
    expect(provider.attempts).toBe(2);
    const [customer, created] = changesetOf(parts, 0);
    expect(jsonOf(customer)).toMatchObject({ d: { ID: 2, Name: 'Grace' } });
    expect(jsonOf(created)).toMatchObject({ d: { ID: 8 } });
    const store = storeOf(provider);
    const [customers, orders] = MODEL.defaultContainer.entitySets;
    expect([store.all(customers).map((values) => values.ID), store.all(orders).map((values) => values.ID)]).toEqual([[1, 2], [8]]);
  });
});
