/**
 * Where a read's statements run: on the pool (one statement, its own snapshot), or, when a
 * response needs several statements that must agree (the page and its count, the page and its
 * expansions, the chunks of a streamed feed), in one read-only REPEATABLE READ transaction on a
 * server, and on PGlite in its one session held for the read: nothing else runs on it meanwhile,
 * so the statements see the same data without BEGIN and COMMIT (two round trips less). A scope
 * that a streamed feed keeps open is ended when the feed ends, when the consumer stops early, or
 * when it does not ask for more within the idle limit (a stalled or vanished client must not hold
 * a connection, or PGlite's one session, forever).
 */
import type { ControlledTransaction } from 'kysely';
import type { SqlDatabase, SqlKysely, SqlSchema } from '../database';
import { startStatement, type TransactionStart } from '../session';

/** How a scope that holds something ends: after success, or after a failure (which must not throw). */
type ScopeEnd = (failed: boolean) => Promise<void>;

/**
 * Commit a read-only transaction, or roll it back after a failure (a rollback that fails too is
 * not reported twice). A COMMIT that fails (its connection died) is followed by a ROLLBACK, which
 * is what gives the connection back: Kysely releases it only once the transaction has ended.
 */
function transactionEnd(transaction: ControlledTransaction<SqlSchema>): ScopeEnd {
  const rollback = (): Promise<void> =>
    transaction
      .rollback()
      .execute()
      .catch(() => undefined);
  return async (failed) => {
    if (transaction.isCommitted || transaction.isRolledBack) return;
    if (failed) return rollback();
    try {
      await transaction.commit().execute();
    } catch (error) {
      await rollback();
      throw error;
    }
  };
}

/** The statements of one read. */
export class ReadScope {
  private closing: Promise<void> | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private idleFailure: Error | undefined;
  private lastActivity = 0;

  private constructor(
    /** What statements run on: the pool, the open transaction, or PGlite's held session. */
    readonly executor: SqlKysely,
    /** Ends what the scope holds (a transaction, PGlite's session); undefined when it holds nothing. */
    private readonly ending: ScopeEnd | undefined,
  ) {}

  /**
   * A scope on the pool (no snapshot), or one whose statements share a snapshot: PGlite's session
   * held, or a new read-only snapshot transaction. With a statement timeout or a request's
   * database session, always in a read-only transaction that sets them first (neither is ever
   * left on a pooled connection as session state).
   */
  static async open(db: SqlDatabase, snapshot: boolean, start: TransactionStart = {}): Promise<ReadScope> {
    const first = startStatement(db.sqlEngine, start);
    if (!snapshot && first === undefined) return new ReadScope(db.kysely, undefined);
    if (db.engine === 'pglite' && first === undefined) return ReadScope.holdSession(db);
    const begin = db.kysely.startTransaction().setAccessMode('read only');
    const transaction = await (snapshot ? begin.setIsolationLevel('repeatable read') : begin).execute();
    const scope = new ReadScope(transaction, transactionEnd(transaction));
    if (first !== undefined) {
      try {
        await first.execute(transaction);
      } catch (error) {
        await scope.fail();
        throw error;
      }
    }
    return scope;
  }

  /** PGlite's one session, held (under its queue) until the scope ends. */
  private static async holdSession(db: SqlDatabase): Promise<ReadScope> {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held: Promise<void> = Promise.resolve();
    const executor = await new Promise<SqlKysely>((resolve, reject) => {
      held = db.kysely.connection().execute(async (connection) => {
        resolve(connection);
        await released;
      });
      // Rejects only when the session could not be had (the wait limit): then nothing is held.
      held.catch(reject);
    });
    return new ReadScope(executor, () => {
      release();
      return held.catch(() => undefined);
    });
  }

  /** A scope inside a transaction someone else opened and ends (a read within a write or a changeset). */
  static within(executor: SqlKysely): ReadScope {
    return new ReadScope(executor, undefined);
  }

  /** End the scope (commit a read-only transaction, give PGlite's session back). Idempotent. */
  end(): Promise<void> {
    this.clearIdle();
    return (this.closing ??= this.ending === undefined ? Promise.resolve() : this.ending(false));
  }

  /** End the scope after a failure (roll back; a rollback that fails too is not reported twice). Idempotent. */
  fail(): Promise<void> {
    this.clearIdle();
    return (this.closing ??= this.ending === undefined ? Promise.resolve() : this.ending(true));
  }

  /**
   * From now on, roll back when the reader stays away longer than `milliseconds` between two
   * `touch` calls (checked by one unref'd interval timer, not a timer per row).
   */
  watchIdle(milliseconds: number): void {
    this.clearIdle();
    if (this.ending === undefined) return;
    this.lastActivity = Date.now();
    this.idleTimer = setInterval(
      () => {
        if (Date.now() - this.lastActivity <= milliseconds) return;
        this.idleFailure = new Error(`A streamed read was not continued within ${milliseconds} ms; its snapshot was released.`);
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
