/**
 * The type checker: a parsed expression plus an entity type -> a NEW tree with `type` on every node
 * and `steps` on every member path (MS-ODATA §2.2.3.6.1.1.1 "Expression Construction and Evaluation
 * Rules"). Numeric promotions come from promotion.ts and signatures from functions.ts. It never
 * evaluates anything; errors are 400 with the position in the source text.
 */
import { ODataError } from '../../errors';
import { convertLiteral } from '../../edm/literals';
import type { EdmEntityType, EdmModel } from '../../edm/model';
import { isPrimitiveTypeName, PRIMITIVE_TYPES } from '../../edm/primitives';
import { assertNever } from '../../util';
import type { BinaryNode, CallNode, ExprNode, ExprType, LiteralNode, MemberNode, TypeNameNode, UnaryNode } from './ast';
import { BOOLEAN_TYPE as BOOLEAN, describeType, DYNAMIC_TYPE as DYNAMIC, NULL_TYPE as NULL, primitiveType } from './expr-types';
import { BUILTIN_FUNCTIONS, formatSignature, type FunctionSignature } from './functions';
import { resolveMemberPath } from './member-path';
import { printExpression } from './printer';
import { areComparable, arithmeticType, canCast, canPromote, isNumeric, widenSmallInteger } from './promotion';
import { clip, excerpt, sourceOf, suggest, typeError, type ExpressionSource } from './source';

export { describeType } from './expr-types';

/** Where the checked expression came from, when it was not parsed by `parseExpression` (for messages). */
interface CheckOptions {
  readonly text?: string;
  readonly target?: string;
}

/**
 * Type-check a `$filter`: the result must be Edm.Boolean (or a dynamic property, known per entity).
 *
 *   filter = boolCommonExpression
 */
export function checkFilter(ast: ExprNode, entityType: EdmEntityType, model: EdmModel, options: CheckOptions = {}): ExprNode {
  const checker = new Checker(sourceFor(ast, options, '$filter'), entityType, model);
  const checked = checker.check(ast);
  const type = checked.type;
  if (type?.kind !== 'Dynamic' && !(type?.kind === 'Primitive' && type.name === 'Edm.Boolean')) {
    throw checker.error(ast, `the expression must be of type Edm.Boolean, but it is ${describeType(type)}`);
  }
  return checked;
}

/** Type-check one `$orderby` expression: the result must be primitive (or dynamic, or `null`). */
export function checkExpression(ast: ExprNode, entityType: EdmEntityType, model: EdmModel, options: CheckOptions = {}): ExprNode {
  const checker = new Checker(sourceFor(ast, options, '$orderby'), entityType, model);
  const checked = checker.check(ast);
  const kind = checked.type?.kind;
  if (kind === 'Complex' || kind === 'Entity') {
    throw checker.error(ast, `cannot sort by ${describeType(checked.type)}: only primitive values can be compared`);
  }
  return checked;
}

function sourceFor(ast: ExprNode, options: CheckOptions, target: string): ExpressionSource {
  const recorded = sourceOf(ast);
  if (options.text !== undefined) return { text: options.text, target: options.target ?? recorded?.target ?? target };
  return recorded ?? { text: printExpression(ast), target: options.target ?? target };
}

/**
 * `{ ...node, ...fields, ...more }`: a checked node is a copy with its type (and resolved parts)
 * added. Written with Object.assign: V8 takes a slow path for a spread that adds keys (~0.4 µs per
 * node, several per $filter).
 */
function extend<T extends object, A extends object>(node: T, fields: A): T & A;
function extend<T extends object, A extends object, B extends object>(node: T, fields: A, more: B): T & A & B;
function extend(node: object, fields: object, more?: object): object {
  return more === undefined ? Object.assign({}, node, fields) : Object.assign({}, node, fields, more);
}

class Checker {
  constructor(
    private readonly source: ExpressionSource,
    private readonly entityType: EdmEntityType,
    private readonly model: EdmModel,
  ) {}

  check(node: ExprNode): ExprNode {
    switch (node.kind) {
      case 'Literal':
        return extend(node, { type: node.literalType === null ? NULL : primitiveType(node.literalType) });
      case 'Member':
        return this.member(node);
      case 'Binary':
        return this.binary(node);
      case 'Unary':
        return this.unary(node);
      case 'Call':
        return this.call(node);
      case 'TypeName':
        throw this.error(node, `the type name '${clip(node.name)}' may only appear as the last argument of isof or cast`);
      default:
        return assertNever(node, 'expression node');
    }
  }

  error(node: ExprNode, detail: string): ODataError {
    return typeError(this.source, node.loc?.start ?? 0, detail);
  }

  /** A member path, from the current entity or from a cast (`cast('NS.T')/Prop`). */
  private member(node: MemberNode): ExprNode {
    if (node.base === undefined) return extend(node, resolveMemberPath(node.path, this.entityType, this.source, node.loc?.start ?? 0));
    const base = this.check(node.base);
    const type = base.type;
    const entity = type?.kind === 'Entity' ? this.model.entityTypes.get(type.qualifiedName) : undefined;
    if (entity === undefined) throw this.error(node.base, `${describeType(type)} has no properties to select with '/'`);
    return extend(node, resolveMemberPath(node.path, entity, this.source, node.base.loc?.end ?? 0), { base });
  }

  // --- operators ----------------------------------------------------------------------------------

  private binary(node: BinaryNode): ExprNode {
    let left = this.check(node.left);
    let right = this.check(node.right);
    const { operator } = node;
    if (operator === 'and' || operator === 'or') {
      this.expectBoolean(left, operator);
      this.expectBoolean(right, operator);
      return extend(node, { left, right, type: BOOLEAN });
    }
    // WCF re-reads a float literal met by a Decimal from its digits: `Price gt 20.5` compares exactly.
    left = this.decimalLiteral(left, right);
    right = this.decimalLiteral(right, left);
    const lt = left.type;
    const rt = right.type;
    if (operator === 'eq' || operator === 'ne' || operator === 'lt' || operator === 'le' || operator === 'gt' || operator === 'ge') {
      const ordered = operator !== 'eq' && operator !== 'ne';
      if (!this.comparable(lt, rt, ordered)) {
        throw this.error(node, `the operator '${operator}' cannot compare ${describeType(lt)} with ${describeType(rt)}`);
      }
      return extend(node, { left, right, type: BOOLEAN });
    }
    // add, sub, mul, div, mod: MS-ODATA §2.2.3.6.1.1.1 requires numeric operands.
    this.expectNumeric(left, operator);
    this.expectNumeric(right, operator);
    return extend(node, { left, right, type: this.arithmeticResult(lt, rt) });
  }

  private arithmeticResult(left: ExprType | undefined, right: ExprType | undefined): ExprType {
    if (left?.kind === 'Dynamic' || right?.kind === 'Dynamic') return DYNAMIC;
    if (left?.kind === 'Primitive' && right?.kind === 'Primitive') {
      const type = arithmeticType(left.name, right.name);
      if (type !== undefined) return primitiveType(type);
    }
    if (left?.kind === 'Primitive') return primitiveType(widenSmallInteger(left.name));
    if (right?.kind === 'Primitive') return primitiveType(widenSmallInteger(right.name));
    return NULL;
  }

  private comparable(left: ExprType | undefined, right: ExprType | undefined, ordered: boolean): boolean {
    if (left === undefined || right === undefined) return false;
    if (left.kind === 'Null' || right.kind === 'Null') {
      // `Category eq null` is fine; ordering a complex or entity value is not.
      const other = left.kind === 'Null' ? right : left;
      return !ordered || (other.kind !== 'Complex' && other.kind !== 'Entity');
    }
    if (left.kind === 'Dynamic' || right.kind === 'Dynamic') {
      const other = left.kind === 'Dynamic' ? right : left;
      return other.kind === 'Dynamic' || other.kind === 'Primitive';
    }
    if (left.kind === 'Primitive' && right.kind === 'Primitive') return areComparable(left.name, right.name, ordered);
    return false;
  }

  private decimalLiteral(node: ExprNode, other: ExprNode): ExprNode {
    if (node.kind !== 'Literal' || (node.literalType !== 'Edm.Double' && node.literalType !== 'Edm.Single')) return node;
    if (other.type?.kind !== 'Primitive' || other.type.name !== 'Edm.Decimal' || typeof node.value !== 'number') return node;
    const value = convertLiteral({ type: node.literalType, value: node.value, text: node.text }, 'Edm.Decimal');
    if (typeof value !== 'string') return node; // NaN and the infinities stay doubles (and then fail)
    const retyped: LiteralNode = { kind: 'Literal', literalType: 'Edm.Decimal', value, type: primitiveType('Edm.Decimal') };
    return node.loc === undefined ? retyped : { ...retyped, loc: node.loc };
  }

  private expectBoolean(node: ExprNode, operator: string): void {
    const type = node.type;
    if (type?.kind === 'Null' || type?.kind === 'Dynamic') return;
    if (type?.kind === 'Primitive' && type.name === 'Edm.Boolean') return;
    throw this.error(node, `the operator '${operator}' needs Edm.Boolean operands, but this one is ${describeType(type)}`);
  }

  private expectNumeric(node: ExprNode, operator: string): void {
    const type = node.type;
    if (type?.kind === 'Null' || type?.kind === 'Dynamic') return;
    if (type?.kind === 'Primitive' && isNumeric(type.name)) return;
    throw this.error(node, `the operator '${operator}' needs numeric operands, but this one is ${describeType(type)}`);
  }

  private unary(node: UnaryNode): ExprNode {
    const operand = this.check(node.operand);
    if (node.operator === 'not') {
      this.expectBoolean(operand, 'not');
      return extend(node, { operand, type: BOOLEAN });
    }
    this.expectNumeric(operand, '-');
    const type = operand.type?.kind === 'Primitive' ? primitiveType(widenSmallInteger(operand.type.name)) : (operand.type ?? NULL);
    return extend(node, { operand, type });
  }

  // --- function calls -----------------------------------------------------------------------------

  private call(node: CallNode): ExprNode {
    const builtin = BUILTIN_FUNCTIONS[node.name];
    const args = node.args.map((arg) => (arg.kind === 'TypeName' ? this.typeName(arg) : this.check(arg)));
    const candidates = builtin.signatures.filter((s) => s.parameters.length === args.length);
    if (candidates.length === 0) {
      const position = node.loc?.start ?? 0;
      const expected = [...new Set(builtin.signatures.map((s) => s.parameters.length))].join(' or ');
      throw ODataError.fromCode(
        'FILTER_ARITY',
        { name: node.name, expected, actual: args.length, position, text: excerpt(this.source.text, position) },
        { target: this.source.target, position },
      );
    }
    const signature = this.overload(candidates, args);
    if (signature === undefined) {
      const given = args.map((arg) => describeType(arg.type)).join(', ');
      const expected = candidates.map((s) => formatSignature(node.name, s)).join(' or ');
      throw this.error(node, `no overload of '${node.name}' takes (${given}); expected ${expected}`);
    }
    if (node.name === 'isof' || node.name === 'cast') return this.typeFunction(node, args);
    if (signature.returns === 'TypeArgument') throw this.error(node, `'${node.name}' has no type argument`);
    return extend(node, { args, type: primitiveType(signature.returns) });
  }

  /** The best overload: all arguments fit, fewest numeric promotions, earliest in the table. */
  private overload(candidates: readonly FunctionSignature[], args: readonly ExprNode[]): FunctionSignature | undefined {
    let best: FunctionSignature | undefined;
    let bestCost = Infinity;
    for (const signature of candidates) {
      let cost = 0;
      for (let i = 0; i < args.length && cost < Infinity; i++) cost += argumentCost(signature.parameters[i], args[i]);
      if (cost < bestCost) {
        best = signature;
        bestCost = cost;
      }
    }
    return best;
  }

  /** A `'Edm.Int32'` or `'NS.Type'` argument: a primitive type or an entity type of the model. */
  private typeName(node: TypeNameNode): ExprNode {
    if (isPrimitiveTypeName(node.name)) return extend(node, { type: primitiveType(node.name) });
    const entity = this.model.entityTypes.get(node.name);
    if (entity !== undefined) return extend(node, { type: { kind: 'Entity', qualifiedName: entity.qualifiedName }, entityType: entity });
    const known = [...this.model.entityTypes.keys(), ...PRIMITIVE_TYPES.keys()];
    throw this.error(node, `unknown type '${clip(node.name)}'.${suggest(node.name, known)}`);
  }

  /**
   * isof / cast (MS-ODATA isofExpression, castExpression). With one argument they test or narrow
   * the current entity; with two, a primitive value converts between numeric types (or
   * DateTime/DateTimeOffset), and an entity narrows within its hierarchy. An entity type outside
   * the subject's hierarchy is not an error: no value can be of it, so `isof` is false and `cast`
   * null (WCF Data Services answered so); the type name is marked `neverMatches`.
   */
  private typeFunction(node: CallNode, given: readonly ExprNode[]): ExprNode {
    let args = given;
    let target = args[args.length - 1];
    const targetType = target.type;
    const subject: ExprType = args.length === 1 ? { kind: 'Entity', qualifiedName: this.entityType.qualifiedName } : (args[0].type ?? DYNAMIC);
    const isCast = node.name === 'cast';
    if (targetType?.kind === 'Entity') {
      if (subject.kind !== 'Entity' && subject.kind !== 'Null' && subject.kind !== 'Dynamic') {
        throw this.error(target, `${describeType(subject)} cannot be ${isCast ? 'cast to' : 'tested for'} the entity type ${targetType.qualifiedName}`);
      }
      if (subject.kind === 'Entity' && !this.related(subject.qualifiedName, targetType.qualifiedName)) {
        target = extend(target, { neverMatches: true });
        args = [...args.slice(0, -1), target];
      }
    } else if (targetType?.kind === 'Primitive') {
      if (subject.kind === 'Entity' || subject.kind === 'Complex') {
        throw this.error(target, `${describeType(subject)} cannot be ${isCast ? 'cast to' : 'tested for'} the primitive type ${targetType.name}`);
      }
      if (isCast && subject.kind === 'Primitive' && !canCast(subject.name, targetType.name)) {
        throw this.error(node, `cannot cast ${subject.name} to ${targetType.name}`);
      }
    }
    return extend(node, { args, type: isCast ? (targetType ?? DYNAMIC) : BOOLEAN });
  }

  /** True when one entity type derives from the other (or they are the same). */
  private related(a: string, b: string): boolean {
    const typeA = this.model.entityTypes.get(a);
    const typeB = this.model.entityTypes.get(b);
    if (typeA === undefined || typeB === undefined) return false;
    return derivesFrom(typeA, typeB) || derivesFrom(typeB, typeA);
  }
}

/** True when `type` is `ancestor` or derives from it. */
export function derivesFrom(type: EdmEntityType, ancestor: EdmEntityType): boolean {
  for (let current: EdmEntityType | undefined = type; current !== undefined; current = current.baseType) {
    if (current === ancestor) return true;
  }
  return false;
}

/** 0 for an exact fit, 1 for a numeric promotion, Infinity when the argument does not fit. */
function argumentCost(parameter: FunctionSignature['parameters'][number], arg: ExprNode): number {
  const type = arg.type;
  if (parameter === 'TypeName') return arg.kind === 'TypeName' ? 0 : Infinity;
  if (arg.kind === 'TypeName') return Infinity;
  if (type?.kind === 'Null' || type?.kind === 'Dynamic') return 0;
  if (parameter === 'Any') return 0;
  if (type?.kind !== 'Primitive') return Infinity;
  if (type.name === parameter) return 0;
  return canPromote(type.name, parameter) ? 1 : Infinity;
}
