/**
 * Which literal may stand for a value of a declared type (key predicates, service-operation
 * parameters): the implicit promotions of MS-ODATA §2.2.3.6.1.1.1 plus range checks, as a table.
 */
import { canonicalDecimal, isInt64, numberToDecimalText } from './decimal-text';
import type { ParsedLiteral } from './literal-parse';
import { numberRange } from './primitives';
import type { EdmPrimitiveTypeName, PrimitiveValue } from './primitives';
import { SINGLE_MAX } from './primitive-text';

type Converter = (literal: ParsedLiteral, target: EdmPrimitiveTypeName) => PrimitiveValue | undefined;

const INTEGERS: readonly EdmPrimitiveTypeName[] = ['Edm.Byte', 'Edm.SByte', 'Edm.Int16', 'Edm.Int32', 'Edm.Int64'];
const FLOATS: readonly EdmPrimitiveTypeName[] = ['Edm.Single', 'Edm.Double'];
const DATES: readonly EdmPrimitiveTypeName[] = ['Edm.DateTime', 'Edm.DateTimeOffset'];

/** Canonical integer text of an integer-typed literal's value. */
function integerText(value: PrimitiveValue | null): string | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** An integer literal as whichever integer type it fits (`1` is a fine Edm.Byte key). */
const toInteger: Converter = (literal, target) => {
  const text = integerText(literal.value);
  if (text === undefined) return undefined;
  if (target === 'Edm.Int64') return isInt64(text) ? text : undefined;
  if (text.length > 11) return undefined;
  const value = Number(text);
  const { min, max } = numberRange(target);
  return value >= min && value <= max ? value : undefined;
};

/** Numbers as Edm.Decimal, exactly: integers and decimals by their text; floats by their written digits. */
const toDecimal: Converter = (literal) => {
  const { value } = literal;
  if (typeof value === 'string') return value;
  if (typeof value !== 'number') return undefined;
  if (Number.isInteger(value) && literal.type !== 'Edm.Single' && literal.type !== 'Edm.Double') return String(value);
  // WCF re-read an unsuffixed `2.5` compared with a Decimal as a decimal; the digits are exact, the double is not.
  const written = literal.text === undefined ? undefined : canonicalDecimal(literal.text.replace(/[DdFf]$/, ''), true, false);
  return written ?? numberToDecimalText(value);
};

/** Numbers as Edm.Single or Edm.Double, within range (NaN and the infinities pass). */
const toFloat: Converter = (literal, target) => {
  const { value } = literal;
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  if (typeof value !== 'number' && !Number.isFinite(number)) return undefined;
  if (target === 'Edm.Single' && Number.isFinite(number) && Math.abs(number) > SINGLE_MAX) return undefined;
  return number;
};

const same: Converter = (literal) => literal.value ?? undefined;

/** `1` and `0` are boolean literals too (MS-ODATA §2.2.2 booleanLiteral). */
const toBoolean: Converter = (literal) => {
  const { value } = literal;
  if (typeof value === 'boolean') return value;
  return value === 1 ? true : value === 0 ? false : undefined;
};

/** Rows: literal types, target types, and how to convert. Later rows win. */
const RULES: readonly (readonly [readonly EdmPrimitiveTypeName[], readonly EdmPrimitiveTypeName[], Converter])[] = [
  [INTEGERS, INTEGERS, toInteger],
  [[...INTEGERS, 'Edm.Decimal', ...FLOATS], ['Edm.Decimal'], toDecimal],
  [[...INTEGERS, 'Edm.Decimal', ...FLOATS], FLOATS, toFloat],
  [DATES, DATES, same],
  [['Edm.Boolean', 'Edm.Int32'], ['Edm.Boolean'], toBoolean],
  [['Edm.String'], ['Edm.String'], same],
  [['Edm.Guid'], ['Edm.Guid'], same],
  [['Edm.Time'], ['Edm.Time'], same],
  [['Edm.Binary'], ['Edm.Binary'], same],
];

const TABLE: ReadonlyMap<EdmPrimitiveTypeName, ReadonlyMap<EdmPrimitiveTypeName, Converter>> = (() => {
  const table = new Map<EdmPrimitiveTypeName, Map<EdmPrimitiveTypeName, Converter>>();
  for (const [sources, targets, converter] of RULES) {
    for (const source of sources) {
      let row = table.get(source);
      if (row === undefined) table.set(source, (row = new Map<EdmPrimitiveTypeName, Converter>()));
      for (const target of targets) row.set(target, converter);
    }
  }
  return table;
})();

/**
 * The literal's value as a value of `target`: null for `null`, undefined when the literal's type
 * does not convert to `target` or its value is out of the target's range. Integers convert to
 * every integer type they fit, to Decimal, Single and Double; Decimal to Single and Double;
 * floats to each other and to Decimal (exactly, from the written digits); DateTime and
 * DateTimeOffset to each other (both are instants); `1`/`0` to Boolean.
 */
export function convertLiteral(literal: ParsedLiteral, target: EdmPrimitiveTypeName): PrimitiveValue | null | undefined {
  if (literal.type === null || literal.value === null) return null;
  const converter = TABLE.get(literal.type)?.get(target);
  return converter === undefined ? undefined : converter(literal, target);
}
