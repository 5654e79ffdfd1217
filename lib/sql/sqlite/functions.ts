/**
 * Functions registered on every SQLite connection, for what SQLite has no exact SQL for: Unicode
 * case mapping (SQLite's `lower()` maps ASCII only), UTF-16 string positions (SQLite counts code
 * points), Int64 and Decimal arithmetic (SQLite's integers overflow into doubles, and it has no
 * decimal type), exact decimal comparison and rounding. Each is the shared evaluator's own
 * operation (lib/evaluate), so SQL and the evaluator agree by construction; they still run inside
 * the statement, row by row, so the filter stays pushed down. An integer or decimal division by
 * zero fails the statement with SQLSTATE 22012, as PostgreSQL's does.
 */
import { canonicalDecimal } from '../../edm/decimal-text';
import { laneOf, type EdmPrimitiveTypeName } from '../../edm/primitives';
import { arithmeticOperation, negation, type ArithmeticOperator, type NumericLaneValue } from '../../evaluate/arithmetic';
import { ceilingDecimal, compareDecimal, floorDecimal, formatDecimal, parseDecimal, roundDecimal, type ExactDecimal } from '../../evaluate/decimal';
import { SQLSTATE } from '../errors';

/** A value SQLite hands a function (safe integers on) or takes back from it. */
type SqliteScalar = string | number | bigint | Buffer | null;

/** One registered function: its name, and its body over SQLite's values. */
export interface SqliteFunction {
  readonly name: string;
  readonly body: (...args: SqliteScalar[]) => SqliteScalar;
}

/** What a statement that divided by zero fails with: SQLSTATE 22012 (the provider's FILTER_DIVISION_BY_ZERO). */
class SqliteDivisionByZeroError extends Error {
  readonly code = SQLSTATE.divisionByZero;

  constructor() {
    super('division by zero');
    this.name = 'SqliteDivisionByZeroError';
  }
}

const divisionByZero = (): never => {
  throw new SqliteDivisionByZeroError();
};

const textOf = (value: SqliteScalar): string | null => (typeof value === 'string' ? value : null);

function decimalOf(value: SqliteScalar): ExactDecimal {
  const parsed = value === null || value instanceof Buffer ? undefined : parseDecimal(String(value));
  if (parsed === undefined) throw new TypeError(`Not a decimal: ${String(value).slice(0, 40)}.`);
  return parsed;
}

/** A value of SQLite in the evaluator's lane of `type`. */
function laneValue(type: EdmPrimitiveTypeName, value: SqliteScalar): NumericLaneValue {
  switch (laneOf(type)) {
    case 'int64':
      return typeof value === 'bigint' ? value : BigInt(String(value));
    case 'decimal':
      return decimalOf(value);
    default:
      return Number(value);
  }
}

/** A lane value as SQLite stores `type` (integers as BigInt, decimals as their text). */
function sqliteValue(type: EdmPrimitiveTypeName, value: NumericLaneValue): SqliteScalar {
  // The canonical text, as the codec stores decimals: equal values, equal text.
  if (typeof value === 'object') return canonicalDecimal(formatDecimal(value)) ?? formatDecimal(value);
  if (typeof value === 'bigint') return value;
  return laneOf(type) === 'integer' ? BigInt(value) : value;
}

const ARITHMETIC: ReadonlySet<string> = new Set(['add', 'sub', 'mul', 'div', 'mod']);

function strictly<T extends SqliteScalar[]>(body: (...args: T) => SqliteScalar): (...args: SqliteScalar[]) => SqliteScalar {
  // Every function propagates null, as the evaluator's built-ins do.
  return (...args) => (args.some((arg) => arg === null) ? null : body(...(args as T)));
}

/** Exponents are written with this offset and width, so their text order is their numeric order. */
const EXPONENT_OFFSET = 5_000_000;
const EXPONENT_WIDTH = 7;

/**
 * A text whose order (SQLite's memcmp of UTF-8) is the numeric order of the decimal: a sign class
 * ('0' negative, '1' zero, '2' positive), the exponent of `0.d1d2… × 10^e` (inverted for a negative),
 * then the significant digits (nines' complement and a closing '~' for a negative, so a longer
 * mantissa sorts lower). ORDER BY a Decimal stays in SQL this way, where its canonical text would not.
 */
function decimalOrderKey(value: ExactDecimal): string {
  if (value.digits === 0n) return '1';
  const negative = value.digits < 0n;
  const text = (negative ? -value.digits : value.digits).toString();
  const exponent = text.length - value.scale + EXPONENT_OFFSET;
  const mantissa = text.replace(/0+$/, '');
  if (!negative) return `2${String(exponent).padStart(EXPONENT_WIDTH, '0')}${mantissa}`;
  const complement = mantissa.replace(/\d/g, (digit) => String(9 - Number(digit)));
  return `0${String(2 * EXPONENT_OFFSET - 1 - exponent).padStart(EXPONENT_WIDTH, '0')}${complement}~`;
}

/** The registered functions, by name (`odata_` names, so they never shadow SQLite's own). */
export const SQLITE_FUNCTIONS: readonly SqliteFunction[] = [
  { name: 'odata_lower', body: strictly((value) => textOf(value)?.toLowerCase() ?? null) },
  { name: 'odata_upper', body: strictly((value) => textOf(value)?.toUpperCase() ?? null) },
  { name: 'odata_trim', body: strictly((value) => textOf(value)?.trim() ?? null) },
  { name: 'odata_length', body: strictly((value) => BigInt(String(value).length)) },
  { name: 'odata_indexof', body: strictly((value, search) => BigInt(String(value).indexOf(String(search)))) },
  {
    name: 'odata_substring',
    body: strictly((value, start, count) => {
      // The evaluator's total substring: clamped start, a length past the end stops there, a negative length gives ''.
      const text = String(value);
      const begin = Math.min(Math.max(Number(start), 0), text.length);
      if (count === undefined) return text.slice(begin);
      const length = Number(count);
      return length <= 0 ? '' : text.slice(begin, begin + length);
    }),
  },
  {
    name: 'odata_arithmetic',
    body: strictly((operator, type, left, right) => {
      const name = String(operator);
      if (!ARITHMETIC.has(name)) throw new TypeError(`No arithmetic operator '${name}'.`);
      const edmType = String(type) as EdmPrimitiveTypeName;
      const operation = arithmeticOperation(name as ArithmeticOperator, edmType, divisionByZero);
      return sqliteValue(edmType, operation(laneValue(edmType, left), laneValue(edmType, right)));
    }),
  },
  {
    name: 'odata_negate',
    body: strictly((type, value) => {
      const edmType = String(type) as EdmPrimitiveTypeName;
      return sqliteValue(edmType, negation(edmType)(laneValue(edmType, value)));
    }),
  },
  { name: 'odata_decimal_compare', body: strictly((left, right) => BigInt(compareDecimal(decimalOf(left), decimalOf(right)))) },
  { name: 'odata_decimal_key', body: strictly((value) => decimalOrderKey(decimalOf(value))) },
  {
    name: 'odata_decimal_round',
    body: strictly((kind, value) => {
      const rounded = kind === 'round' ? roundDecimal : kind === 'floor' ? floorDecimal : ceilingDecimal;
      const text = formatDecimal(rounded(decimalOf(value)));
      return canonicalDecimal(text) ?? text;
    }),
  },
  {
    name: 'odata_double_round',
    body: strictly((kind, value) => {
      const x = Number(value);
      // Math.round rounds -2.5 to -2; OData (like SQL ROUND) rounds midpoints away from zero.
      if (kind === 'round') return x < 0 ? -Math.round(-x) : Math.round(x);
      return kind === 'floor' ? Math.floor(x) : Math.ceil(x);
    }),
  },
  { name: 'odata_fround', body: strictly((value) => Math.fround(Number(value))) },
];
