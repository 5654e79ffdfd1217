/**
 * The SQL provider's transactions: one database transaction per request context (a single write
 * with its answer, or a `$batch` changeset), which every write and read of that context joins;
 * run again from the start after a serialization failure or a deadlock (SQLSTATE 40001, 40P01:
 * what PostgreSQL at SERIALIZABLE and distributed engines answer under contention), a bounded
 * number of times; `statement_timeout` set inside it (never as session state: a pooled connection
 * or a distributed engine's gateway must not carry it to the next transaction).
 */
import type { Transaction } from 'kysely';
import { ODataError } from '../../errors';
import type { RequestContext } from '../../protocol/message';
import type { SqlDatabase, SqlKysely, SqlSchema } from '../database';
import { isRetryableTransactionError } from '../errors';

/** The isolation levels a write transaction may run at. */
export type SqlIsolationLevel = 'read committed' | 'repeatable read' | 'serializable';

/** What a `beforeCommit` hook is given. */
export interface SqlTransactionAttempt {
  /** The open transaction: statements run on it belong to it. */
  readonly executor: SqlKysely;
  /** 1 for the first run of the transaction's work, 2 for its first retry... */
  readonly attempt: number;
}

/** How transactions run. */
export interface TransactionSettings {
  readonly db: SqlDatabase;
  readonly isolationLevel: SqlIsolationLevel;
  /** Runs of the work at most (the first and the retries). */
  readonly maxAttempts: number;
  readonly statementTimeoutMs: number | undefined;
  readonly retryAfterSeconds: number;
  /** Called after the work, before COMMIT (tests inject a serialization failure here). */
  readonly beforeCommit: ((attempt: SqlTransactionAttempt) => Promise<void>) | undefined;
  /** Database errors (of BEGIN, COMMIT, the hook, a timeout) as OData errors. */
  readonly mapError: (error: unknown) => unknown;
}

/** One open transaction of a request context. */
interface OpenTransaction {
  readonly executor: Transaction<SqlSchema>;
  /** The first serialization failure or deadlock any statement of it met: it must run again, whatever the work made of the error. */
  retryable: unknown;
}

/** A short pause before a retry, growing with the attempt and jittered, so colliding transactions do not collide again in step. */
function pause(attempt: number): Promise<void> {
  const milliseconds = Math.min(5 * 2 ** attempt, 200) * (0.5 + Math.random());
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

/** The transactions of one provider. */
export class SqlTransactions {
  private readonly open = new WeakMap<RequestContext, OpenTransaction>();

  constructor(private readonly settings: TransactionSettings) {}

  /** The executor of the context's open transaction, or undefined outside one. */
  executorOf(context: RequestContext): SqlKysely | undefined {
    return this.open.get(context)?.executor;
  }

  /**
   * Run `work` in the context's transaction: joined when one is open (a changeset's write), else
   * in a new one that commits when `work` resolves and is rolled back and run again (up to
   * `maxAttempts` runs) when any statement met a serialization failure or deadlock, even if `work`
   * turned that error into an answer. Out of attempts: 503 TRANSACTION_CONFLICT.
   */
  async run<T>(context: RequestContext, work: (executor: SqlKysely) => Promise<T>): Promise<T> {
    const joined = this.open.get(context);
    if (joined !== undefined) return this.inside(joined, work);
    const { db, isolationLevel, maxAttempts, statementTimeoutMs, beforeCommit } = this.settings;
    for (let attempt = 1; ; attempt++) {
      const transaction = await db.kysely
        .startTransaction()
        .setIsolationLevel(isolationLevel)
        .execute()
        .catch((error: unknown) => {
          throw this.settings.mapError(error);
        });
      const state: OpenTransaction = { executor: transaction, retryable: undefined };
      this.open.set(context, state);
      try {
        if (statementTimeoutMs !== undefined) await this.inside(state, (trx) => db.dialect.statementTimeout(statementTimeoutMs).execute(trx));
        const result = await this.inside(state, work);
        // Rethrown as it was caught (the driver's error); `as unknown` undoes the narrowing to `{} | null`.
        if (state.retryable !== undefined) throw state.retryable as unknown;
        if (beforeCommit !== undefined) await this.inside(state, (trx) => beforeCommit({ executor: trx, attempt }));
        await transaction.commit().execute();
        return result;
      } catch (error) {
        if (!transaction.isCommitted && !transaction.isRolledBack)
          await transaction
            .rollback()
            .execute()
            .catch(() => undefined);
        const failure = state.retryable ?? error;
        if (!isRetryableTransactionError(failure)) throw this.settings.mapError(error);
        if (attempt >= maxAttempts) {
          throw ODataError.fromCode(
            'TRANSACTION_CONFLICT',
            { attempts: attempt },
            { headers: { 'retry-after': String(this.settings.retryAfterSeconds) }, cause: failure },
          );
        }
        await pause(attempt);
      } finally {
        if (this.open.get(context) === state) this.open.delete(context);
      }
    }
  }

  /** `work` on an open transaction, noting a serialization failure or deadlock it meets. */
  private async inside<T>(state: OpenTransaction, work: (executor: SqlKysely) => Promise<T>): Promise<T> {
    try {
      return await work(state.executor);
    } catch (error) {
      if (state.retryable === undefined && isRetryableTransactionError(error)) state.retryable = error;
      throw error;
    }
  }
}
