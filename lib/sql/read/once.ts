/**
 * A read of one statement outside any transaction, held to the statement timeout and run as the
 * request's database session: on the pool as it is without either, else in a read-only
 * transaction that sets them for itself (never left on a pooled connection as session state).
 * Media reads and the later chunks of a streamed feed without a snapshot run here, so
 * `statementTimeoutMs` and `session` cover them too.
 */
import type { SqlDatabase, SqlKysely } from '../database';
import type { TransactionStart } from '../session';
import { ReadScope } from './scope';

/** Run `work` on the pool, or in a read-only transaction that applies `start` when it sets anything. */
export async function readOnce<T>(db: SqlDatabase, start: TransactionStart, work: (executor: SqlKysely) => Promise<T>): Promise<T> {
  if (start.statementTimeoutMs === undefined && start.session === undefined) return work(db.kysely);
  const scope = await ReadScope.open(db, false, start);
  try {
    const result = await work(scope.executor);
    await scope.end();
    return result;
  } catch (error) {
    await scope.fail();
    throw error;
  }
}
