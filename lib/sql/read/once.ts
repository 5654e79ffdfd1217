/**
 * A read of one statement outside any transaction, held to the statement timeout: on the pool as
 * it is without one, else in a read-only transaction that sets `statement_timeout` for itself
 * (never left on a pooled connection as session state). Media reads and the later chunks of a
 * streamed feed without a snapshot run here, so `statementTimeoutMs` covers them too.
 */
import type { SqlDatabase, SqlKysely } from '../database';
import { ReadScope } from './scope';

/** Run `work` on the pool, or in a read-only transaction with `statement_timeout` when a timeout is set. */
export async function readOnce<T>(db: SqlDatabase, statementTimeoutMs: number | undefined, work: (executor: SqlKysely) => Promise<T>): Promise<T> {
  if (statementTimeoutMs === undefined) return work(db.kysely);
  const scope = await ReadScope.open(db, false, statementTimeoutMs);
  try {
    const result = await work(scope.executor);
    await scope.end();
    return result;
  } catch (error) {
    await scope.fail();
    throw error;
  }
}
