/**
 * Where a read's statements run: on the pool (one statement, its own snapshot), or in one
 * read-only REPEATABLE READ transaction when a response needs several statements that must agree
 * (the page and its count, the page and its expansions, the chunks of a streamed feed). A
 * transaction that a streamed feed keeps open is ended when the feed ends, when the consumer stops
 * early, or when it does not ask for more within the idle limit (a stalled or vanished client must
 * not hold a connection, or PGlite's one session, forever).
 */
import type { ControlledTransaction } from 'kysely';
import type { SqlDatabase, SqlKysely, SqlSchema } from '../database';

/** The statements of one read. */
export class ReadScope {
  private closing: Promise<void> | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private idleFailure: Error | undefined;
  private lastActivity = 0;

  private constructor(
    /** What statements run on: the pool, or the open transaction. */
    readonly executor: SqlKysely,
    private readonly transaction: ControlledTransaction<SqlSchema> | undefined,
  ) {}

  /**
   * A scope on the pool (no snapshot) or in a new read-only snapshot transaction. With a statement
   * timeout, always in a read-only transaction that sets it (`statement_timeout` is never left on a
   * pooled connection as session state).
   */
  static async open(db: SqlDatabase, snapshot: boolean, statementTimeoutMs?: number): Promise<ReadScope> {
    if (!snapshot && statementTimeoutMs === undefined) return new ReadScope(db.kysely, undefined);
    const begin = db.kysely.startTransaction().setAccessMode('read only');
    const transaction = await (snapshot ? begin.setIsolationLevel('repeatable read') : begin).execute();
    const scope = new ReadScope(transaction, transaction);
    if (statementTimeoutMs !== undefined) {
      try {
        await db.dialect.statementTimeout(statementTimeoutMs).execute(transaction);
      } catch (error) {
        await scope.fail();
        throw error;
      }
    }
    return scope;
  }

  /** A scope inside a transaction someone else opened and ends (a read within a write or a changeset). */
  static within(executor: SqlKysely): ReadScope {
    return new ReadScope(executor, undefined);
  }

  /** End the scope (commit a read-only transaction; nothing to undo). Idempotent. */
  end(): Promise<void> {
    this.clearIdle();
    return (this.closing ??=
      this.transaction === undefined || this.transaction.isCommitted || this.transaction.isRolledBack
        ? Promise.resolve()
        : this.transaction.commit().execute());
  }

  /** End the scope after a failure (roll back; a rollback that fails too is not reported twice). Idempotent. */
  fail(): Promise<void> {
    this.clearIdle();
    const transaction = this.transaction;
    return (this.closing ??=
      transaction === undefined || transaction.isCommitted || transaction.isRolledBack
        ? Promise.resolve()
        : transaction
            .rollback()
            .execute()
            .catch(() => undefined));
  }

  /**
   * From now on, roll back when the reader stays away longer than `milliseconds` between two
   * `touch` calls (checked by one unref'd interval timer, not a timer per row).
   */
  watchIdle(milliseconds: number): void {
    this.clearIdle();
    if (this.transaction === undefined) return;
    this.lastActivity = Date.now();
    this.idleTimer = setInterval(
      () => {
        if (Date.now() - this.lastActivity <= milliseconds) return;
        this.idleFailure = new Error(`A streamed read was not continued within ${milliseconds} ms; its transaction was rolled back.`);
        void this.fail();
      },
      Math.min(Math.max(milliseconds / 4, 10), 1000),
    );
    this.idleTimer.unref();
  }

  /** The reader is active; throws when the idle limit already ended the scope. */
  touch(): void {
    if (this.idleFailure !== undefined) throw this.idleFailure;
    this.lastActivity = Date.now();
  }

  private clearIdle(): void {
    if (this.idleTimer !== undefined) clearInterval(this.idleTimer);
    this.idleTimer = undefined;
  }
}
