/**
 * Built-in functions, arithmetic and casts as SQL text and parameters, each with the evaluator's
 * semantics: UTF-16 positions and lengths, LIKE patterns escaped from literals, full Unicode case
 * mapping, date parts in UTC, rounding midpoints away from zero, .NET integer wrap-around and
 * truncating division, exact decimals with 28 fractional digits in division, IEEE doubles,
 * single-precision rounding, and casts that give null out of range. The differential spec proves
 * the results on PostgreSQL; this one pins the SQL.
 */
import { createPostgresEngine } from '../../../lib/sql/postgres/engine';
import { UntranslatableExpressionError } from '../../../lib/sql/errors';
import { filterSql } from '../support';

const check = (filter: string, sql: string, parameters: unknown[]): void => {
  expect(filterSql(filter)).toEqual([sql, parameters]);
};

describe('string functions', () => {
  it.each([
    // Searches without wildcards: LIKE with `\\`, `%` and `_` escaped in a literal (a trigram index
    // can serve it), strpos and starts_with for a column.
    [`substringof('a%_\\', String)`, `("t"."String" like $1::text escape E'\\\\')`, ['%a\\%\\_\\\\%']],
    ['substringof(Address/City, String)', '(strpos("t"."String", "t"."Address_City") > 0)', []],
    [`substringof('milk', tolower(String))`, `((lower("t"."String" collate "und-x-icu") collate "C") like $1::text escape E'\\\\')`, ['%milk%']],
    [`startswith(String, 'a%_\\')`, `("t"."String" like $1::text escape E'\\\\')`, ['a\\%\\_\\\\%']],
    ['startswith(String, Address/City)', 'starts_with("t"."String", "t"."Address_City")', []],
    [`endswith(String, '_x')`, `("t"."String" like $1::text escape E'\\\\')`, ['%\\_x']],
    ['endswith(String, Address/City)', '(right("t"."String", char_length("t"."Address_City")) = "t"."Address_City")', []],
    // UTF-16 code units: each supplementary character is counted twice (doubled, then counted).
    ['length(String) eq 3', `(char_length(regexp_replace("t"."String", E'([\\\\U00010000-\\\\U0010FFFF])', E'\\\\1\\\\1', 'g')) = $1::integer)`, ['3']],
    [
      `indexof(String, 'b') eq 1`,
      `((case strpos("t"."String", $1::text) when 0 then -1 else char_length(regexp_replace(left("t"."String", strpos("t"."String", $2::text) - 1), E'([\\\\U00010000-\\\\U0010FFFF])', E'\\\\1\\\\1', 'g')) end) = $3::integer)`,
      ['b', 'b', '1'],
    ],
    [`replace(String, 'a', 'b') eq 'bb'`, '(replace("t"."String", $1::text, $2::text) = $3::text)', ['a', 'b', 'bb']],
    // UTF-16 offsets: a supplementary character is followed by U+FFFD, cut, then joined again.
    [
      `substring(String, 1) eq 'b'`,
      `(regexp_replace(regexp_replace(substr(regexp_replace("t"."String", E'([\\\\U00010000-\\\\U0010FFFF])', E'\\\\1\\uFFFD', 'g'), case when $1::integer < 0 then 1 when $2::integer > 1073741824 then 1073741825 else $3::integer + 1 end), E'[\\\\U00010000-\\\\U0010FFFF]$', E'\\uFFFD'), E'([\\\\U00010000-\\\\U0010FFFF])\\\\uFFFD', E'\\\\1', 'g') = $4::text)`,
      ['1', '1', '1', 'b'],
    ],
    [
      `substring(String, 1, 2) eq 'b'`,
      `(regexp_replace(regexp_replace(substr(regexp_replace("t"."String", E'([\\\\U00010000-\\\\U0010FFFF])', E'\\\\1\\uFFFD', 'g'), case when $1::integer < 0 then 1 when $2::integer > 1073741824 then 1073741825 else $3::integer + 1 end, case when $4::integer < 0 then 0 else $5::integer end), E'[\\\\U00010000-\\\\U0010FFFF]$', E'\\uFFFD'), E'([\\\\U00010000-\\\\U0010FFFF])\\\\uFFFD', E'\\\\1', 'g') = $6::text)`,
      ['1', '1', '1', '2', '2', 'b'],
    ],
    // Full Unicode case mapping under ICU's root locale, read as "C" again.
    [`tolower(String) eq 'ss'`, '((lower("t"."String" collate "und-x-icu") collate "C") = $1::text)', ['ss']],
    [`toupper(String) eq 'SS'`, '((upper("t"."String" collate "und-x-icu") collate "C") = $1::text)', ['SS']],
    // JavaScript's whitespace set, not just spaces.
    [
      `trim(String) eq 'x'`,
      `(btrim("t"."String", E'\\u0009\\u000a\\u000b\\u000c\\u000d\\u0020\\u00a0\\u1680\\u2000\\u2001\\u2002\\u2003\\u2004\\u2005\\u2006\\u2007\\u2008\\u2009\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff') = $1::text)`,
      ['x'],
    ],
    [`concat(String, 'x') eq 'yx'`, '(("t"."String" || $1::text) = $2::text)', ['x', 'yx']],
    // A null argument: the typed NULL of the result, without asking the database.
    ['substringof(null, String)', 'null::boolean', []],
  ])('%s', check);

  it('leaves tolower/toupper to the evaluator when the server has no ICU collation', () => {
    const dialect = createPostgresEngine({ caseMappingCollation: null }).expressions;
    expect(() => filterSql("tolower(String) eq 'a'", { dialect })).toThrow(UntranslatableExpressionError);
  });

  it("translates them for SAP's search with lower() and upper() under the database's default collation when it has no ICU collation", () => {
    const dialect = createPostgresEngine({ caseMappingCollation: null }).expressions;
    expect(filterSql(`substringof('milk', tolower(String))`, { dialect, approximateCase: true })).toEqual([
      `(lower("t"."String" collate "default") like $1::text escape E'\\\\')`,
      ['%milk%'],
    ]);
    expect(filterSql(`toupper(String) eq 'A'`, { dialect, approximateCase: true })).toEqual(['(upper("t"."String" collate "default") = $1::text)', ['A']]);
    // With ICU the mapping stays the exact one.
    expect(filterSql(`tolower(String) eq 'a'`, { approximateCase: true })).toEqual([
      '((lower("t"."String" collate "und-x-icu") collate "C") = $1::text)',
      ['a'],
    ]);
  });
});

describe('date functions (UTC; of an Edm.Time, the duration)', () => {
  it.each([
    ['year(DateTime) eq 2020', '(cast(extract(year from "t"."DateTime") as integer) = $1::integer)', ['2020']],
    ['month(DateTimeOffset) eq 1', `(cast(extract(month from ("t"."DateTimeOffset" at time zone 'UTC')) as integer) = $1::integer)`, ['1']],
    ['second(DateTime) eq 5', '(cast(trunc(extract(second from "t"."DateTime")) as integer) = $1::integer)', ['5']],
    ['hour(Time) eq 2', '(cast(mod(div(extract(epoch from "t"."Time"), 3600), 24) as integer) = $1::integer)', ['2']],
    ['minute(Time) eq 2', '(cast(mod(div(extract(epoch from "t"."Time"), 60), 60) as integer) = $1::integer)', ['2']],
    ['second(Time) eq 2', '(cast(mod(trunc(extract(epoch from "t"."Time")), 60) as integer) = $1::integer)', ['2']],
  ])('%s', check);
});

describe('round, floor, ceiling (Decimal and Double overloads)', () => {
  it.each([
    ['round(Decimal) eq 2', '(round("t"."Decimal") = cast($1::integer as numeric))', ['2']],
    ['floor(Decimal) eq 2', '(floor("t"."Decimal") = cast($1::integer as numeric))', ['2']],
    ['ceiling(Int32) eq 2', '(ceil(cast("t"."Int32" as numeric)) = cast($1::integer as numeric))', ['2']],
    // Doubles: Math.round's midpoints away from zero (PostgreSQL's round(float8) goes to even).
    [
      'round(Double) eq 2',
      '((case when "t"."Double" < 0 then -(case when (-"t"."Double") - floor((-"t"."Double")) >= 0.5 then floor((-"t"."Double")) + 1 else floor((-"t"."Double")) end) else case when "t"."Double" - floor("t"."Double") >= 0.5 then floor("t"."Double") + 1 else floor("t"."Double") end end) = cast($1::integer as double precision))',
      ['2'],
    ],
    ['floor(Single) eq 2', '(floor(cast(cast("t"."Single" as text) as double precision)) = cast($1::integer as double precision))', ['2']],
    ['ceiling(Double) eq 2', '(ceil("t"."Double") = cast($1::integer as double precision))', ['2']],
  ])('%s', check);
});

describe('arithmetic in the promoted type', () => {
  it('leaves mod on doubles to the evaluator (no exact fmod in SQL)', () => {
    expect(() => filterSql('Double mod 2.0 eq 1.0')).toThrow(UntranslatableExpressionError);
    expect(() => filterSql('Single mod 2f eq 1f')).toThrow(UntranslatableExpressionError);
  });

  it.each([
    // Int32 and the small integers: exact in bigint, then wrapped to 32 bits (.NET unchecked).
    [
      'Int32 add 1 eq 2',
      '(cast(((cast("t"."Int32" as bigint) + cast($1::integer as bigint)) + 2147483648 & 4294967295) - 2147483648 as integer) = $2::integer)',
      ['1', '2'],
    ],
    [
      'Int16 sub Byte eq 2',
      '(cast(((cast("t"."Int16" as bigint) - cast("t"."Byte" as bigint)) + 2147483648 & 4294967295) - 2147483648 as integer) = $1::integer)',
      ['2'],
    ],
    [
      'Int32 mul Int32 eq 2',
      '(cast(((cast("t"."Int32" as bigint) * cast("t"."Int32" as bigint)) + 2147483648 & 4294967295) - 2147483648 as integer) = $1::integer)',
      ['2'],
    ],
    [
      'Int32 div 2 eq 2',
      '(cast(((cast("t"."Int32" as bigint) / cast($1::integer as bigint)) + 2147483648 & 4294967295) - 2147483648 as integer) = $2::integer)',
      ['2', '2'],
    ],
    ['Int32 mod 2 eq 1', '((cast("t"."Int32" as integer) % cast($1::integer as integer)) = $2::integer)', ['2', '1']],
    ['-Int32 eq 1', '(cast(((-cast("t"."Int32" as bigint)) + 2147483648 & 4294967295) - 2147483648 as integer) = $1::integer)', ['1']],
    // Int64: exact in numeric, wrapped to 64 bits; division truncates (div); % cannot overflow.
    [
      'Int64 add 1L eq 2L',
      '(cast(mod(mod((cast("t"."Int64" as numeric) + cast($1::bigint as numeric)) + 9223372036854775808, 18446744073709551616) + 18446744073709551616, 18446744073709551616) - 9223372036854775808 as bigint) = $2::bigint)',
      ['1', '2'],
    ],
    [
      'Int64 div 2L eq 2L',
      '(cast(mod(mod((div(cast("t"."Int64" as numeric), cast($1::bigint as numeric))) + 9223372036854775808, 18446744073709551616) + 18446744073709551616, 18446744073709551616) - 9223372036854775808 as bigint) = $2::bigint)',
      ['2', '2'],
    ],
    ['Int64 mod 2L eq 1L', '((cast("t"."Int64" as bigint) % cast($1::bigint as bigint)) = $2::bigint)', ['2', '1']],
    [
      '-Int64 eq 1L',
      '(cast(mod(mod((-cast("t"."Int64" as numeric)) + 9223372036854775808, 18446744073709551616) + 18446744073709551616, 18446744073709551616) - 9223372036854775808 as bigint) = $1::bigint)',
      ['1'],
    ],
    // Decimal: exact; division to 28 fractional digits, the last rounded half away from zero.
    ['Decimal add 1M eq 2M', '(("t"."Decimal" + $1::numeric) = $2::numeric)', ['1', '2']],
    [
      'Decimal div 3M eq 2M',
      '((sign("t"."Decimal") * sign($1::numeric) * div(2 * abs("t"."Decimal") * 1e28 + abs($2::numeric), 2 * abs($3::numeric)) * 1e-28) = $4::numeric)',
      ['3', '3', '3', '2'],
    ],
    ['Decimal mod 3M eq 1M', '(("t"."Decimal" % $1::numeric) = $2::numeric)', ['3', '1']],
    // IEEE division where PostgreSQL raises division_by_zero (x/±0 = ±INF, 0/0 = NaN).
    ['Double add 1.5 eq 2.0', '(("t"."Double" + $1::double precision) = $2::double precision)', ['1.5', '2']],
    [
      'Double div 2.0 eq 1.0',
      `((case when "t"."Double" is null or $1::double precision is null then null when $2::double precision <> 0 then "t"."Double" / $3::double precision when "t"."Double" = 0 or "t"."Double" = 'NaN' then 'NaN'::double precision when ("t"."Double" > 0) = (cast($4::double precision as text) <> '-0') then 'Infinity'::double precision else '-Infinity'::double precision end) = $5::double precision)`,
      ['2', '2', '2', '2', '1'],
    ],
    [
      'Double div Double eq 1.0',
      `((case when "t"."Double" is null or "t"."Double" is null then null when "t"."Double" <> 0 then "t"."Double" / "t"."Double" when "t"."Double" = 0 or "t"."Double" = 'NaN' then 'NaN'::double precision when ("t"."Double" > 0) = (cast("t"."Double" as text) <> '-0') then 'Infinity'::double precision else '-Infinity'::double precision end) = $1::double precision)`,
      ['1'],
    ],
    // Single: computed in double, rounded to single (±INF and ±0 where PostgreSQL's cast raises).
    [
      'Single add 1.5f eq 2f',
      `((select (case when "v1"."x0" = 'NaN' then "v1"."x0" when abs("v1"."x0") >= 3.4028235677973366e38 then case when "v1"."x0" > 0 then 'Infinity'::double precision else '-Infinity'::double precision end when abs("v1"."x0") <= 7.006492321624085e-46 then "v1"."x0" * 0 else cast(cast("v1"."x0" as real) as double precision) end) from (select (cast(cast("t"."Single" as text) as double precision) + $1::double precision) as "x0" offset 0) as "v1") = $2::double precision)`,
      ['1.5', '2'],
    ],
    ['Int32 add null eq 1', '(null::integer = $1::integer)', ['1']],
  ])('%s', check);
});

describe('cast and isof', () => {
  it.each([
    // To integers: truncated toward zero, null out of range (where .NET would overflow).
    [
      `cast(Double, 'Edm.Int32') eq 1`,
      '((select (case when "v1"."x0" >= -2147483648 and "v1"."x0" < 2147483648 then cast("v1"."x0" as integer) end) from (select trunc("t"."Double") as "x0" offset 0) as "v1") = $1::integer)',
      ['1'],
    ],
    [`cast(Int64, 'Edm.Int16') eq 1`, '((case when "t"."Int64" between -32768 and 32767 then cast("t"."Int64" as smallint) end) = $1::integer)', ['1']],
    [
      `cast(Decimal, 'Edm.Byte') eq 1`,
      '((select (case when "v1"."x0" between 0 and 255 then cast("v1"."x0" as smallint) end) from (select trunc("t"."Decimal") as "x0" offset 0) as "v1") = $1::integer)',
      ['1'],
    ],
    [`cast(Int16, 'Edm.Int64') eq 1L`, '(cast("t"."Int16" as bigint) = $1::bigint)', ['1']],
    // A double's decimal: an integral double exactly, any other from its shortest text.
    [
      `cast(Double, 'Edm.Decimal') eq 1M`,
      `((case when "t"."Double" in ('NaN', 'Infinity', '-Infinity') then null when "t"."Double" <> trunc("t"."Double") then cast(cast("t"."Double" as text) as numeric) when abs("t"."Double") < 9223372036854775808 then cast(cast("t"."Double" as bigint) as numeric) else cast(cast("t"."Double" / power(2::double precision, cast(floor(ln(abs("t"."Double")) / ln(2)) - 60 as integer)) as bigint) as numeric) * power(2::numeric, cast(floor(ln(abs("t"."Double")) / ln(2)) - 60 as integer)) end) = $1::numeric)`,
      ['1'],
    ],
    [`cast(Int32, 'Edm.Double') eq 1.0`, '(cast("t"."Int32" as double precision) = $1::double precision)', ['1']],
    [
      `cast(Decimal, 'Edm.Single') eq 1f`,
      `((select (case when "v1"."x0" = 'NaN' then "v1"."x0" when abs("v1"."x0") >= 3.4028235677973366e38 then case when "v1"."x0" > 0 then 'Infinity'::double precision else '-Infinity'::double precision end when abs("v1"."x0") <= 7.006492321624085e-46 then "v1"."x0" * 0 else cast(cast("v1"."x0" as real) as double precision) end) from (select cast("t"."Decimal" as double precision) as "x0" offset 0) as "v1") = $1::double precision)`,
      ['1'],
    ],
    [
      `cast(DateTime, 'Edm.DateTimeOffset') eq datetimeoffset'2020-01-01T00:00:00Z'`,
      `(date_trunc('milliseconds', ("t"."DateTime" at time zone 'UTC')) = $1::timestamptz)`,
      ['2020-01-01 00:00:00.000+00'],
    ],
    [`cast(null, 'Edm.Int32') eq 1`, '(null::integer = $1::integer)', ['1']],
    // isof: the resolver's type test for entities; the declared type for primitives.
    [`isof('ExprTest.SpecialItem')`, `(t."$type" in ('SpecialItem'))`, []],
    [`isof(Owner, 'ExprTest.Person')`, '(o."ID" is not null)', []],
    [`isof(Int32, 'Edm.Int32')`, '("t"."Int32" is not null)', []],
    [`isof(Int32, 'Edm.Int64')`, 'false', []],
    [`isof(null, 'Edm.Int32')`, 'false', []],
    // An entity type outside the subject's hierarchy (the checker marks it): false, and null through a cast.
    [`isof(Owner, 'ExprTest.Item')`, 'false', []],
    [`isof('ExprTest.Person')`, 'false', []],
    [`cast(Owner, 'ExprTest.Item')/Int32 eq 1`, '(null::integer = $1::integer)', ['1']],
    [`cast('ExprTest.SpecialItem')/Bonus gt 1`, `((case when (t."$type" in ('SpecialItem')) then "t"."Bonus" end) > $1::integer)`, ['1']],
  ])('%s', check);
});
