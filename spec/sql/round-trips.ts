/**
 * EDM values through PostgreSQL and back: written as bind parameters of the dialect's column
 * types (the DDL `createSchema` will write), read through the drivers' type parsers, converted by
 * fromSqlValue; each value must come back as it went in (in its canonical JS form). Run with the
 * process in America/New_York and the session in Asia/Kathmandu (+05:45): neither may matter.
 * Shared by the PGlite spec and the real-server spec.
 */
import { sql } from 'kysely';
import type { EdmPrimitiveTypeName, PrimitiveValue } from '../../lib/edm/primitives';
import type { SqlDatabase } from '../../lib/sql/database';
import { SQLSTATE, sqlStateOf } from '../../lib/sql/errors';
import { fromSqlValue } from '../../lib/sql/postgres/values';

const date = (text: string): Date => new Date(text);

/** Per type: values that must come back unchanged. */
const ROUND_TRIPS: readonly (readonly [EdmPrimitiveTypeName, readonly PrimitiveValue[]])[] = [
  ['Edm.Binary', [new Uint8Array([]), new Uint8Array([0, 255, 92, 39]), new Uint8Array(Array.from({ length: 1000 }, (_, i) => (i * 37) % 256))]],
  ['Edm.Boolean', [true, false]],
  ['Edm.Byte', [0, 255]],
  ['Edm.SByte', [-128, 127]],
  ['Edm.Int16', [-32768, 32767]],
  ['Edm.Int32', [-2147483648, 2147483647, 0]],
  ['Edm.Int64', ['-9223372036854775808', '9223372036854775807', '9007199254740993', '0']],
  ['Edm.Decimal', ['0', '-0.000000000000000001', '12345678901234567890.123456789012345678', '0.00001', '-42']],
  // A Single is read as the double of its shortest text (as .NET writes a float): 0.1, not 0.100000001490116.
  ['Edm.Single', [0.1, 1.5, -3.4028235e38, 1e-45, NaN, Infinity, -Infinity, -0]],
  ['Edm.Double', [0.1, -0, 5e-324, 1.7976931348623157e308, NaN, Infinity, -Infinity, 123.456, 9007199254740992]],
  ['Edm.DateTime', [date('0001-01-01T00:00:00Z'), date('9999-12-31T23:59:59.999Z'), date('2020-02-29T12:34:56.789Z'), date('1969-12-31T23:59:59.999Z')]],
  ['Edm.DateTimeOffset', [date('0001-01-01T00:00:00Z'), date('9999-12-31T23:59:59.999Z'), date('2020-03-29T01:30:00.5Z'), date('1969-12-31T23:59:59.999Z')]],
  // A time of day (its column is time(3)): from midnight to the last millisecond of the day.
  ['Edm.Time', ['PT0S', 'PT13H20M', 'PT0.5S', 'PT23H59M59.999S', 'PT9H5M7.01S']],
  ['Edm.Guid', ['01234567-89ab-cdef-0123-456789abcdef', '00000000-0000-0000-0000-000000000000']],
  ['Edm.String', ['', 'a', "O'Neil", '😀 a😀b', 'ß ẞ İ Σ', '\u00a0\t\n', 'x'.repeat(100_000), 'e\u0301']],
];

/** Reads of stored text that a Date or a duration cannot hold: what is kept and what is dropped. */
const STORED_READS: readonly (readonly [string, EdmPrimitiveTypeName, string, PrimitiveValue])[] = [
  // Microseconds: digits 4-6 are dropped, toward the past (as date_trunc('milliseconds')).
  ['timestamp', 'Edm.DateTime', '2020-01-01 00:00:00.123456', date('2020-01-01T00:00:00.123Z')],
  ['timestamp', 'Edm.DateTime', '1969-12-31 23:59:59.999999', date('1969-12-31T23:59:59.999Z')],
  ['timestamptz', 'Edm.DateTimeOffset', '2020-01-01 05:45:00.123456+05:45', date('2020-01-01T00:00:00.123Z')],
  ['timestamptz', 'Edm.DateTimeOffset', '2020-06-01 00:00:00-03:30', date('2020-06-01T03:30:00Z')],
  // Intervals: toward zero; a month is 30 days (PostgreSQL's interval comparison).
  ['interval', 'Edm.Time', '1 day 02:03:04.567891', 'P1DT2H3M4.567S'],
  ['interval', 'Edm.Time', '-00:00:01.0005', '-PT1S'],
  ['interval', 'Edm.Time', '1 mon -1 days', 'P29D'],
  ['numeric', 'Edm.Decimal', '1.50000', '1.5'],
  ['uuid', 'Edm.Guid', 'ABCDEF01-2345-6789-ABCD-EF0123456789', 'abcdef01-2345-6789-abcd-ef0123456789'],
];

/** The round-trip specs over `database()` (the caller opens and closes it). */
export function describeRoundTrips(database: () => SqlDatabase): void {
  describe('EDM values through the dialect’s column types and back', () => {
    it.each(ROUND_TRIPS.map(([type, values]) => [type, values] as const))('%s', async (type, values) => {
      const db = database();
      // A plain table (a pool may run each statement on another connection: no temporary tables).
      const table = sql.id(`round_trip_${type.slice(4).toLowerCase()}`);
      const column = db.sqlEngine.ddl.columnType(type, type === 'Edm.Decimal' ? {} : { precision: 3 });
      await sql`create table ${table} (n integer, v ${sql.raw(column)})`.execute(db.kysely);
      try {
        for (const [i, value] of values.entries())
          await sql`insert into ${table} values (${sql.val(i)}, ${db.sqlEngine.values.parameter(type, value)})`.execute(db.kysely);
        const rows = await sql<{ v: unknown }>`select v from ${table} order by n`.execute(db.kysely);
        const read = rows.rows.map((row) => fromSqlValue(type, row.v));
        // Bytes come back as a Buffer (a Uint8Array): compare the bytes.
        const comparable = (list: readonly (PrimitiveValue | null)[]): unknown[] => list.map((value) => (value instanceof Uint8Array ? [...value] : value));
        expect(comparable(read)).toEqual(comparable(values));
        // toEqual does not tell 0 from -0.
        read.forEach((value, i) => expect(Object.is(value, values[i]) || typeof value !== 'number').toBe(true));
      } finally {
        await sql`drop table ${table}`.execute(db.kysely);
      }
    });

    it.each([
      [16777217, 16777216],
      [-3.4028234663852886e38, -3.4028235e38],
      [0.10000000149011612, 0.1],
    ])('stores the Edm.Single %p in single precision and reads it back as %p (its shortest form)', async (written, read) => {
      const result = await sql<{ v: unknown }>`select ${database().sqlEngine.values.parameter('Edm.Single', written)} as v`.execute(database().kysely);
      expect(fromSqlValue('Edm.Single', result.rows[0].v)).toBe(read);
    });

    it.each(STORED_READS.map((row) => [...row] as const))('%s %j reads as the %s %j', async (sqlType, type, text, expected) => {
      const result = await sql<{ v: unknown }>`select ${sql.val(text)}::${sql.raw(sqlType)} as v`.execute(database().kysely);
      expect(fromSqlValue(type, result.rows[0].v)).toEqual(expected);
    });

    it('reads intervals in IntervalStyle iso_8601 and bytea in the escape output format too', async () => {
      const db = database();
      await db.kysely.transaction().execute(async (trx) => {
        await sql`set local intervalstyle = 'iso_8601'`.execute(trx);
        await sql`set local bytea_output = 'escape'`.execute(trx);
        const result = await sql<{ i: unknown; b: unknown }>`select interval '-1 day 02:03:04.5' as i, ${Buffer.from([0, 92, 39, 200])}::bytea as b`.execute(
          trx,
        );
        expect(fromSqlValue('Edm.Time', result.rows[0].i)).toBe('-PT21H56M55.5S');
        expect(fromSqlValue('Edm.Binary', result.rows[0].b)).toEqual(Buffer.from([0, 92, 39, 200]));
      });
    });

    it.each([
      ['P1DT2H', '22008'],
      ['PT24H0.001S', '22008'],
      ['-PT1M', '22007'],
    ])('refuses the Edm.Time %s, which is no time of day, instead of wrapping it into one (SQLSTATE %s)', async (value, state) => {
      const db = database();
      const error = await sql`select ${db.sqlEngine.values.parameter('Edm.Time', value)} as v`.execute(db.kysely).catch((caught: unknown) => caught);
      expect(sqlStateOf(error)).toBe(state);
    });

    it('keeps Byte and SByte in range with the column CHECK the dialect writes', async () => {
      const db = database();
      const check = db.sqlEngine.ddl.columnCheck('Edm.Byte', '"b"');
      await sql.raw(`create table bytes ("b" ${db.sqlEngine.ddl.columnType('Edm.Byte')} check (${check ?? 'true'}))`).execute(db.kysely);
      try {
        await expect(sql`insert into bytes values (256)`.execute(db.kysely)).rejects.toHaveProperty('code', SQLSTATE.checkViolation);
        const error = await sql`insert into bytes values (-1)`.execute(db.kysely).catch((caught: unknown) => caught);
        expect(sqlStateOf(error)).toBe(SQLSTATE.checkViolation);
      } finally {
        await sql`drop table bytes`.execute(db.kysely);
      }
    });
  });
}
