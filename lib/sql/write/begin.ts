/**
 * How SqlProvider opens one attempt of a write transaction for the kit's TransactionScope (which
 * joins, retries and answers 503 TRANSACTION_CONFLICT): BEGIN at the configured isolation level,
 * `statement_timeout` and the request's database session set inside it (never as session state:
 * a pooled connection or a distributed engine's gateway must not carry them to the next
 * transaction; every attempt sets them again), the `beforeCommit` hook, COMMIT or
 * ROLLBACK. A serialization failure or deadlock (SQLSTATE 40001, 40P01) that any statement of the
 * transaction met makes the attempt fail with it, even when the work turned it into an answer (a
 * changeset's failed part): PostgreSQL has aborted the transaction, only a rerun can commit it.
 * Required join-table links are counted before COMMIT (required-links.ts).
 *
 * A write request whose plan writes in one statement (TransactionOptions.singleWrite, and
 * plan.ts's `writesInOneStatement`) runs without BEGIN and COMMIT (`sqlAlone`): the engine makes
 * a single statement atomic, and two round trips of three are saved.
 *
 * A lost connection: a BEGIN that failed for lack of one is tried once more (nothing has run); a
 * COMMIT sent on a connection that closed before its reply is WRITE_OUTCOME_UNKNOWN, as is a
 * write run alone whose reply was lost (its caller asks `OpenTransaction.alone`); neither is
 * ever run again. Any other failure, a connection closed before the COMMIT was sent included,
 * left nothing committed.
 */
import type { ControlledTransaction } from 'kysely';
import type { BeginTransaction } from '../../provider/transaction';
import type { SqlDatabase, SqlKysely, SqlSchema } from '../database';
import { isReplyLost, writeOutcomeUnknownError } from '../connection-failure';
import { isRetryableTransactionError } from '../errors';
import type { CompiledMapping } from '../mapping/compiled';
import { startStatement, type TransactionStart } from '../session';
import { RequiredLinks } from './required-links';

/** The isolation levels a write transaction may run at. */
export type SqlIsolationLevel = 'read committed' | 'repeatable read' | 'serializable';

/** What a `beforeCommit` hook is given. */
export interface SqlTransactionAttempt {
  /** The open transaction: statements run on it belong to it. */
  readonly executor: SqlKysely;
  /** 1 for the first run of the transaction's work, 2 for its first retry... */
  readonly attempt: number;
}

/** How an attempt runs. */
export interface BeginSettings extends TransactionStart {
  readonly db: SqlDatabase;
  readonly compiled: CompiledMapping;
  readonly isolationLevel: SqlIsolationLevel;
  /** Called after the work, before COMMIT (tests inject a serialization failure here). */
  readonly beforeCommit: ((attempt: SqlTransactionAttempt) => Promise<void>) | undefined;
  /** Database errors (of BEGIN, COMMIT, the hook, a timeout) as OData errors; never given a retryable one. */
  readonly mapError: (error: unknown) => unknown;
}

/** One open transaction of a request context: the TransactionScope's handle. */
export interface OpenTransaction {
  /** Where its statements run: the transaction, or the pool for a write that is one statement run alone. */
  readonly executor: SqlKysely;
  /** The first serialization failure or deadlock any statement of it met. */
  retryable: unknown;
  /** Entities whose required join-table links are counted before COMMIT. */
  readonly required: RequiredLinks;
  /** True for a write run alone: its statement commits by itself, so a lost reply leaves its outcome unknown. */
  readonly alone: boolean;
}

/** `work` on an open transaction, noting a serialization failure or deadlock it meets. */
export async function runInside<T>(open: OpenTransaction, work: (executor: SqlKysely) => Promise<T>): Promise<T> {
  try {
    return await work(open.executor);
  } catch (error) {
    if (open.retryable === undefined && isRetryableTransactionError(error)) open.retryable = error;
    throw error;
  }
}

/** The BeginTransaction of SqlProvider's scope. */
export function sqlBegin(settings: BeginSettings): BeginTransaction<OpenTransaction> {
  const { db, compiled, isolationLevel, beforeCommit, mapError } = settings;
  const first = startStatement(db.sqlEngine, settings);
  const mapped = (error: unknown): unknown => (isRetryableTransactionError(error) ? error : mapError(error));
  const start = (): Promise<ControlledTransaction<SqlSchema>> => db.kysely.startTransaction().setIsolationLevel(isolationLevel).execute();
  return async (body, attempt) => {
    const transaction = await start()
      // BEGIN ran nothing: a pooled connection that died unnoticed (a server restart) costs one more try on a fresh one.
      .catch((error: unknown) => (db.sqlEngine.errors.isConnectionFailure(error) ? start() : Promise.reject(error)))
      .catch((error: unknown) => {
        throw mapped(error);
      });
    const open: OpenTransaction = { executor: transaction, retryable: undefined, required: new RequiredLinks(compiled), alone: false };
    try {
      if (first !== undefined) await runInside(open, (trx) => first.execute(trx));
      const result = await body(open);
      // Rethrown as it was caught (the driver's error); `as unknown` undoes the narrowing to `{} | null`.
      if (open.retryable !== undefined) throw open.retryable as unknown;
      await runInside(open, (trx) => open.required.check(trx, db.sqlEngine));
      if (beforeCommit !== undefined) await runInside(open, (trx) => beforeCommit({ executor: trx, attempt }));
      await transaction
        .commit()
        .execute()
        .catch((error: unknown) => {
          throw isReplyLost(error) ? writeOutcomeUnknownError(error) : error;
        });
      return result;
    } catch (error) {
      if (!transaction.isCommitted && !transaction.isRolledBack)
        await transaction
          .rollback()
          .execute()
          .catch(() => undefined);
      throw mapped(open.retryable ?? error);
    }
  };
}

/**
 * The BeginTransaction of a plan that writes in one statement, run alone: no BEGIN, no COMMIT,
 * the statement commits by itself on a pooled connection. The scope still runs it again after a
 * serialization failure or deadlock (a failed statement committed nothing). Nothing counts
 * required links here: a plan with a step that notes them needs a transaction (plan.ts).
 */
export function sqlAlone(db: SqlDatabase, compiled: CompiledMapping): BeginTransaction<OpenTransaction> {
  return (body) => body({ executor: db.kysely, retryable: undefined, required: new RequiredLinks(compiled), alone: true });
}
