/**
 * Multi-row INSERT and UPDATE statements over bound values, in batches that stay far below
 * PostgreSQL's 65,535 parameters per statement.
 */
import { sql } from 'kysely';
import type { SqlKysely } from '../database';
import type { Sql } from '../dialect';

/** One row: column name -> bound value (or a SQL literal such as `null`). */
export type RowValues = ReadonlyMap<string, Sql>;

/** Bound values per statement at most. */
const MAX_VALUES = 30_000;

function batches<T>(rows: readonly T[], width: number): T[][] {
  const size = Math.max(1, Math.floor(MAX_VALUES / Math.max(1, width)));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** The columns of `rows`, in first-seen order. */
function columnsOf(rows: readonly RowValues[]): string[] {
  const columns = new Set<string>();
  for (const row of rows) for (const column of row.keys()) columns.add(column);
  return [...columns];
}

/** Insert `rows` into `table`; a column a row lacks is NULL there. */
export async function insertRows(trx: SqlKysely, table: Sql, rows: readonly RowValues[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = columnsOf(rows);
  const names = sql.join(columns.map((column) => sql.id(column)));
  for (const batch of batches(rows, columns.length)) {
    const values = batch.map((row) => sql`(${sql.join(columns.map((column) => row.get(column) ?? sql`null`))})`);
    await sql`insert into ${table} (${names}) values ${sql.join(values)}`.execute(trx);
  }
}

/** Set the non-key columns of `rows` in the rows of `table` with the same key (rows grouped by the columns they set). */
export async function updateRows(trx: SqlKysely, table: Sql, key: readonly string[], rows: readonly RowValues[]): Promise<void> {
  const groups = new Map<string, RowValues[]>();
  for (const row of rows) {
    const signature = JSON.stringify([...row.keys()]);
    groups.set(signature, [...(groups.get(signature) ?? []), row]);
  }
  for (const group of groups.values()) {
    const columns = columnsOf(group);
    const set = columns.filter((column) => !key.includes(column));
    const names = sql.join(columns.map((column) => sql.id(column)));
    const assignments = sql.join(set.map((column) => sql`${sql.id(column)} = ${sql.id('v', column)}`));
    const match = sql.join(
      key.map((column) => sql`${table}.${sql.id(column)} = ${sql.id('v', column)}`),
      sql` and `,
    );
    for (const batch of batches(group, columns.length)) {
      const values = batch.map((row) => sql`(${sql.join(columns.map((column) => row.get(column) ?? sql`null`))})`);
      await sql`with v (${names}) as (values ${sql.join(values)}) update ${table} set ${assignments} from v where ${match}`.execute(trx);
    }
  }
}
