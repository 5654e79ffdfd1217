/**
 * SQLite's forms of read and write statements (the engine's `reads`, `writes` and `tokens`): one
 * parameter per value in key lists, `limit -1` before an OFFSET, no data-modifying statement in a
 * WITH, version columns stamped with the statement's clock, and no row version.
 */
import { sql } from 'kysely';
import type { EdmPrimitiveTypeName, PrimitiveValue } from '../../edm/primitives';
import type { Sql } from '../dialect';
import type { SqlReadForms, SqlTokenForms, SqlWriteForms } from '../engine';
import { SQLITE_VALUES } from './values';

/** SQLite's read statement forms. */
export const SQLITE_READS: SqlReadForms = Object.freeze<SqlReadForms>({
  storedValue: (column) => column,
  inTuples(columns, types, tuples) {
    const parameter = (type: EdmPrimitiveTypeName, value: PrimitiveValue): Sql => SQLITE_VALUES.parameter(type, value);
    // One parameter per value: SQLite has no array parameters (at most 32,766 per statement).
    if (columns.length === 1) return sql`(${columns[0]} in (${sql.join(tuples.map((tuple) => parameter(types[0], tuple[0])))}))`;
    const rows = tuples.map((tuple) => sql`(${sql.join(tuple.map((value, i) => parameter(types[i], value)))})`);
    return sql`((${sql.join(columns)}) in (values ${sql.join(rows)}))`;
  },
  unboundedLimit: sql`limit -1`,
});

/** SQLite's data-modifying statement forms. */
export const SQLITE_WRITES: SqlWriteForms = Object.freeze<SqlWriteForms>({
  // No data-modifying statement in a WITH: the row comes back as the statement's own RETURNING list, or by its key (returning.ts).
  writableCte: false,
  // SQLite takes no ON CONFLICT after DEFAULT VALUES; a rowid key given by SQLite is never taken.
  insertDefaults: (table, _keyColumns, returning) => sql`insert into ${table} default values ${returning}`,
  // SQLite's RETURNING takes no qualified wildcard (`"u".*`).
  returningAll: () => sql`*`,
  // SQLite takes no alias for a view in UPDATE and DELETE (its columns are then unknown): the table's own name, always.
  writeTarget: (table, name) => ({ clause: table, qualifier: name }),
  // SQLite counts no row an INSTEAD OF trigger changes (changes() is 0), but returns each row the statement matched.
  countedRows: sql`returning 1`,
  // One writer at a time: the transaction's lock keeps every row read.
  keyShareLock: sql``,
  // json_patch (RFC 7396) removes a member set to null, where MERGE keeps it as null.
  jsonMerge: (current, patch) => sql`json_patch(coalesce(${current}, '{}'), ${patch})`,
});

function noRowVersion(): never {
  throw new TypeError("SQLite has no row version: a set mapped with etag: 'xmin' needs PostgreSQL (map a version column instead).");
}

/** SQLite's concurrency tokens; no row version (PostgreSQL's xmin): SqlProvider refuses a mapping with `etag: 'xmin'` first. */
export const SQLITE_TOKENS: SqlTokenForms = Object.freeze<SqlTokenForms>({
  rowVersion: noRowVersion,
  writtenRowVersion: noRowVersion,
  instantToken(_type, current) {
    // The statement's clock at milliseconds (fixed-width text), strictly after the previous token.
    const clock = sql`strftime('%Y-%m-%d %H:%M:%f', 'now')`;
    return current === undefined
      ? clock
      : sql`(case when ${current} is null or ${clock} > substr(${current}, 1, 23) then ${clock} else strftime('%Y-%m-%d %H:%M:%f', substr(${current}, 1, 23), '+0.001 seconds') end)`;
  },
});
