/**
 * PostgreSQL's forms of read and write statements (the engine's `reads`, `writes` and `tokens`):
 * array parameters for key lists, stored types read through casts, data-modifying statements in a
 * WITH, `for key share`, and row versions from the system column `xmin`.
 */
import { sql } from 'kysely';
import type { EdmPrimitiveTypeName, PrimitiveValue } from '../../edm/primitives';
import type { SqlReadForms, SqlTokenForms, SqlWriteForms } from '../engine';
import { COLUMN_TYPES } from './ddl';
import { expressionType } from './dialect';
import { storedTemporalValue } from './stored-temporal';
import { toSqlParameter } from './values';

/** A value as the text of an array element (the parameter's text; bytes in hex, booleans spelled out). */
function arrayElement(type: EdmPrimitiveTypeName, value: PrimitiveValue): string {
  const parameter = toSqlParameter(type, value);
  if (Buffer.isBuffer(parameter)) return parameter.toString('hex');
  return typeof parameter === 'boolean' ? String(parameter) : parameter;
}

/** PostgreSQL's read statement forms. */
export const POSTGRES_READS: SqlReadForms = Object.freeze<SqlReadForms>({
  storedValue(column, storedType, type) {
    // Anything but a date/time column (an enum, jsonb, an array, money...) is cast to the EDM type's own SQL type.
    return storedTemporalValue(column, storedType, type) ?? sql`cast(${column} as ${sql.raw(expressionType(type))})`;
  },
  inTuples(columns, types, tuples) {
    // Text arrays both drivers serialize alike, cast to the column types; bytes compare as hex.
    const arrays = types.map((type, i) => {
      const texts = tuples.map((tuple) => arrayElement(type, tuple[i]));
      return type === 'Edm.Binary' ? sql`${sql.val(texts)}::text[]` : sql`${sql.val(texts)}::text[]::${sql.raw(COLUMN_TYPES[type])}[]`;
    });
    const operands = columns.map((column, i) => (types[i] === 'Edm.Binary' ? sql`encode(${column}, 'hex')` : column));
    if (operands.length === 1) return sql`(${operands[0]} = any(${arrays[0]}))`;
    return sql`((${sql.join(operands)}) in (select * from unnest(${sql.join(arrays)})))`;
  },
});

/** PostgreSQL's data-modifying statement forms. */
export const POSTGRES_WRITES: SqlWriteForms = Object.freeze<SqlWriteForms>({
  writableCte: true,
  insertDefaults: (table, keyColumns, returning) => sql`insert into ${table} default values on conflict (${keyColumns}) do nothing ${returning}`,
  returningAll: (alias) => (alias === undefined ? sql`*` : sql`${sql.id(alias)}.*`),
  writeTarget: (table, _name, alias) => ({ clause: sql`${table} as ${sql.id(alias)}`, qualifier: alias }),
  keyShareLock: sql`for key share`,
  jsonMerge: (current, patch) => sql`coalesce(${current}, '{}'::jsonb) || ${patch}`,
});

/** PostgreSQL's concurrency tokens and row versions. */
export const POSTGRES_TOKENS: SqlTokenForms = Object.freeze<SqlTokenForms>({
  rowVersion: (alias) => sql`cast(${sql.id(alias, 'xmin')} as text)`,
  // xmin is the 32-bit transaction id; txid_current() extends it with an epoch (PostgreSQL 12+ and PGlite have both).
  writtenRowVersion: () => sql`cast(txid_current() % 4294967296 as text)`,
  instantToken(type, current) {
    // clock_timestamp(), not now(): two writes in one transaction still get different tokens.
    const clock =
      type === 'Edm.DateTime' ? sql`date_trunc('milliseconds', clock_timestamp() at time zone 'UTC')` : sql`date_trunc('milliseconds', clock_timestamp())`;
    return current === undefined ? clock : sql`greatest(${clock}, date_trunc('milliseconds', ${current}) + interval '1 millisecond')`;
  },
});
