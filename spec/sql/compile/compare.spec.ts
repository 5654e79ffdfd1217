/**
 * Comparisons as SQL text and parameters: the evaluator's null semantics (null equals only null,
 * ordering with null is false, comparisons two-valued under `not`), the lane each pair of types
 * meets in (integers across widths bare, NaN-aware doubles, singles as their doubles, ordinal
 * strings), and timestamps stored with microseconds compared at the evaluator's milliseconds,
 * except with a keyset bound finer than that (a PreciseInstant), which compares the full value.
 * The differential spec proves the semantics on PostgreSQL; this one pins the SQL.
 */
import { preciseInstant } from '../../../lib/edm/precise-instant';
import { compileFilterSql } from '../../../lib/sql/compile/compile';
import { transformExpression } from '../../../lib/uri/expr';
import { compiled, filterSql, itemFilter, itemsContext } from '../support';

describe('null semantics (MS-ODATA §2.2.3.6.1.1.1 as WCF ran them)', () => {
  it.each([
    // A non-null literal: the bare comparison (NULL is as good as false under WHERE).
    ['Int32 eq 5', '("t"."Int32" = $1::integer)', ['5']],
    ['Int32 lt 5', '("t"."Int32" < $1::integer)', ['5']],
    // ne is true for a null column: SQL's <> is unknown there.
    ['Int32 ne 5', '(("t"."Int32" <> $1::integer) or "t"."Int32" is null)', ['5']],
    // The key is not nullable: no null test.
    ['ID ne 3', '("t"."ID" <> $1::integer)', ['3']],
    ['Int32 eq null', '("t"."Int32" is null)', []],
    ['null eq Int32', '("t"."Int32" is null)', []],
    ['Int32 ne null', '("t"."Int32" is not null)', []],
    ['Int32 gt null', 'false', []],
    ['null ge Int32', 'false', []],
    ['null eq null', 'true', []],
    ['null ne null', 'false', []],
    // Two nullable operands: null eq null is true, null ne (not null) is true.
    ['Int32 eq Int16', '(("t"."Int32" = "t"."Int16") or ("t"."Int32" is null and "t"."Int16" is null))', []],
    ['Int32 ne Int16', '(("t"."Int32" <> "t"."Int16") or (("t"."Int32" is null) <> ("t"."Int16" is null)))', []],
    ['Int32 gt Int16', '("t"."Int32" > "t"."Int16")', []],
    // Under not, a comparison must be false (not unknown) for a null operand.
    ['not (Int32 gt 5)', '(not coalesce(("t"."Int32" > $1::integer), false))', ['5']],
    ['not (ID gt 5)', '(not ("t"."ID" > $1::integer))', ['5']],
    ['not (Int32 eq Int16)', '(not coalesce((("t"."Int32" = "t"."Int16") or ("t"."Int32" is null and "t"."Int16" is null)), false))', []],
    // Arithmetic with null is null: compared, it is false except with eq null.
    ['Int32 add null eq 1', '(null::integer = $1::integer)', ['1']],
    ['Owner eq null', '("o"."ID" is null)', []],
    ['Owner ne null', '("o"."ID" is not null)', []],
  ])('%s', (filter, sql, parameters) => {
    expect(filterSql(filter)).toEqual([sql, parameters]);
  });
});

describe('three-valued and, or, not', () => {
  it.each([
    ['Boolean', '"t"."Boolean"', []],
    ['not Boolean', '(not "t"."Boolean")', []],
    ['Boolean eq true', '("t"."Boolean" = $1::boolean)', [true]],
    [
      'Boolean and Int32 gt 1 or not (Int32 lt 0)',
      '(("t"."Boolean" and ("t"."Int32" > $1::integer)) or (not coalesce(("t"."Int32" < $2::integer), false)))',
      ['1', '0'],
    ],
    // A boolean null literal: false under WHERE, a typed NULL where the value matters.
    ['null and Boolean', '(false and "t"."Boolean")', []],
    ['not (null and Boolean)', '(not (null::boolean and "t"."Boolean"))', []],
    ['true or false', '(true or false)', []],
  ])('%s', (filter, sql, parameters) => {
    expect(filterSql(filter)).toEqual([sql, parameters]);
  });
});

describe('operand types meet in the promoted lane', () => {
  it.each([
    // Integers of any width compare exactly as they are (and keep their indexes).
    ['Int32 eq 9007199254740993L', '("t"."Int32" = $1::bigint)', ['9007199254740993']],
    ['Int64 eq 9007199254740993L', '("t"."Int64" = $1::bigint)', ['9007199254740993']],
    ['Byte lt Int16', '("t"."Byte" < "t"."Int16")', []],
    // Decimal: exact numeric, the literal as its text (`20.5` met by a Decimal is read exactly).
    ['Decimal gt 12345678901234567.123456789M', '("t"."Decimal" > $1::numeric)', ['12345678901234567.123456789']],
    ['Decimal gt 20.5', '("t"."Decimal" > $1::numeric)', ['20.5']],
    ['Int32 lt 2.5M', '(cast("t"."Int32" as numeric) < $1::numeric)', ['2.5']],
    // Doubles: NaN compares with nothing (PostgreSQL: NaN = NaN, NaN above every number).
    ['Int32 lt 2.5', '(cast("t"."Int32" as double precision) < $1::double precision)', ['2.5']],
    ['Double lt 1.5', '("t"."Double" < $1::double precision)', ['1.5']],
    ['Double gt 1.5', '("t"."Double" > $1::double precision and "t"."Double" <> \'NaN\')', ['1.5']],
    ['1.5 lt Double', '($1::double precision < "t"."Double" and "t"."Double" <> \'NaN\')', ['1.5']],
    ['Double ne 1.5', '(("t"."Double" <> $1::double precision) or "t"."Double" is null)', ['1.5']],
    ['Double eq NaN', '("t"."Double" = $1::double precision and "t"."Double" <> \'NaN\')', ['NaN']],
    [
      'Double ne Address/Geo/Lat',
      '(("t"."Double" <> "t"."Address_Geo_Lat" or "t"."Double" = \'NaN\') or (("t"."Double" is null) <> ("t"."Address_Geo_Lat" is null)))',
      [],
    ],
    ['Double le Address/Geo/Lat', '("t"."Double" <= "t"."Address_Geo_Lat" and "t"."Address_Geo_Lat" <> \'NaN\')', []],
    // Single: a stored real is the double of its shortest text, as the evaluator reads it back;
    // two reals order as they are.
    ['Single eq 1.5f', '(cast(cast("t"."Single" as text) as double precision) = $1::double precision)', ['1.5']],
    ['Single lt Single', '("t"."Single" < "t"."Single" and "t"."Single" <> \'NaN\')', []],
    [
      'Single gt Double',
      '(cast(cast("t"."Single" as text) as double precision) > "t"."Double" and cast(cast("t"."Single" as text) as double precision) <> \'NaN\')',
      [],
    ],
    // Strings: equality is bytewise under any deterministic collation; ordering is forced ordinal.
    ["String eq 'O''Neil'", '("t"."String" = $1::text)', ["O'Neil"]],
    ["String lt 'b'", '("t"."String" collate "C" < $1::text collate "C")', ['b']],
    ['String ge Address/City', '("t"."String" collate "C" >= "t"."Address_City" collate "C")', []],
    ["Guid eq guid'01234567-89AB-cdef-0123-456789abcdef'", '("t"."Guid" = $1::uuid)', ['01234567-89ab-cdef-0123-456789abcdef']],
    ["Binary eq X'00FF'", '("t"."Binary" = $1::bytea)', [Buffer.from([0, 255])]],
  ])('%s', (filter, sql, parameters) => {
    expect(filterSql(filter)).toEqual([sql, parameters]);
  });
});

describe('timestamps and intervals compare at the evaluator’s milliseconds', () => {
  // A column stored with microseconds (PostgreSQL's default): the evaluator holds its value cut
  // to the millisecond, so `eq` means "in that millisecond", written so the column stays bare.
  it.each([
    [
      "DateTime eq datetime'2020-01-01T00:00:00.123'",
      '("t"."DateTime" >= $1::timestamp and "t"."DateTime" < $2::timestamp)',
      ['2020-01-01 00:00:00.123', '2020-01-01 00:00:00.124'],
    ],
    [
      "DateTime ne datetime'2020-01-01T00:00:00.123'",
      '(("t"."DateTime" < $1::timestamp or "t"."DateTime" >= $2::timestamp) or "t"."DateTime" is null)',
      ['2020-01-01 00:00:00.123', '2020-01-01 00:00:00.124'],
    ],
    ["DateTime lt datetime'2020-01-01T00:00:00.123'", '("t"."DateTime" < $1::timestamp)', ['2020-01-01 00:00:00.123']],
    ["DateTime le datetime'2020-01-01T00:00:00.123'", '("t"."DateTime" < $1::timestamp)', ['2020-01-01 00:00:00.124']],
    ["DateTime gt datetime'2020-01-01T00:00:00.123'", '("t"."DateTime" >= $1::timestamp)', ['2020-01-01 00:00:00.124']],
    ["DateTime ge datetime'2020-01-01T00:00:00.123'", '("t"."DateTime" >= $1::timestamp)', ['2020-01-01 00:00:00.123']],
    ["datetime'2020-01-01T00:00:00.123' lt DateTime", '("t"."DateTime" >= $1::timestamp)', ['2020-01-01 00:00:00.124']],
    // The literal takes the column's type (a DateTime is UTC wall-clock time).
    [
      "DateTimeOffset eq datetimeoffset'2020-01-01T05:30:00+05:30'",
      '("t"."DateTimeOffset" >= $1::timestamptz and "t"."DateTimeOffset" < $2::timestamptz)',
      ['2020-01-01 00:00:00.000+00', '2020-01-01 00:00:00.001+00'],
    ],
    [
      "DateTime eq datetimeoffset'2020-01-01T05:30:00+05:30'",
      '("t"."DateTime" >= $1::timestamp and "t"."DateTime" < $2::timestamp)',
      ['2020-01-01 00:00:00.000', '2020-01-01 00:00:00.001'],
    ],
    ["DateTimeOffset ge datetime'2020-01-01T00:00'", '("t"."DateTimeOffset" >= $1::timestamptz)', ['2020-01-01 00:00:00.000+00']],
    // Two columns, or a computed value: both sides cut to milliseconds; DateTime as an instant at UTC.
    [
      'DateTime lt DateTimeOffset',
      '(date_trunc(\'milliseconds\', ("t"."DateTime" at time zone \'UTC\')) < date_trunc(\'milliseconds\', "t"."DateTimeOffset"))',
      [],
    ],
    ["Time lt time'PT1H30M'", '(date_trunc(\'milliseconds\', "t"."Time") < $1::interval)', ['1:30:00.000']],
  ])('%s (microsecond columns)', (filter, sql, parameters) => {
    expect(filterSql(filter)).toEqual([sql, parameters]);
  });

  it.each([
    ["DateTime eq datetime'2020-01-01T00:00:00.123'", '("t"."DateTime" = $1::timestamp)', ['2020-01-01 00:00:00.123']],
    ['DateTime lt DateTimeOffset', '(("t"."DateTime" at time zone \'UTC\') < "t"."DateTimeOffset")', []],
    ["Time lt time'PT1H30M'", '("t"."Time" < $1::interval)', ['1:30:00.000']],
  ])('%s (millisecond columns: compared as stored)', (filter, sql, parameters) => {
    expect(filterSql(filter, { precision: 3 })).toEqual([sql, parameters]);
  });
});

describe('a keyset bound finer than milliseconds compares by the full stored value', () => {
  /** `filter` with its one date/time literal replaced by a PreciseInstant of the same millisecond and `digits`. */
  function preciseSql(filter: string, digits: string, options: { precision?: number } = {}): [string, unknown[]] {
    const node = transformExpression(itemFilter(filter), (child) =>
      child.kind === 'Literal' && child.value instanceof Date ? { ...child, value: preciseInstant(child.value, digits), text: undefined } : child,
    );
    const { sql, parameters } = compiled(compileFilterSql(node, itemsContext(options)));
    return [sql.replace(/\s+/g, ' '), [...parameters]];
  }

  it.each([
    // The column stays bare (an index serves the seek), and the parameter carries every digit.
    ["DateTime gt datetime'2020-01-01T00:00:00.123'", '456', '("t"."DateTime" > $1::timestamp)', ['2020-01-01 00:00:00.123456']],
    ["DateTime eq datetime'2020-01-01T00:00:00.123'", '000', '("t"."DateTime" = $1::timestamp)', ['2020-01-01 00:00:00.123000']],
    ["DateTime lt datetime'2020-01-01T00:00:00.123'", '4567', '("t"."DateTime" < $1::timestamp)', ['2020-01-01 00:00:00.1234567']],
    ["DateTimeOffset ge datetimeoffset'2020-01-01T05:30:00.5+05:30'", '25', '("t"."DateTimeOffset" >= $1::timestamptz)', ['2020-01-01 00:00:00.500250+00']],
    // Through a conversion (DateTime as an instant) nothing is cut to milliseconds either.
    [
      "cast(DateTime, 'Edm.DateTimeOffset') gt datetimeoffset'2020-01-01T00:00:00.123Z'",
      '456',
      '(("t"."DateTime" at time zone \'UTC\') > $1::timestamptz)',
      ['2020-01-01 00:00:00.123456+00'],
    ],
  ])('%s with the digits %s after the millisecond', (filter, digits, sql, parameters) => {
    expect(preciseSql(filter, digits)).toEqual([sql, parameters]);
    // Whatever precision the resolver says the column keeps.
    expect(preciseSql(filter, digits, { precision: 3 })).toEqual([sql, parameters]);
  });
});
