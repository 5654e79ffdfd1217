/**
 * `$skiptoken` (MS-ODATA §2.2.3.6.1.9 "Skip Token"), stateless and in the WCF Data Services form:
 * the URI literals of the last entry's `$orderby` values, then of its key values, comma-separated
 * (`'Milk',1`, or just `5` without `$orderby`). Any server instance can continue the feed.
 *
 * Date/time order values carry the precision of the position they come from: a PreciseInstant
 * prints every digit (`datetime'2024-05-01T10:00:00.123456'`, always more than three), a `Date`
 * its milliseconds (`datetime'2024-05-01T10:00:00.123'`, as every earlier release wrote them). So
 * the text tells them apart: more than three fractional digits decode to a PreciseInstant (the
 * exact stored value), three or fewer to a `Date`, which stands for its whole millisecond.
 */
import { ODataError, isODataError } from '../errors';
import type { EdmEntityType } from '../edm/model';
import { isPrimitiveValue } from '../edm/primitives';
import type { EdmPrimitiveTypeName, PrimitiveValue } from '../edm/primitives';
import { convertLiteral, parseLiteral, printLiteral, scanLiteral } from '../edm/literals';
import { inferPrimitiveType } from '../edm/payload-values';
import { isPreciseInstant, preciseInstant } from '../edm/precise-instant';
import { dateTimeFraction, formatPreciseDateTimeText } from '../edm/temporal-text';
import type { OrderByItem, PositionValue, SkipTokenPosition } from './types';

function printValue(value: unknown, type: EdmPrimitiveTypeName | undefined, what: string): string {
  if (value === null || value === undefined) return 'null';
  if (isPreciseInstant(value)) return printLiteral(type ?? 'Edm.DateTime', value);
  // A provider bug, not a client error: it surfaces as a 500 through normalizeError.
  if (!isPrimitiveValue(value)) throw new Error(`$skiptoken: ${what} is not a primitive value`);
  return printLiteral(type ?? inferPrimitiveType(value), value);
}

/** The declared type of an `$orderby` item, when the checker knows it. */
function itemType(item: OrderByItem | undefined): EdmPrimitiveTypeName | undefined {
  const type = item?.expression.type;
  return type?.kind === 'Primitive' ? type.name : undefined;
}

/**
 * Encode the position after the last entry of a page. Pass the client's `orderBy` (not the
 * tie-broken one) so each value prints with its declared type; without it, types are inferred
 * from the JS values (strings print as Edm.String, which `decodeSkipToken` accepts for Int64,
 * Decimal, Guid and Time items too). A PreciseInstant prints with all its digits.
 *
 *   skiptoken = [ orderbyValue *( "," orderbyValue ) "," ] keyValue *( "," keyValue )
 */
export function encodeSkipToken(
  orderByValues: readonly unknown[],
  key: Readonly<Record<string, unknown>>,
  entityType: EdmEntityType,
  orderBy?: readonly OrderByItem[],
): string {
  const parts = orderByValues.map((value, i) => printValue(value, itemType(orderBy?.[i]), `$orderby value ${i + 1}`));
  for (const property of entityType.key) {
    const type = property.type.kind === 'Primitive' ? property.type.name : undefined;
    parts.push(printValue(key[property.name], type, `key property '${property.name}'`));
  }
  return parts.join(',');
}

/** Types whose JS form is a string and whose literals have their own syntax (an inferred encoding printed them quoted). */
const STRING_FORMS: Partial<Record<EdmPrimitiveTypeName, (text: string) => string>> = {
  'Edm.Int64': (text) => `${text}L`,
  'Edm.Decimal': (text) => `${text}M`,
  'Edm.Guid': (text) => `guid'${text}'`,
  'Edm.Time': (text) => `time'${text}'`,
};

/**
 * A date/time order value at the precision its literal was written with: past three fractional
 * digits a PreciseInstant (undefined when there are more digits than it keeps), else the `Date`.
 */
function atWrittenPrecision(literal: string, value: Date): PositionValue | undefined {
  const body = literal.slice(literal.indexOf("'") + 1, -1);
  const fraction = dateTimeFraction(body);
  if (fraction.length <= 3) return value;
  try {
    return preciseInstant(value, fraction.slice(3));
  } catch {
    return undefined;
  }
}

/** A literal as a value of `type`; `inferred`: also accept the quoted form an inferred encoding wrote. */
function convert(literal: string, type: EdmPrimitiveTypeName | undefined, inferred: boolean): PrimitiveValue | null | undefined {
  const parsed = parseLiteral(literal);
  if (type === undefined) return parsed.value;
  const value = convertLiteral(parsed, type);
  const retyped = inferred ? STRING_FORMS[type] : undefined;
  if (value === undefined && retyped !== undefined && parsed.type === 'Edm.String' && typeof parsed.value === 'string') {
    return convertLiteral(parseLiteral(retyped(parsed.value)), type);
  }
  return value;
}

/** Split a token into its literals with the literal scanner (commas inside quotes stay inside). */
function scanLiterals(text: string): string[] | undefined {
  const literals: string[] = [];
  let pos = 0;
  for (;;) {
    const end = pos < text.length ? scanLiteral(text, pos) : -1;
    if (end <= pos) return undefined;
    literals.push(text.slice(pos, end));
    if (end === text.length) return literals;
    if (text.charCodeAt(end) !== 0x2c /* , */) return undefined;
    pos = end + 1;
  }
}

/**
 * Decode a `$skiptoken` for the request's `$orderby` (as the client gave it) and entity type.
 * Wrong arity, malformed literals, incompatible types, more than nine fractional digits of a
 * date/time or a `null` key: 400 SKIPTOKEN_INVALID.
 */
export function decodeSkipToken(text: string, orderBy: readonly OrderByItem[], entityType: EdmEntityType): SkipTokenPosition {
  const invalid = (cause?: unknown): ODataError => ODataError.fromCode('SKIPTOKEN_INVALID', { token: text }, { target: '$skiptoken', cause });
  const literals = scanLiterals(text);
  if (literals === undefined || literals.length !== orderBy.length + entityType.key.length) throw invalid();
  try {
    const orderByValues: (PositionValue | null)[] = [];
    for (let i = 0; i < orderBy.length; i++) {
      const value = convert(literals[i], itemType(orderBy[i]), true);
      const positioned = value instanceof Date ? atWrittenPrecision(literals[i], value) : value;
      if (positioned === undefined) throw invalid();
      orderByValues.push(positioned);
    }
    const key: Record<string, PrimitiveValue> = {};
    entityType.key.forEach((property, i) => {
      // Keys always print with their declared types, so no inferred forms here.
      const value = convert(literals[orderBy.length + i], property.type.kind === 'Primitive' ? property.type.name : undefined, false);
      if (value === undefined || value === null) throw invalid();
      key[property.name] = value;
    });
    return Object.freeze({ orderByValues: Object.freeze(orderByValues), key: Object.freeze(key) });
  } catch (error) {
    if (isODataError(error) && error.code !== 'SKIPTOKEN_INVALID') throw invalid(error);
    throw error;
  }
}

/** A position value as a message shows it (a PreciseInstant with every digit). */
function describeValue(value: PositionValue | null): string {
  return isPreciseInstant(value) ? formatPreciseDateTimeText(value, 'Z') : String(value);
}

/** 400 SKIPTOKEN_INVALID for a position that does not fit the request's order (`why` goes to the log). */
function invalidPosition(position: SkipTokenPosition, why: string): ODataError {
  const values = [...position.orderByValues.map(describeValue), ...Object.values(position.key).map(describeValue)].join(',');
  return ODataError.fromCode('SKIPTOKEN_INVALID', { token: values }, { target: '$skiptoken', cause: new Error(why) });
}

/** A position laid against an order (`alignPosition`). */
export interface AlignedPosition {
  /** The bound of each order item: its value in the position, or the key's value for a key property the position gives no order value for. */
  readonly bounds: readonly (PositionValue | null)[];
  /** The key properties the order does not sort on: compared last, ascending, so the position is exact. */
  readonly uncoveredKeys: readonly string[];
}

/** The key property an order item sorts on, when it is a plain one-step path to one. */
function keyName(item: OrderByItem, position: SkipTokenPosition): string | undefined {
  const expression = item.expression;
  if (expression.kind !== 'Member' || expression.base !== undefined || expression.path.length !== 1) return undefined;
  const name = expression.path[0];
  return Object.prototype.hasOwnProperty.call(position.key, name) ? name : undefined;
}

/**
 * The bounds of a `$skiptoken` position in an order (the client's `$orderby`, then the key
 * tie-breaker items): what every keyset condition compares with, so the evaluator's filter and
 * the kit's `seekCondition` read a position alike. 400 SKIPTOKEN_INVALID when it does not fit:
 * more values than order items, or an item past the given values that is not a key property.
 */
export function alignPosition(orderBy: readonly OrderByItem[], position: SkipTokenPosition): AlignedPosition {
  const given = position.orderByValues.length;
  if (given > orderBy.length) throw invalidPosition(position, 'more values than $orderby items');
  const covered = new Set<string>();
  const bounds = orderBy.map((item, index) => {
    const name = keyName(item, position);
    if (name !== undefined) covered.add(name);
    if (index < given) return position.orderByValues[index];
    if (name === undefined) throw invalidPosition(position, `no value for the $orderby item ${index + 1}`);
    return position.key[name];
  });
  return { bounds, uncoveredKeys: Object.keys(position.key).filter((name) => !covered.has(name)) };
}
