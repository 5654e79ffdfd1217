/**
 * Comparing values: per lane (chosen once per expression), and `compareValues` for any two values
 * whose types are only known at run time. Strings compare ordinally (UTF-16 code units, as .NET's
 * String.CompareOrdinal), Int64/Decimal exactly, instants by time, binaries byte by byte.
 */
import { compareInstants, type PreciseInstant } from '../edm/precise-instant';
import { laneOf, type EdmPrimitiveTypeName, type PrimitiveLane } from '../edm/primitives';
import { areComparable } from '../uri/expr/promotion';
import { commonType, inferPair, isNumberLane, toLane, type LaneValue } from './coerce';
import { compareDecimal, type ExactDecimal } from './decimal';

/** -1, 0 or 1; NaN when either side is a NaN double (then every comparison operator is false). */
type LaneComparator = (a: LaneValue, b: LaneValue) => number;

function compareNumbers(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : a === b ? 0 : NaN;
}

/** An instant lane value as what `compareInstants` takes: its milliseconds as a Date, or the PreciseInstant. */
function instantOf(value: LaneValue): Date | PreciseInstant {
  return typeof value === 'number' ? new Date(value) : (value as PreciseInstant);
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

const COMPARATORS: Readonly<Record<PrimitiveLane, LaneComparator>> = {
  integer: (a, b) => compareNumbers(a as number, b as number),
  float: (a, b) => compareNumbers(a as number, b as number),
  // Two milliseconds compare as numbers; a position finer than milliseconds (a PreciseInstant) by its full value.
  instant: (a, b) => (typeof a === 'number' && typeof b === 'number' ? compareNumbers(a, b) : compareInstants(instantOf(a), instantOf(b))),
  time: (a, b) => compareNumbers(a as number, b as number),
  // Numbers and bigints compare exactly with `<` and `>` across the two kinds.
  int64: (a, b) => ((a as bigint | number) < (b as bigint | number) ? -1 : (a as bigint | number) > (b as bigint | number) ? 1 : 0),
  decimal: (a, b) => compareDecimal(a as ExactDecimal, b as ExactDecimal),
  string: (a, b) => ((a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0),
  guid: (a, b) => ((a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0),
  boolean: (a, b) => Number(a) - Number(b),
  binary: (a, b) => compareBytes(a as Uint8Array, b as Uint8Array),
};

/** The comparator of a lane: values must already be in it (see `toLane`). */
export function laneComparator(lane: PrimitiveLane): LaneComparator {
  return COMPARATORS[lane];
}

/** A total order for sorting: as `laneComparator`, with NaN before every number (.NET Double.CompareTo). */
export function sortComparator(lane: PrimitiveLane): LaneComparator {
  const compare = COMPARATORS[lane];
  if (!isNumberLane(lane)) return compare;
  return (a, b) => {
    const result = compare(a, b);
    if (!Number.isNaN(result)) return result;
    const aNaN = Number.isNaN(a);
    const bNaN = Number.isNaN(b);
    return aNaN && bNaN ? 0 : aNaN ? -1 : 1;
  };
}

/**
 * Compare two values of any (possibly undeclared) types: null and undefined first, then by the
 * common type of both. Values of types that cannot be compared are ordered by type name, so the
 * result is still a total order for sorting. `declared` types, when known, replace inference.
 */
export function compareValues(a: unknown, b: unknown, leftType?: EdmPrimitiveTypeName, rightType?: EdmPrimitiveTypeName): number {
  const aNull = a === null || a === undefined;
  const bNull = b === null || b === undefined;
  if (aNull || bNull) return aNull && bNull ? 0 : aNull ? -1 : 1;
  const result = compareKnown(a, b, leftType, rightType);
  if (result !== undefined) return result;
  const [typeA, typeB] = inferPair(a, b, leftType, rightType);
  const nameA = typeA ?? typeof a;
  const nameB = typeB ?? typeof b;
  return nameA < nameB ? -1 : nameA > nameB ? 1 : 0;
}

/**
 * Compare two non-null values by their (declared or inferred) types; undefined when the types do
 * not compare (`'a'` with `1`). `total` picks the sorting order (NaN first) over the operator
 * semantics (NaN compares with nothing: the result is NaN).
 */
export function compareKnown(a: unknown, b: unknown, leftType?: EdmPrimitiveTypeName, rightType?: EdmPrimitiveTypeName, total = true): number | undefined {
  const [typeA, typeB] = inferPair(a, b, leftType, rightType);
  if (typeA === undefined || typeB === undefined || !areComparable(typeA, typeB, false)) return undefined;
  const common = commonType(typeA, typeB);
  if (common === undefined) return undefined;
  const lane = laneOf(common);
  const x = toLane(lane, a);
  const y = toLane(lane, b);
  if (x === undefined || y === undefined) return undefined;
  return (total ? sortComparator(lane) : laneComparator(lane))(x, y);
}
