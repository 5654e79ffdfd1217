/**
 * Date/time columns of another SQL type than their EDM type's own, as PostgreSQL's read forms read
 * and compares them (its `storedValue` for the mapping's `columnTypes`): a column of the type's own
 * kind with other digits (`timestamp(6)`, a `date` for an Edm.DateTime) as it is, so its index
 * serves filters and keyset paging, and an `interval` as its ISO 8601 duration text.
 */
import { sql } from 'kysely';
import type { EdmPrimitiveTypeName } from '../../edm/primitives';
import type { Sql } from '../dialect';
import { storedTemporal, type StoredTemporalKind } from '../mapping/stored-types';

/** The EDM type whose own column holds each date/time kind as it is (no conversion to read or compare it). */
const TEMPORAL_TYPES: Readonly<Record<StoredTemporalKind, EdmPrimitiveTypeName | undefined>> = {
  date: 'Edm.DateTime',
  time: 'Edm.Time',
  timestamp: 'Edm.DateTime',
  timestamptz: 'Edm.DateTimeOffset',
  interval: undefined,
};

/** A decimal's text without trailing fractional zeros (group 1 keeps the digits that stay); E'' whatever standard_conforming_strings says. */
const TRAILING_ZEROS = sql.raw(String.raw`E'\\.0*$|(\\.[0-9]*[1-9])0+$'`);
const FIRST_GROUP = sql.raw(String.raw`E'\\1'`);

/**
 * An interval as its ISO 8601 duration (`P1Y2M3DT4H5M6.5S`, `PT0S`; a field may carry its own
 * sign, as PostgreSQL's own iso_8601 output): the same text whatever the session's IntervalStyle,
 * and one PostgreSQL reads back as the same interval.
 */
function isoInterval(value: Sql): Sql {
  const field = (name: string): Sql => sql`extract(${sql.raw(name)} from ${value})`;
  const part = (name: string, unit: string): Sql => sql`case when ${field(name)} <> 0 then cast(${field(name)} as text) || ${sql.lit(unit)} else '' end`;
  // Seconds are numeric(…, 6): trailing zeros and a bare point go (6.500000 -> 6.5, 6.000000 -> 6).
  const seconds = sql`case when ${field('second')} <> 0 then regexp_replace(cast(${field('second')} as text), ${TRAILING_ZEROS}, ${FIRST_GROUP}) || 'S' else '' end`;
  const time = sql`${part('hour', 'H')} || ${part('minute', 'M')} || ${seconds}`;
  const date = sql`${part('year', 'Y')} || ${part('month', 'M')} || ${part('day', 'D')}`;
  return sql`(case when ${value} is null then null else coalesce(nullif('P' || ${date} || coalesce('T' || nullif(${time}, ''), ''), 'P'), 'PT0S') end)`;
}

/** A column stored as `storedType` read or compared as a value of `type`, when it is a date/time column this module knows; else undefined. */
export function storedTemporalValue(column: Sql, storedType: string, type: EdmPrimitiveTypeName): Sql | undefined {
  const temporal = storedTemporal(storedType);
  if (temporal === undefined) return undefined;
  if (TEMPORAL_TYPES[temporal.kind] === type) return column;
  return temporal.kind === 'interval' && type === 'Edm.String' ? isoInterval(column) : undefined;
}
