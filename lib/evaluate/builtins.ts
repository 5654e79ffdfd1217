/**
 * Run-time implementations of the built-in functions (the table is uri/expr/functions.ts). Every
 * function propagates null: a null (or wrongly typed dynamic) argument gives null, so the enclosing
 * comparison is false, as WCF's null propagation did. String positions are 0-based UTF-16 offsets.
 */
import type { EdmEntityType } from '../edm/model';
import { integerRange, laneOf, type EdmPrimitiveTypeName } from '../edm/primitives';
import { isPreciseInstant } from '../edm/precise-instant';
import { timeToMilliseconds } from '../edm/temporal-text';
import type { CallNode, ExprNode } from '../uri/expr/ast';
import { takesTypeName, type FunctionTable } from '../uri/expr/functions';
import { canCast, isNumeric } from '../uri/expr/promotion';
import { fromNumericLane, inferType, isNumberLane, toLane } from './coerce';
import { ceilingDecimal, floorDecimal, formatDecimal, roundDecimal, truncateDecimal, type ExactDecimal } from './decimal';
import { isStructured, orNull, staticPrimitive, type EvaluationSettings, type Evaluator, type RuntimeValue } from './runtime';
import type { Entity } from '../provider/types';

type Compiled = (args: readonly Evaluator[], node: CallNode, settings: EvaluationSettings) => Evaluator;

const text = (value: RuntimeValue): string | null => (typeof value === 'string' ? value : null);
const integer = (value: RuntimeValue): number | null => (typeof value === 'number' && Number.isInteger(value) ? value : null);

/** A function of string arguments; null when any argument is not a string. */
function strings<R extends RuntimeValue>(body: (...values: string[]) => R): Compiled {
  return (args) => {
    if (args.length === 1) {
      const [a] = args;
      return (entity) => {
        const x = text(a(entity));
        return x === null ? null : body(x);
      };
    }
    if (args.length === 2) {
      const [a, b] = args;
      return (entity) => {
        const x = text(a(entity));
        if (x === null) return null;
        const y = text(b(entity));
        return y === null ? null : body(x, y);
      };
    }
    return (entity) => {
      const values: string[] = [];
      for (const arg of args) {
        const value = text(arg(entity));
        if (value === null) return null;
        values.push(value);
      }
      return body(...values);
    };
  };
}

/**
 * substring(s, start[, length]) with total semantics where .NET would throw: a start beyond the
 * string gives '', a negative start counts as 0, a length past the end stops at the end, and a
 * negative length gives ''.
 */
const substring: Compiled = (args) => {
  const [s, start, length] = args;
  return (entity) => {
    const value = text(s(entity));
    const from = integer(start(entity));
    if (value === null || from === null) return null;
    const begin = Math.min(Math.max(from, 0), value.length);
    if (length === undefined) return value.slice(begin);
    const count = integer(length(entity));
    if (count === null) return null;
    return count <= 0 ? '' : value.slice(begin, begin + count);
  };
};

const MS_PER_SECOND = 1000;
const MS_PER_MINUTE = 60 * MS_PER_SECOND;
const MS_PER_HOUR = 60 * MS_PER_MINUTE;

/** A date part in UTC (DateTimeOffset values are instants, normalised to UTC), or of an Edm.Time. */
function datePart(ofDate: (date: Date) => number, ofTime?: (milliseconds: number) => number): Compiled {
  return ([a]) =>
    (entity) => {
      const value = a(entity);
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : ofDate(value);
      if (ofTime !== undefined && typeof value === 'string') {
        const milliseconds = timeToMilliseconds(value);
        return milliseconds === undefined ? null : ofTime(milliseconds);
      }
      return null;
    };
}

/** round/floor/ceiling: the Decimal overload on exact decimals, the Double one on numbers. */
function rounding(ofDecimal: (value: ExactDecimal) => ExactDecimal, ofDouble: (value: number) => number): Compiled {
  return ([a], node) => {
    const returns = staticPrimitive(node);
    const exact = returns === 'Edm.Decimal' || (returns === undefined && staticPrimitive(node.args[0]) !== 'Edm.Double');
    return (entity) => {
      const value = a(entity);
      if (value === null || (typeof value !== 'number' && typeof value !== 'string')) return null;
      if (exact || typeof value === 'string') {
        const decimal = toLane('decimal', value) as ExactDecimal | undefined;
        if (decimal !== undefined) return formatDecimal(ofDecimal(decimal));
        return typeof value === 'number' ? ofDouble(value) : null; // NaN and ±INF have no decimal
      }
      return ofDouble(value);
    };
  };
}

/** Math.round rounds -2.5 to -2; OData (like SQL ROUND) rounds midpoints away from zero. */
function roundAwayFromZero(value: number): number {
  return value < 0 ? -Math.round(-value) : Math.round(value);
}

/** The entity type named by a TypeName argument, when it names one. */
function entityTypeOf(node: ExprNode): EdmEntityType | undefined {
  return node.kind === 'TypeName' ? node.entityType : undefined;
}

/** An entity type outside the subject's hierarchy (marked by the checker): nothing is ever of it. */
function neverMatches(node: ExprNode): boolean {
  return node.kind === 'TypeName' && node.neverMatches === true;
}

function primitiveTarget(node: ExprNode): EdmPrimitiveTypeName | undefined {
  return node.type?.kind === 'Primitive' ? node.type.name : undefined;
}

/** isof(T) and isof(x, T). */
const isof: Compiled = (args, node, settings) => {
  const typeArg = node.args[node.args.length - 1];
  const subject: Evaluator = node.args.length === 1 ? (entity) => entity : args[0];
  const entityType = entityTypeOf(typeArg);
  if (entityType !== undefined) {
    if (neverMatches(typeArg)) return () => false;
    return (entity) => {
      const value = subject(entity);
      return isStructured(value) && settings.isInstance(value, entityType);
    };
  }
  const target = primitiveTarget(typeArg);
  const declared = node.args.length === 2 ? staticPrimitive(node.args[0]) : undefined;
  return (entity) => {
    const value = subject(entity);
    if (value === null || target === undefined || isStructured(value) || Array.isArray(value)) return false;
    return (declared ?? inferType(value, target)) === target;
  };
};

/**
 * A primitive value converted to `target` (cast); null when it does not convert. Numbers truncate
 * toward zero into integer types and give null out of range (where .NET would overflow).
 */
function castPrimitive(value: RuntimeValue, target: EdmPrimitiveTypeName, declared?: EdmPrimitiveTypeName): RuntimeValue {
  if (value === null || isStructured(value) || Array.isArray(value)) return null;
  const source = declared ?? inferType(value, target);
  if (source === undefined || !canCast(source, target)) return null;
  if (source === target && !isNumberLane(laneOf(target))) return value;
  if (!isNumeric(target)) return laneOf(target) === laneOf(source) ? value : null;
  const range = integerRange(target);
  if (range !== undefined) {
    const exact = toLane('decimal', value) as ExactDecimal | undefined;
    if (exact === undefined) return null;
    const whole = truncateDecimal(exact);
    if (whole < range.min || whole > range.max) return null;
    return fromNumericLane(target, whole);
  }
  const lane = laneOf(target);
  const converted = toLane(lane, value);
  if (
    converted === undefined ||
    converted instanceof Uint8Array ||
    typeof converted === 'string' ||
    typeof converted === 'boolean' ||
    isPreciseInstant(converted)
  )
    return null;
  const result = fromNumericLane(target, converted);
  return target === 'Edm.Single' && typeof result === 'number' ? Math.fround(result) : result;
}

/** cast(T) and cast(x, T). */
const cast: Compiled = (args, node, settings) => {
  const typeArg = node.args[node.args.length - 1];
  const subject: Evaluator = node.args.length === 1 ? (entity) => entity : args[0];
  const entityType = entityTypeOf(typeArg);
  if (entityType !== undefined) {
    if (neverMatches(typeArg)) return () => null;
    return (entity) => {
      const value = subject(entity);
      return isStructured(value) && settings.isInstance(value, entityType) ? value : null;
    };
  }
  const target = primitiveTarget(typeArg);
  const declared = node.args.length === 2 ? staticPrimitive(node.args[0]) : undefined;
  if (target === undefined) return () => null;
  return (entity) => castPrimitive(subject(entity), target, declared);
};

/** The evaluator of every built-in function, by name. @internal (read by the function-table type test) */
export const FUNCTION_EVALUATORS: FunctionTable<Compiled> = {
  substringof: strings((needle, haystack) => haystack.includes(needle)),
  startswith: strings((value, prefix) => value.startsWith(prefix)),
  endswith: strings((value, suffix) => value.endsWith(suffix)),
  length: strings((value) => value.length),
  indexof: strings((value, search) => value.indexOf(search)),
  // .NET String.Replace replaces every occurrence; an empty search string changes nothing here.
  replace: strings((value, search, replacement) => (search === '' ? value : value.split(search).join(replacement))),
  substring,
  tolower: strings((value) => value.toLowerCase()),
  toupper: strings((value) => value.toUpperCase()),
  trim: strings((value) => value.trim()),
  concat: strings((a, b) => a + b),
  year: datePart((date) => date.getUTCFullYear()),
  month: datePart((date) => date.getUTCMonth() + 1),
  day: datePart((date) => date.getUTCDate()),
  hour: datePart(
    (date) => date.getUTCHours(),
    (ms) => Math.trunc(ms / MS_PER_HOUR) % 24,
  ),
  minute: datePart(
    (date) => date.getUTCMinutes(),
    (ms) => Math.trunc(ms / MS_PER_MINUTE) % 60,
  ),
  second: datePart(
    (date) => date.getUTCSeconds(),
    (ms) => Math.trunc(ms / MS_PER_SECOND) % 60,
  ),
  round: rounding(roundDecimal, roundAwayFromZero),
  floor: rounding(floorDecimal, Math.floor),
  ceiling: rounding(ceilingDecimal, Math.ceil),
  isof,
  cast,
};

/** Compile a call; the arguments are compiled already (TypeName arguments compile to null). */
export function compileCall(node: CallNode, args: readonly Evaluator[], settings: EvaluationSettings): Evaluator {
  // isof/cast take the type argument from the node; the evaluators list excludes it.
  const valueArgs = takesTypeName(node.name) ? args.slice(0, -1) : args;
  const compiled = FUNCTION_EVALUATORS[node.name](valueArgs, node, settings);
  return (entity: Entity) => orNull(compiled(entity));
}
