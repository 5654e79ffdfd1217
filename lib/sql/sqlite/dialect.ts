/**
 * SQLite's expression dialect (the engine's `expressions`): the SQL text the filter compiler
 * writes for SQLite 3.45 or later (better-sqlite3 12 bundles it), over the storage of values.ts.
 * Where SQLite's own operators give the evaluator's result they are used as they are (integers,
 * doubles, text in code-point order, timestamps as fixed-width text); where they cannot, a function of functions.ts, registered on the
 * connection, does it inside the statement (Unicode case, UTF-16 positions, Int64 and Decimal
 * arithmetic, decimal comparison and order). What neither can match is left to the evaluator:
 * `mod` and division of doubles (SQLite has no NaN), casts from Decimal and to it from a double,
 * and literals SQLite cannot hold (see docs/sql-provider.md).
 */
import { sql } from 'kysely';
import { integerRange, laneOf, type EdmPrimitiveTypeName } from '../../edm/primitives';
import { untranslatable } from '../compile/context';
import type { ComparisonOperator, Share, Sql, SqlExpressions } from '../dialect';
import { toSqliteParameter } from './values';

const OPERATORS: Readonly<Record<ComparisonOperator, string>> = { eq: '=', ne: '<>', lt: '<', le: '<=', gt: '>', ge: '>=' };
const isInteger = (type: EdmPrimitiveTypeName): boolean => integerRange(type) !== undefined;

/** `name('Edm.T', …)`: a registered function given an EDM type name as a literal. */
const typeName = (type: EdmPrimitiveTypeName): Sql => sql.lit(type);

/** Int32 wrap-around (.NET unchecked arithmetic) of a 64-bit integer that holds the exact result. */
function wrap32(exact: Sql): Sql {
  return sql`((((${exact}) + 2147483648) & 4294967295) - 2147483648)`;
}

function divisor(value: Sql, share: Share, body: (divisor: Sql) => Sql): Sql {
  return share([value], ([d]) => sql`(case when ${d} = 0 then odata_arithmetic('div', 'Edm.Int32', 1, 0) else ${body(d)} end)`);
}

function convert(value: Sql, from: EdmPrimitiveTypeName, to: EdmPrimitiveTypeName): Sql {
  if (from === to || (isInteger(from) && isInteger(to))) return value;
  // A DateTime is a UTC wall-clock time, and both are stored as UTC text: the same text.
  if (laneOf(from) === 'instant' && laneOf(to) === 'instant') return value;
  if (to === 'Edm.Decimal' && isInteger(from)) return sql`cast(${value} as text)`;
  if (laneOf(to) === 'float' && (isInteger(from) || laneOf(from) === 'float')) return laneOf(from) === 'float' ? value : sql`cast(${value} as real)`;
  return untranslatable(`${from} as ${to} on SQLite`);
}

function integerCast(value: Sql, from: EdmPrimitiveTypeName, to: EdmPrimitiveTypeName, share: Share): Sql {
  const { min, max } = integerRange(to) ?? { min: 0n, max: 0n };
  const source = integerRange(from);
  if (source !== undefined && source.min >= min && source.max <= max) return value;
  if (source !== undefined) return share([value], ([v]) => sql`(case when ${v} between ${sql.raw(String(min))} and ${sql.raw(String(max))} then ${v} end)`);
  if (laneOf(from) !== 'float') return untranslatable(`a cast from ${from} on SQLite`);
  // The evaluator truncates toward zero and gives null out of range; the bounds are exact doubles.
  return share(
    [value],
    ([v]) => sql`(case when ${v} > ${sql.raw(String(min - 1n))}.0 and ${v} < ${sql.raw(String(max + 1n))}.0 then cast(${v} as integer) end)`,
  );
}

/** SQLite's expression dialect. */
export function createSqliteExpressions(): SqlExpressions {
  // A literal SQLite cannot hold (NaN, a Time outside one day) is the evaluator's: it has a meaning in $filter.
  const literal = (type: EdmPrimitiveTypeName, value: Parameters<typeof toSqliteParameter>[1]): Sql => {
    try {
      return sql`${sql.val(toSqliteParameter(type, value))}`;
    } catch (error) {
      if (error instanceof RangeError) return untranslatable(`a literal of ${type} SQLite cannot hold`);
      throw error;
    }
  };

  return Object.freeze<SqlExpressions>({
    literal,
    typedNull: () => sql`null`,
    evaluateOnce(values, table, columns, body) {
      const selected = sql.join(values.map((value, i) => sql`${value} as ${sql.id(columns[i])}`));
      return sql`(select ${body} from (select ${selected}) as ${sql.id(table)})`;
    },

    convert,
    // A Single is stored as the double of its single-precision value: already the evaluator's double.
    realAsDouble: (value) => value,
    // Timestamps (`…SS.fff…`) and times (`HH:MM:SS.fff…`): the text up to the third fractional digit.
    truncateToMilliseconds: (value) => sql`(case when instr(${value}, '.') > 0 then substr(${value}, 1, instr(${value}, '.') + 3) else ${value} end)`,

    compare(operator, lane, left, right) {
      // Decimals are text: equal values have equal canonical text, but order needs the exact comparison.
      if (lane === 'decimal' && operator !== 'eq' && operator !== 'ne')
        return sql`(odata_decimal_compare(${left}, ${right}) ${sql.raw(OPERATORS[operator])} 0)`;
      return sql`(${left} ${sql.raw(OPERATORS[operator])} ${right})`;
    },
    arithmetic(operator, type, left, right, share) {
      if (laneOf(type) === 'integer') {
        if (operator === 'div') return divisor(right, share, (d) => wrap32(sql`${left} / ${d}`));
        if (operator === 'mod') return divisor(right, share, (d) => sql`(${left} % ${d})`);
        return wrap32(sql`${left} ${sql.raw(operator === 'add' ? '+' : operator === 'sub' ? '-' : '*')} ${right}`);
      }
      if (type === 'Edm.Int64' || type === 'Edm.Decimal') return sql`odata_arithmetic(${sql.lit(operator)}, ${typeName(type)}, ${left}, ${right})`;
      // A division or modulo of doubles can give NaN, which SQLite cannot hold.
      if (operator === 'div' || operator === 'mod') return undefined;
      const result = sql`(${left} ${sql.raw(operator === 'add' ? '+' : operator === 'sub' ? '-' : '*')} ${right})`;
      return type === 'Edm.Single' ? sql`odata_fround(${result})` : result;
    },
    negate(type, value) {
      if (laneOf(type) === 'integer') return wrap32(sql`-${value}`);
      if (type === 'Edm.Int64' || type === 'Edm.Decimal') return sql`odata_negate(${typeName(type)}, ${value})`;
      return sql`(-${value})`;
    },
    cast(value, from, to, share) {
      if (isInteger(to)) return integerCast(value, from, to, share);
      if (to === 'Edm.Decimal')
        return isInteger(from) || from === 'Edm.Decimal' ? convert(value, from, to) : untranslatable(`a cast from ${from} to Edm.Decimal on SQLite`);
      if (to === 'Edm.Double') return convert(value, from, to);
      if (to === 'Edm.Single') return sql`odata_fround(${convert(value, from, 'Edm.Double')})`;
      return convert(value, from, to);
    },

    contains: (haystack, needle) => sql`(instr(${haystack}, ${typeof needle === 'string' ? sql.val(needle) : needle}) > 0)`,
    startsWith(value, prefix) {
      const p = typeof prefix === 'string' ? sql.val(prefix) : prefix;
      return sql`(substr(${value}, 1, length(${p})) = ${p})`;
    },
    endsWith(value, suffix, share) {
      const s = typeof suffix === 'string' ? sql.val(suffix) : suffix;
      // `v = v`: an empty suffix ends every string, and a null one ends nothing (null, as the evaluator's).
      return share([value, s], ([v, x]) => sql`(substr(${v}, -length(${x})) = ${x} or (length(${x}) = 0 and ${v} = ${v}))`);
    },
    length: (value) => sql`odata_length(${value})`,
    indexOf: (value, search) => sql`odata_indexof(${value}, ${search})`,
    // SQLite's replace gives the value back for an empty search even when the replacement is null; the evaluator gives null.
    replace: (value, search, replacement) => sql`(replace(${value}, ${search}, ${replacement}) || substr(${replacement}, 1, 0))`,
    substring: (value, start, count) => (count === undefined ? sql`odata_substring(${value}, ${start})` : sql`odata_substring(${value}, ${start}, ${count})`),
    changeCase: (value, to) => sql`${sql.raw(to === 'lower' ? 'odata_lower' : 'odata_upper')}(${value})`,
    trim: (value) => sql`odata_trim(${value})`,
    concat: (left, right) => sql`(${left} || ${right})`,
    datePart(part, type, value) {
      const [start, length] =
        type === 'Edm.Time'
          ? { year: [0, 0], month: [0, 0], day: [0, 0], hour: [1, 2], minute: [4, 2], second: [7, 2] }[part]
          : { year: [1, 4], month: [6, 2], day: [9, 2], hour: [12, 2], minute: [15, 2], second: [18, 2] }[part];
      if (length === 0) return untranslatable(`${part} of ${type}`);
      return sql`cast(substr(${value}, ${sql.lit(start)}, ${sql.lit(length)}) as integer)`;
    },
    rounding(name, type, value) {
      if (type === 'Edm.Decimal') return sql`odata_decimal_round(${sql.lit(name)}, ${value})`;
      return sql`odata_double_round(${sql.lit(name)}, ${value})`;
    },

    orderBy(value, lane, direction) {
      // A Decimal's text order is not its numeric order: its order key's is (functions.ts).
      if (lane === 'decimal') return [sql`odata_decimal_key(${value}) ${sql.raw(direction)}`];
      // SQLite puts nulls first ascending and last descending, as the service orders; text in code-point order.
      return [sql`${value} ${sql.raw(direction)}`];
    },
  });
}
