/**
 * Compile a typed expression AST into closures over an entity, once per request: types, lanes,
 * literal conversions and member steps are decided here, so the returned functions do no AST or
 * string inspection per entity. Semantics (MS-ODATA §2.2.3.6.1.1.1, as WCF Data Services ran them):
 * arithmetic with null is null; `eq`/`ne` treat null as a value (`X eq null` is true when X is
 * null); `lt`/`le`/`gt`/`ge` with a null operand are false; `and`/`or`/`not` use three-valued logic
 * and a filter keeps an entity only when the result is true.
 */
import { ODataError } from '../errors';
import { isPreciseInstant } from '../edm/precise-instant';
import { laneOf, type PrimitiveLane, type PrimitiveValue } from '../edm/primitives';
import type { BinaryNode, ExprNode, MemberNode, MemberStep, UnaryNode } from '../uri/expr/ast';
import { printExpression } from '../uri/expr/printer';
import { isNumeric, promoteNumeric, widenSmallInteger } from '../uri/expr/promotion';
import { arithmeticOperation, negation, type ArithmeticOperator, type NumericLaneValue } from './arithmetic';
import { compileCall } from './builtins';
import { commonType, fromNumericLane, inferPair, inferType, toLane, type LaneValue } from './coerce';
import { compareKnown, laneComparator } from './compare';
import { shortDecimalNumber } from './decimal';
import {
  isNullTyped,
  isStructured,
  orNull,
  resolveSettings,
  staticPrimitive,
  type EvaluationAccess,
  type EvaluationSettings,
  type Evaluator,
  type RuntimeValue,
} from './runtime';
import type { Entity } from '../provider/types';

/** Compile any expression to a closure returning its value for an entity. */
export function compileExpression(node: ExprNode, access?: EvaluationAccess): Evaluator {
  return compileNode(node, resolveSettings(access));
}

/** Compile a `$filter` to a predicate: true only where the expression is true (not false, not null). */
export function compileFilter(filter: ExprNode, access?: EvaluationAccess): (entity: Entity) => boolean {
  const evaluator = compileNode(filter, resolveSettings(access));
  return (entity) => evaluator(entity) === true;
}

const DEFAULT_COMPILED = new WeakMap<ExprNode, Evaluator>();

/**
 * Evaluate one expression for one entity (e.g. the `$orderby` values of a page's last entry).
 * Non-primitive results (an entity, a complex value) are returned as null.
 */
export function evaluate(node: ExprNode, entity: Entity, access?: EvaluationAccess): PrimitiveValue | null {
  let evaluator = access === undefined ? DEFAULT_COMPILED.get(node) : undefined;
  if (evaluator === undefined) {
    evaluator = compileExpression(node, access);
    if (access === undefined) DEFAULT_COMPILED.set(node, evaluator);
  }
  const value = evaluator(entity);
  return value === null || isStructured(value) || Array.isArray(value) ? null : (value as PrimitiveValue);
}

function compileNode(node: ExprNode, settings: EvaluationSettings): Evaluator {
  switch (node.kind) {
    case 'Literal': {
      // A precise instant (a keyset bound) compares by its full value through `inLane`; anywhere
      // else it is the millisecond a Date holds.
      const value = isPreciseInstant(node.value) ? node.value.date : node.value;
      return () => value;
    }
    case 'Member':
      return compileMember(node, settings);
    case 'Binary':
      return compileBinary(node, settings);
    case 'Unary':
      return compileUnary(node, settings);
    case 'Call':
      return compileCall(
        node,
        node.args.map((arg) => compileNode(arg, settings)),
        settings,
      );
    case 'TypeName':
      return () => null;
  }
}

// --- member paths ---------------------------------------------------------------------------------

type Step = (holder: Entity) => RuntimeValue | undefined;

function compileStep(step: MemberStep, settings: EvaluationSettings): Step {
  const name = step.name;
  switch (step.kind) {
    case 'Property':
      // A declared structural property holds a PropertyValue; only navigation values can be streams.
      return (holder) => holder[name] as RuntimeValue | undefined;
    case 'Navigation': {
      const property = step.property;
      return (holder) => settings.navigate(holder, property);
    }
    case 'Dynamic':
      // Own properties only: a client-chosen name must not reach `constructor` or `__proto__`.
      return (holder) => (Object.prototype.hasOwnProperty.call(holder, name) ? notStream(holder[name]) : undefined);
  }
}

/** A provider's value as the evaluator sees it: a stream of entities (an expanded feed) compares as absent. */
function notStream(value: Entity[string]): RuntimeValue | undefined {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value ? undefined : value;
}

/** `A/B/C`: each step reads from the previous value; a null (or absent) value on the way gives null. */
function compileMember(node: MemberNode, settings: EvaluationSettings): Evaluator {
  const steps = (node.steps ?? node.path.map((name): MemberStep => ({ kind: 'Dynamic', name }))).map((step) => compileStep(step, settings));
  const base = node.base === undefined ? undefined : compileNode(node.base, settings);
  if (base === undefined && steps.length === 1) {
    const [only] = steps;
    return (entity) => orNull(only(entity));
  }
  return (entity) => {
    let current: RuntimeValue | undefined = base === undefined ? entity : base(entity);
    for (const step of steps) {
      if (!isStructured(current)) return null;
      current = step(current);
    }
    return orNull(current);
  };
}

// --- operators ------------------------------------------------------------------------------------

function compileBinary(node: BinaryNode, settings: EvaluationSettings): Evaluator {
  const left = compileNode(node.left, settings);
  const right = compileNode(node.right, settings);
  switch (node.operator) {
    case 'and':
      return (entity) => {
        const a = booleanOrNull(left(entity));
        if (a === false) return false;
        const b = booleanOrNull(right(entity));
        if (b === false) return false;
        return a === null || b === null ? null : true;
      };
    case 'or':
      return (entity) => {
        const a = booleanOrNull(left(entity));
        if (a === true) return true;
        const b = booleanOrNull(right(entity));
        if (b === true) return true;
        return a === null || b === null ? null : false;
      };
    case 'eq':
    case 'ne':
    case 'lt':
    case 'le':
    case 'gt':
    case 'ge':
      return compileComparison(node, node.operator, left, right);
    default:
      return compileArithmetic(node, node.operator, left, right);
  }
}

function booleanOrNull(value: RuntimeValue): boolean | null {
  return typeof value === 'boolean' ? value : null;
}

/** How a comparison result (-1/0/1, NaN for NaN doubles, undefined for incomparable) answers each operator. */
const OUTCOMES: Readonly<Record<'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge', (order: number | undefined) => boolean>> = {
  eq: (order) => order === 0,
  ne: (order) => order !== 0,
  lt: (order) => order !== undefined && order < 0,
  le: (order) => order !== undefined && order <= 0,
  gt: (order) => order !== undefined && order > 0,
  ge: (order) => order !== undefined && order >= 0,
};

/** A side of a comparison or arithmetic moved into the lane once; literals are converted at compile time. */
function inLane(node: ExprNode, evaluator: Evaluator, lane: PrimitiveLane): (entity: Entity) => LaneValue | null {
  if (node.kind === 'Literal') {
    const constant = node.value === null ? null : (toLane(lane, node.value) ?? null);
    return () => constant;
  }
  return (entity) => {
    const value = evaluator(entity);
    return value === null ? null : (toLane(lane, value) ?? null);
  };
}

function compileComparison(node: BinaryNode, operator: keyof typeof OUTCOMES, left: Evaluator, right: Evaluator): Evaluator {
  const outcome = OUTCOMES[operator];
  const equality = operator === 'eq' || operator === 'ne';
  // MS-ODATA: null equals only null; an ordering comparison with null is false.
  const withNull = (a: unknown, b: unknown): boolean => (equality ? outcome(a === null && b === null ? 0 : 1) : false);
  if (isNullTyped(node.left) || isNullTyped(node.right)) {
    return (entity) => {
      const a = left(entity);
      const b = right(entity);
      return a === null || b === null ? withNull(a, b) : outcome(1);
    };
  }
  const leftType = staticPrimitive(node.left);
  const rightType = staticPrimitive(node.right);
  const common = leftType !== undefined && rightType !== undefined ? commonType(leftType, rightType) : undefined;
  if (common !== undefined) {
    const lane = laneOf(common);
    const compare = laneComparator(lane);
    if (lane === 'decimal') return compileDecimalComparison(node, outcome, withNull, left, right);
    const a = inLane(node.left, left, lane);
    const b = inLane(node.right, right, lane);
    return (entity) => {
      const x = a(entity);
      const y = b(entity);
      return x === null || y === null ? withNull(x, y) : outcome(compare(x, y));
    };
  }
  // A dynamic property (or an untyped tree): types are read from the values, per entity.
  return (entity) => {
    const x = left(entity);
    const y = right(entity);
    if (x === null || y === null) return withNull(x, y);
    return outcome(compareKnown(x, y, leftType, rightType, false));
  };
}

/**
 * A Decimal comparison (`Price gt 20`): short values (at most 15 digits) compare as doubles, which
 * keeps their order and equality exactly (see shortDecimalNumber) and saves a BigInt parse of the
 * stored text per entity; longer values take the exact lane.
 */
function compileDecimalComparison(
  node: BinaryNode,
  outcome: (order: number | undefined) => boolean,
  withNull: (a: unknown, b: unknown) => boolean,
  left: Evaluator,
  right: Evaluator,
): Evaluator {
  const compare = laneComparator('decimal');
  const shortLeft = shortReader(node.left);
  const shortRight = shortReader(node.right);
  return (entity) => {
    const x = left(entity);
    const y = right(entity);
    if (x === null || y === null) return withNull(x, y);
    const shortX = shortLeft(x);
    const shortY = shortRight(y);
    if (shortX !== undefined && shortY !== undefined) return outcome(shortX < shortY ? -1 : shortX > shortY ? 1 : 0);
    const exactX = toLane('decimal', x) ?? null;
    const exactY = toLane('decimal', y) ?? null;
    return exactX === null || exactY === null ? withNull(exactX, exactY) : outcome(compare(exactX, exactY));
  };
}

/** `shortDecimalNumber`, decided once for a literal. */
function shortReader(operand: ExprNode): (value: RuntimeValue) => number | undefined {
  if (operand.kind !== 'Literal') return shortDecimalNumber;
  const constant = shortDecimalNumber(operand.value);
  return () => constant;
}

function divisionByZero(node: ExprNode): () => never {
  return () => {
    throw ODataError.fromCode('FILTER_DIVISION_BY_ZERO', { expression: printExpression(node) });
  };
}

function compileArithmetic(node: BinaryNode, operator: ArithmeticOperator, left: Evaluator, right: Evaluator): Evaluator {
  if (isNullTyped(node.left) || isNullTyped(node.right)) return () => null;
  const leftType = staticPrimitive(node.left);
  const rightType = staticPrimitive(node.right);
  const onZero = divisionByZero(node);
  const common = leftType !== undefined && rightType !== undefined ? promoteNumeric(leftType, rightType) : undefined;
  if (common !== undefined) {
    const lane = laneOf(common);
    const operation = arithmeticOperation(operator, common, onZero);
    const resultType = widenSmallInteger(common);
    const a = inLane(node.left, left, lane);
    const b = inLane(node.right, right, lane);
    return (entity) => {
      const x = a(entity);
      if (x === null) return null;
      const y = b(entity);
      if (y === null) return null;
      return fromNumericLane(resultType, operation(x as NumericLaneValue, y as NumericLaneValue));
    };
  }
  return (entity) => {
    const x = left(entity);
    const y = right(entity);
    if (x === null || y === null) return null;
    const [typeX, typeY] = inferPair(x, y, leftType, rightType);
    const type = typeX !== undefined && typeY !== undefined ? promoteNumeric(typeX, typeY) : undefined;
    if (type === undefined) return null;
    const lane = laneOf(type);
    const a = toLane(lane, x);
    const b = toLane(lane, y);
    if (a === undefined || b === undefined) return null;
    const value = arithmeticOperation(operator, type, onZero)(a as NumericLaneValue, b as NumericLaneValue);
    return fromNumericLane(widenSmallInteger(type), value);
  };
}

function compileUnary(node: UnaryNode, settings: EvaluationSettings): Evaluator {
  const operand = compileNode(node.operand, settings);
  if (node.operator === 'not') {
    return (entity) => {
      const value = booleanOrNull(operand(entity));
      return value === null ? null : !value;
    };
  }
  const declared = staticPrimitive(node.operand);
  if (declared !== undefined && isNumeric(declared)) {
    const lane = laneOf(declared);
    const negate = negation(widenSmallInteger(declared));
    const resultType = widenSmallInteger(declared);
    return (entity) => {
      const value = operand(entity);
      const x = value === null ? undefined : toLane(lane, value);
      return x === undefined ? null : fromNumericLane(resultType, negate(x as NumericLaneValue));
    };
  }
  return (entity) => {
    const value = operand(entity);
    const type = value === null ? undefined : inferType(value);
    if (type === undefined || !isNumeric(type)) return null;
    const x = toLane(laneOf(type), value);
    return x === undefined ? null : fromNumericLane(widenSmallInteger(type), negation(widenSmallInteger(type))(x as NumericLaneValue));
  };
}
