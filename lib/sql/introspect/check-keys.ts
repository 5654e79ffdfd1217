/**
 * `checkKeys(db, result)`: the start-time check of keys nothing in the database makes unique
 * (`result.uncheckedKeys`: a `keys` option on a view or on columns without a unique index, a
 * partitioned table's key from its partitions). A key two rows share would lose rows silently (a
 * read by key answers one of them, paging skips the other), so it is refused with one line that
 * names it; each check runs in a read-only transaction under a statement timeout, and a check the
 * timeout stops is a warning, not a refusal (a large table must not keep a service from starting).
 */
import { sql } from 'kysely';
import type { SqlDatabase } from '../database';
import { SQLSTATE, SqlIntrospectionError, sqlStateOf } from '../errors';
import type { IntrospectionResult, IntrospectionWarning, UncheckedKey } from './types';

/** Options of `checkKeys`. */
export interface CheckKeysOptions {
  /** How long one key's check may run, in milliseconds (default 10000). */
  readonly statementTimeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/** The first key value two rows share, or a null one, as text by column; undefined when every row has its own. */
async function sharedValue(db: SqlDatabase, key: UncheckedKey, timeoutMs: number): Promise<(string | null)[] | undefined> {
  const columns = key.columns.map((column) => sql.id(column));
  const texts = key.columns.map((column, i) => sql`cast(${sql.id(column)} as text) as ${sql.id(`k${i}`)}`);
  const nulls = sql.join(
    columns.map((column) => sql`${column} is null`),
    sql` or `,
  );
  return db.kysely
    .transaction()
    .setAccessMode('read only')
    .execute(async (trx) => {
      // SQLite cannot bound a statement: the check runs unbounded there.
      await db.sqlEngine.transactions.statementTimeout?.(timeoutMs).execute(trx);
      const result = await sql<Record<string, unknown>>`select ${sql.join(texts)} from ${sql.id(key.schema, key.table)}
        group by ${sql.join(columns)} having count(*) > 1 or ${nulls} limit 1`.execute(trx);
      const row = result.rows[0];
      return row === undefined ? undefined : key.columns.map((_, i) => (typeof row[`k${i}`] === 'string' ? (row[`k${i}`] as string) : null));
    });
}

/** `order_id = '10248', line = null`. */
function describeValue(key: UncheckedKey, values: readonly (string | null)[]): string {
  return key.columns.map((column, i) => `${column} = ${values[i] === null ? 'null' : `'${(values[i] ?? '').slice(0, 40)}'`}`).join(', ');
}

/**
 * Check every key of `result.uncheckedKeys` (see the module comment). Resolves with warnings
 * (`KEY_NOT_CHECKED`) for the checks the timeout stopped; rejects with SqlIntrospectionError for the
 * first key two rows share or that is null in some row.
 */
export async function checkKeys(
  db: SqlDatabase,
  result: Pick<IntrospectionResult, 'uncheckedKeys'>,
  options: CheckKeysOptions = {},
): Promise<IntrospectionWarning[]> {
  const timeoutMs = options.statementTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const warnings: IntrospectionWarning[] = [];
  for (const key of result.uncheckedKeys) {
    const qualified = `${key.schema}.${key.table}`;
    const columns = key.columns.join(', ');
    let values: (string | null)[] | undefined;
    try {
      values = await sharedValue(db, key, timeoutMs);
    } catch (error) {
      if (sqlStateOf(error) !== SQLSTATE.queryCanceled) throw error;
      warnings.push({
        code: 'KEY_NOT_CHECKED',
        target: qualified,
        message: `The key (${columns}) of ${qualified} was not checked: the check took longer than ${timeoutMs} ms. Make sure no two rows share it, or make it unique with a unique index.`,
      });
      continue;
    }
    if (values === undefined) continue;
    const problem = values.some((value) => value === null) ? `a row has ${describeValue(key, values)}` : `two or more rows have ${describeValue(key, values)}`;
    throw new SqlIntrospectionError(
      `The key (${columns}) of ${qualified} (entity set ${key.entitySet}) does not identify one row: ${problem}. Give key columns that are unique and never null.`,
      [],
    );
  }
  return warnings;
}
