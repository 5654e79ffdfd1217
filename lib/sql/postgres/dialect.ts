/**
 * PostgreSQL's expression dialect (the engine's `expressions`): the SQL text of casts, operators,
 * functions and ordering the filter compiler writes; each function is a few lines of SQL with the
 * reason it gives the evaluator's result.
 * Needs PostgreSQL 14 or later (numeric Infinity, extract returning numeric); PGlite 0.5 is 18.
 */
import { sql } from 'kysely';
import { integerRange, laneOf, type EdmPrimitiveTypeName } from '../../edm/primitives';
import type { ArithmeticOperator, ComparisonOperator, DatePart, NanSides, Share, Sql, SqlExpressions } from '../dialect';
import { COLUMN_TYPES, quotePostgresIdentifier } from './ddl';
import { toSqlParameter } from './values';

/**
 * The compiler's form of each type: the column type, except Edm.Single, which is the evaluator's
 * double, and Edm.Time, a duration as the evaluator compares it (a `time` column meets it by
 * PostgreSQL's implicit time -> interval cast, so its index still serves).
 */
export function expressionType(type: EdmPrimitiveTypeName): string {
  return type === 'Edm.Single' ? 'double precision' : type === 'Edm.Time' ? 'interval' : COLUMN_TYPES[type];
}

const isSmallInteger = (type: EdmPrimitiveTypeName): boolean => laneOf(type) === 'integer';
const isInteger = (type: EdmPrimitiveTypeName): boolean => integerRange(type) !== undefined;
const isFloat = (type: EdmPrimitiveTypeName): boolean => laneOf(type) === 'float';

const OPERATORS: Readonly<Record<ComparisonOperator, string>> = { eq: '=', ne: '<>', lt: '<', le: '<=', gt: '>', ge: '>=' };
const ARITHMETIC: Readonly<Record<Exclude<ArithmeticOperator, 'div' | 'mod'>, string>> = { add: '+', sub: '-', mul: '*' };

// Regular expressions over supplementary characters (one code point, two UTF-16 code units). E''
// strings, so the text means the same whatever standard_conforming_strings says.
const SUPPLEMENTARY = sql.raw(String.raw`E'([\\U00010000-\\U0010FFFF])'`);
const DOUBLED = sql.raw(String.raw`E'\\1\\1'`);
const MARKED = sql.raw(String.raw`E'\\1\uFFFD'`);
const TRAILING_HIGH_HALF = sql.raw(String.raw`E'[\\U00010000-\\U0010FFFF]$'`);
const MARKED_PAIR = sql.raw(String.raw`E'([\\U00010000-\\U0010FFFF])\\uFFFD'`);
const REPLACEMENT_CHARACTER = sql.raw(String.raw`E'\uFFFD'`);
const FIRST_GROUP = sql.raw(String.raw`E'\\1'`);

/** JavaScript's String.prototype.trim set (WhiteSpace and LineTerminator), read from the engine itself. */
const TRIM_SET = sql.raw(
  "E'" +
    Array.from({ length: 0x10000 }, (_, code) => String.fromCharCode(code))
      .filter((char) => char.trim() === '')
      .map((char) => '\\u' + char.charCodeAt(0).toString(16).padStart(4, '0'))
      .join('') +
    "'",
);

/** The LIKE pattern of a literal prefix/suffix: `\`, `%` and `_` escaped with `\`. */
function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (char) => '\\' + char);
}

function like(value: Sql, pattern: string): Sql {
  return sql`(${value} like ${sql.val(pattern)}::text escape E'\\\\')`;
}

/** Int32 wrap-around (.NET unchecked arithmetic) of a bigint that holds the exact result. */
function wrap32(exact: Sql): Sql {
  return sql`cast(((${exact}) + 2147483648 & 4294967295) - 2147483648 as integer)`;
}

/** Int64 wrap-around of a numeric that holds the exact result. */
function wrap64(exact: Sql): Sql {
  return sql`cast(mod(mod((${exact}) + 9223372036854775808, 18446744073709551616) + 18446744073709551616, 18446744073709551616) - 9223372036854775808 as bigint)`;
}

/**
 * IEEE 754 division, where PostgreSQL raises division_by_zero: x/±0 is ±Infinity by the signs
 * (the sign of a zero read from its text, '-0'), 0/0 and NaN/0 are NaN.
 */
function floatDivision(left: Sql, right: Sql, share: Share): Sql {
  return share(
    [left, right],
    ([a, b]) => sql`(case when ${a} is null or ${b} is null then null
    when ${b} <> 0 then ${a} / ${b}
    when ${a} = 0 or ${a} = 'NaN' then 'NaN'::double precision
    when (${a} > 0) = (cast(${b} as text) <> '-0') then 'Infinity'::double precision
    else '-Infinity'::double precision end)`,
  );
}

/**
 * A double rounded to single precision and back (Math.fround): beyond the largest single (from
 * the midpoint to infinity on) it is ±Infinity and at most 2^-150 it is ±0, where PostgreSQL's
 * cast raises overflow/underflow instead.
 */
function single(value: Sql, share: Share): Sql {
  return share(
    [value],
    ([v]) => sql`(case when ${v} = 'NaN' then ${v}
    when abs(${v}) >= 3.4028235677973366e38 then case when ${v} > 0 then 'Infinity'::double precision else '-Infinity'::double precision end
    when abs(${v}) <= 7.006492321624085e-46 then ${v} * 0
    else cast(cast(${v} as real) as double precision) end)`,
  );
}

/**
 * A double's decimal the way the evaluator takes it: an integral double exactly (BigInt(x)), any
 * other from its shortest round-trip text (PostgreSQL's float8 output, extra_float_digits >= 1);
 * NaN and the infinities have none (null). Beyond 2^63 the integer is rebuilt as m * 2^k in numeric.
 */
function doubleAsDecimal(value: Sql, share: Share): Sql {
  return share([value], ([v]) => {
    const k = sql`cast(floor(ln(abs(${v})) / ln(2)) - 60 as integer)`;
    return sql`(case when ${v} in ('NaN', 'Infinity', '-Infinity') then null
      when ${v} <> trunc(${v}) then cast(cast(${v} as text) as numeric)
      when abs(${v}) < 9223372036854775808 then cast(cast(${v} as bigint) as numeric)
      else cast(cast(${v} / power(2::double precision, ${k}) as bigint) as numeric) * power(2::numeric, ${k}) end)`;
  });
}

/** Math.round midpoints away from zero: -Math.round(-x) below zero; floor plus one from .5 on. */
function roundDouble(value: Sql, share: Share): Sql {
  const roundUp = (v: Sql): Sql => sql`case when ${v} - floor(${v}) >= 0.5 then floor(${v}) + 1 else floor(${v}) end`;
  return share([value], ([v]) => sql`(case when ${v} < 0 then -(${roundUp(sql`(-${v})`)}) else ${roundUp(v)} end)`);
}

/**
 * PostgreSQL orders NaN above every number and equal to itself; the evaluator compares it with
 * nothing (every operator false, `ne` true). Which side needs a NaN test depends on the operator.
 */
function compareFloats(operator: ComparisonOperator, left: Sql, right: Sql, nan: NanSides, share: Share): Sql {
  const symbol = sql.raw(OPERATORS[operator]);
  const tested =
    operator === 'eq' || operator === 'ne'
      ? nan.left && nan.right
        ? 'left'
        : undefined
      : operator === 'lt' || operator === 'le'
        ? nan.right
          ? 'right'
          : undefined
        : nan.left
          ? 'left'
          : undefined;
  if (tested === undefined) return sql`(${left} ${symbol} ${right})`;
  return share([left, right], ([a, b]) => {
    const side = tested === 'left' ? a : b;
    return operator === 'ne' ? sql`(${a} ${symbol} ${b} or ${side} = 'NaN')` : sql`(${a} ${symbol} ${b} and ${side} <> 'NaN')`;
  });
}

function toDouble(value: Sql, from: EdmPrimitiveTypeName): Sql {
  return isFloat(from) ? value : sql`cast(${value} as double precision)`;
}

function convert(value: Sql, from: EdmPrimitiveTypeName, to: EdmPrimitiveTypeName): Sql {
  if (from === to || (isInteger(from) && isInteger(to))) return value; // integers compare across widths exactly
  if (to === 'Edm.Decimal' && isInteger(from)) return sql`cast(${value} as numeric)`;
  if (isFloat(to) && (isInteger(from) || from === 'Edm.Decimal' || isFloat(from))) return toDouble(value, from);
  if ((from === 'Edm.DateTime' && to === 'Edm.DateTimeOffset') || (from === 'Edm.DateTimeOffset' && to === 'Edm.DateTime')) {
    // A DateTime is a UTC wall-clock time: the instant is that time at UTC (and back).
    return sql`(${value} at time zone 'UTC')`;
  }
  throw new TypeError(`No conversion from ${from} to ${to}.`);
}

function integerCast(value: Sql, from: EdmPrimitiveTypeName, to: EdmPrimitiveTypeName, share: Share): Sql {
  const { min, max } = integerRange(to) ?? { min: 0n, max: 0n };
  const [low, high] = [String(min), String(max)];
  const target = sql.raw(COLUMN_TYPES[to]);
  const source = integerRange(from);
  if (source !== undefined && source.min >= min && source.max <= max) return sql`cast(${value} as ${target})`;
  // The evaluator truncates toward zero and gives null out of range (where .NET would overflow).
  if (isFloat(from)) {
    // trunc of a double is exact, and equals trunc of its decimal; the bounds (low and high + 1)
    // are exact doubles, and NaN fails `<` (PostgreSQL orders it above every number).
    const above = (max + 1n).toString();
    return share([sql`trunc(${value})`], ([v]) => sql`(case when ${v} >= ${sql.raw(low)} and ${v} < ${sql.raw(above)} then cast(${v} as ${target}) end)`);
  }
  const whole = isInteger(from) ? value : sql`trunc(${value})`;
  return share([whole], ([v]) => sql`(case when ${v} between ${sql.raw(low)} and ${sql.raw(high)} then cast(${v} as ${target}) end)`);
}

/** PostgreSQL's expression dialect; `caseCollation` as SqlConnectionOptions' `caseMappingCollation` (null: no ICU). */
export function createPostgresExpressions(caseCollation: string | null): SqlExpressions {
  const length = (value: Sql): Sql => sql`char_length(regexp_replace(${value}, ${SUPPLEMENTARY}, ${DOUBLED}, 'g'))`;

  return Object.freeze<SqlExpressions>({
    literal: (type, value) => sql`${sql.val(toSqlParameter(type, value))}::${sql.raw(expressionType(type))}`,
    typedNull: (type) => sql`null::${sql.raw(expressionType(type))}`,

    evaluateOnce(values, table, columns, body) {
      const selected = sql.join(values.map((value, i) => sql`${value} as ${sql.id(columns[i])}`));
      // OFFSET 0 keeps PostgreSQL from pulling the derived table up into the subquery, which would
      // put each shared expression back wherever it is used (and do that again at every level).
      return sql`(select ${body} from (select ${selected} offset 0) as ${sql.id(table)})`;
    },

    convert,
    realAsDouble: (value) => sql`cast(cast(${value} as text) as double precision)`,
    truncateToMilliseconds: (value) => sql`date_trunc('milliseconds', ${value})`,

    compare(operator, lane, left, right, nan, share) {
      if (lane === 'float') return compareFloats(operator, left, right, nan, share);
      if (lane === 'string' && operator !== 'eq' && operator !== 'ne') {
        // Ordinal (byte order of UTF-8 = code point order), whatever the column's or database's collation.
        return sql`(${left} collate "C" ${sql.raw(OPERATORS[operator])} ${right} collate "C")`;
      }
      return sql`(${left} ${sql.raw(OPERATORS[operator])} ${right})`;
    },
    arithmetic(operator, type, left, right, share) {
      if (isSmallInteger(type)) {
        if (operator === 'mod') return sql`(cast(${left} as integer) % cast(${right} as integer))`;
        const symbol = operator === 'div' ? '/' : ARITHMETIC[operator];
        return wrap32(sql`cast(${left} as bigint) ${sql.raw(symbol)} cast(${right} as bigint)`);
      }
      switch (type) {
        case 'Edm.Int64': {
          if (operator === 'mod') return sql`(cast(${left} as bigint) % cast(${right} as bigint))`;
          const [a, b] = [sql`cast(${left} as numeric)`, sql`cast(${right} as numeric)`];
          return wrap64(operator === 'div' ? sql`div(${a}, ${b})` : sql`${a} ${sql.raw(ARITHMETIC[operator])} ${b}`);
        }
        case 'Edm.Decimal':
          if (operator === 'mod') return sql`(${left} % ${right})`;
          if (operator !== 'div') return sql`(${left} ${sql.raw(ARITHMETIC[operator])} ${right})`;
          // 28 fractional digits, the last rounded half away from zero (.NET System.Decimal):
          // round(n/d) = sign * floor((2|n| + |d|) / 2|d|) with n = a * 10^28, all exact in numeric.
          return share([left, right], ([a, b]) => sql`(sign(${a}) * sign(${b}) * div(2 * abs(${a}) * 1e28 + abs(${b}), 2 * abs(${b})) * 1e-28)`);
        case 'Edm.Double':
        case 'Edm.Single': {
          if (operator === 'mod') return undefined; // fmod of binary doubles has no exact SQL form
          const result = operator === 'div' ? floatDivision(left, right, share) : sql`(${left} ${sql.raw(ARITHMETIC[operator])} ${right})`;
          return type === 'Edm.Single' ? single(result, share) : result;
        }
        default:
          return undefined;
      }
    },
    negate(type, value) {
      if (isSmallInteger(type)) return wrap32(sql`-cast(${value} as bigint)`);
      if (type === 'Edm.Int64') return wrap64(sql`-cast(${value} as numeric)`);
      return sql`(-${value})`;
    },
    cast(value, from, to, share) {
      if (isInteger(to)) return integerCast(value, from, to, share);
      if (to === 'Edm.Decimal') return isFloat(from) ? doubleAsDecimal(value, share) : sql`cast(${value} as numeric)`;
      if (to === 'Edm.Double') return toDouble(value, from);
      if (to === 'Edm.Single') return single(toDouble(value, from), share);
      return convert(value, from, to);
    },

    contains(haystack, needle) {
      // A literal as a LIKE pattern, not strpos: a trigram index on the haystack can serve it.
      return typeof needle === 'string' ? like(haystack, '%' + likeEscape(needle) + '%') : sql`(strpos(${haystack}, ${needle}) > 0)`;
    },
    startsWith(value, prefix) {
      return typeof prefix === 'string' ? like(value, likeEscape(prefix) + '%') : sql`starts_with(${value}, ${prefix})`;
    },
    endsWith(value, suffix, share) {
      if (typeof suffix === 'string') return like(value, '%' + likeEscape(suffix));
      return share([suffix], ([s]) => sql`(right(${value}, char_length(${s})) = ${s})`);
    },
    // A supplementary character is two UTF-16 code units: doubled, code points count as code units.
    length,
    indexOf(value, search, share) {
      return share([value, search], ([v, s]) => sql`(case strpos(${v}, ${s}) when 0 then -1 else ${length(sql`left(${v}, strpos(${v}, ${s}) - 1)`)} end)`);
    },
    replace: (value, search, replacement) => sql`replace(${value}, ${search}, ${replacement})`,
    substring(value, start, count, share) {
      // Each supplementary character is followed by U+FFFD, its "low half", so that code points are
      // code units; after the cut a kept pair is joined again, and a half cut off alone is U+FFFD
      // (what the evaluator's unpaired surrogate becomes in UTF-8). Positions clamp as the evaluator.
      const marked = sql`regexp_replace(${value}, ${SUPPLEMENTARY}, ${MARKED}, 'g')`;
      const cut = share(count === undefined ? [start] : [start, count], ([s, n]) => {
        const from = sql`case when ${s} < 0 then 1 when ${s} > 1073741824 then 1073741825 else ${s} + 1 end`;
        return n === undefined ? sql`substr(${marked}, ${from})` : sql`substr(${marked}, ${from}, case when ${n} < 0 then 0 else ${n} end)`;
      });
      const lone = sql`regexp_replace(${cut}, ${TRAILING_HIGH_HALF}, ${REPLACEMENT_CHARACTER})`;
      return sql`regexp_replace(${lone}, ${MARKED_PAIR}, ${FIRST_GROUP}, 'g')`;
    },
    changeCase(value, to, approximate) {
      // Without ICU, `search` still runs in SQL: lower()/upper() under the database's default
      // collation (a column's own may be "C", which maps ASCII letters only).
      if (caseCollation === null) return approximate === true ? sql`${sql.raw(to)}(${value} collate "default")` : undefined;
      // ICU's root locale maps case as JavaScript does (ß -> SS, final sigma); the result is read as "C" again.
      return sql`(${sql.raw(to)}(${value} collate ${sql.raw(quotePostgresIdentifier(caseCollation))}) collate "C")`;
    },
    trim: (value) => sql`btrim(${value}, ${TRIM_SET})`,
    concat: (left, right) => sql`(${left} || ${right})`,
    datePart(part: DatePart, type, value) {
      if (type === 'Edm.Time') {
        const seconds = sql`extract(epoch from ${value})`;
        if (part === 'hour') return sql`cast(mod(div(${seconds}, 3600), 24) as integer)`;
        if (part === 'minute') return sql`cast(mod(div(${seconds}, 60), 60) as integer)`;
        return sql`cast(mod(trunc(${seconds}), 60) as integer)`;
      }
      const utc = type === 'Edm.DateTimeOffset' ? sql`(${value} at time zone 'UTC')` : value;
      const field = sql`extract(${sql.raw(part)} from ${utc})`;
      return part === 'second' ? sql`cast(trunc(${field}) as integer)` : sql`cast(${field} as integer)`;
    },
    rounding(name, type, value, share) {
      if (type === 'Edm.Double' && name === 'round') return roundDouble(value, share);
      return sql`${sql.raw(name === 'ceiling' ? 'ceil' : name)}(${value})`;
    },

    orderBy(value, lane, direction, mayBeNaN, nullable) {
      // A default btree index is ASC NULLS LAST: it serves `asc` forwards and `desc` (NULLS FIRST)
      // backwards, never `asc nulls first`. A value that cannot be null needs no null placement.
      const order = sql.raw(!nullable ? direction : direction === 'asc' ? 'asc nulls first' : 'desc nulls last');
      if (lane === 'string') return [sql`${value} collate "C" ${order}`];
      if (lane !== 'float' || !mayBeNaN) return [sql`${value} ${order}`];
      // The evaluator (.NET Double.CompareTo) sorts NaN below every number; PostgreSQL above. The
      // first term ranks null (null), NaN (false), numbers (true); its nulls go where the value's do.
      return [sql`(${value} <> 'NaN') ${order}`, sql`${value} ${sql.raw(direction)}`];
    },
  });
}
