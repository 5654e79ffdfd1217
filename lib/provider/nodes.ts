/**
 * Builders of type-checked filter AST nodes (the shapes the parser and type checker produce) for
 * the conditions the kit hands to providers: the `$skiptoken` keyset condition, the If-Match
 * condition, the keys of a batched read, SAP's `search`. `and`/`or` fold the constants away so a translator sees
 * no `true and ...`.
 */
import { inferPrimitiveType } from '../edm/payload-values';
import type { EdmEntityType } from '../edm/model';
import { isPreciseInstant } from '../edm/precise-instant';
import type { EdmPrimitiveTypeName, PrimitiveValue } from '../edm/primitives';
import type { BinaryNode, ExprNode, LiteralNode, MemberNode } from '../uri/expr/ast';
import type { EntityKey, PositionValue } from '../uri/types';

const BOOLEAN = { kind: 'Primitive', name: 'Edm.Boolean' } as const;

/** A typed literal; `type` defaults to the type the JS value implies (Edm.DateTime for a PreciseInstant). */
export function literal(value: PositionValue | null, type: EdmPrimitiveTypeName | undefined): LiteralNode {
  if (value === null) return { kind: 'Literal', literalType: null, value: null, type: { kind: 'Null' } };
  const literalType = type ?? (isPreciseInstant(value) ? 'Edm.DateTime' : inferPrimitiveType(value));
  return { kind: 'Literal', literalType, value, type: { kind: 'Primitive', name: literalType } };
}

/** A Boolean-valued binary node (comparisons and logical operators). */
export function binary(operator: BinaryNode['operator'], left: ExprNode, right: ExprNode): BinaryNode {
  return { kind: 'Binary', operator, left, right, type: BOOLEAN };
}

export const TRUE = literal(true, 'Edm.Boolean');
export const FALSE = literal(false, 'Edm.Boolean');

export function and(left: ExprNode, right: ExprNode): ExprNode {
  if (left === TRUE) return right;
  if (right === TRUE) return left;
  if (left === FALSE || right === FALSE) return FALSE;
  return binary('and', left, right);
}

export function or(left: ExprNode, right: ExprNode): ExprNode {
  if (left === FALSE) return right;
  if (right === FALSE) return left;
  return binary('or', left, right);
}

/** A type-checked member node for a primitive property of `entityType` (a key or concurrency property). */
export function propertyMember(entityType: EdmEntityType, name: string): MemberNode {
  const property = entityType.propertiesByName.get(name);
  if (property === undefined || property.type.kind !== 'Primitive') throw new TypeError(`'${name}' is not a primitive property of ${entityType.qualifiedName}`);
  return { kind: 'Member', path: [name], steps: [{ kind: 'Property', name, property }], type: { kind: 'Primitive', name: property.type.name } };
}

/**
 * True when any of `conditions` holds, false for none: a balanced `or` tree, so that its depth
 * grows with the logarithm of their number (a hundred keys nest 7 deep, not 100) and a translator
 * or evaluator that recurses over it stays shallow.
 */
export function anyOf(conditions: readonly ExprNode[]): ExprNode {
  if (conditions.length === 0) return FALSE;
  if (conditions.length === 1) return conditions[0];
  const middle = conditions.length >>> 1;
  return or(anyOf(conditions.slice(0, middle)), anyOf(conditions.slice(middle)));
}

/** True when every one of `conditions` holds, true for none: a balanced `and` tree (see `anyOf`). */
export function allOf(conditions: readonly ExprNode[]): ExprNode {
  if (conditions.length === 0) return TRUE;
  if (conditions.length === 1) return conditions[0];
  const middle = conditions.length >>> 1;
  return and(allOf(conditions.slice(0, middle)), allOf(conditions.slice(middle)));
}

/** The condition that selects the entity with `key`: `ID eq 1`, or `A eq 1 and B eq 'x'` for a composite key. */
export function keyCondition(entityType: EdmEntityType, key: EntityKey): ExprNode {
  let condition: ExprNode = TRUE;
  for (const property of entityType.key) {
    const type = property.type.kind === 'Primitive' ? property.type.name : undefined;
    condition = and(condition, binary('eq', propertyMember(entityType, property.name), literal(key[property.name] ?? null, type)));
  }
  return condition;
}

/** Key types whose `eq` is identity of the stored key: a direct lookup finds exactly what the filter keeps. */
const LOOKUP_KEY_TYPES: ReadonlySet<EdmPrimitiveTypeName> = new Set(['Edm.Byte', 'Edm.SByte', 'Edm.Int16', 'Edm.Int32', 'Edm.Int64', 'Edm.String', 'Edm.Guid']);

/** The terms of a left-nested or balanced tree of `operator`. */
function terms(node: ExprNode, operator: 'and' | 'or', into: ExprNode[]): ExprNode[] {
  if (node.kind === 'Binary' && node.operator === operator) {
    terms(node.left, operator, into);
    terms(node.right, operator, into);
  } else {
    into.push(node);
  }
  return into;
}

/** `[name, value]` of `Key eq literal` (either way round) for a key property of `entityType` and a literal of its type. */
function keyEquality(node: ExprNode, entityType: EdmEntityType): [string, PrimitiveValue] | undefined {
  if (node.kind !== 'Binary' || node.operator !== 'eq') return undefined;
  const [member, value] = node.left.kind === 'Member' ? [node.left, node.right] : [node.right, node.left];
  if (member.kind !== 'Member' || value.kind !== 'Literal' || member.base !== undefined || member.steps?.length !== 1) return undefined;
  const [step] = member.steps;
  if (step.kind !== 'Property' || !step.property.isKey || entityType.propertiesByName.get(step.name) !== step.property) return undefined;
  const type = step.property.type.kind === 'Primitive' ? step.property.type.name : undefined;
  if (type === undefined || !LOOKUP_KEY_TYPES.has(type) || value.literalType !== type || value.value === null || isPreciseInstant(value.value))
    return undefined;
  return [step.name, value.value];
}

/**
 * The keys a filter selects when it is nothing but a disjunction of key conditions (what `anyOf`
 * over `keyCondition`s builds for a batched read, or a client's `ID eq 1 or ID eq 2`), else
 * undefined: a provider may then look those keys up instead of testing every entity. Only for key
 * types whose equality is the identity of the stored value (integers, strings, Guids); a literal
 * of another type than the key's, a null, a navigation path or any other operator is undefined.
 */
export function keysOfCondition(filter: ExprNode, entityType: EdmEntityType): EntityKey[] | undefined {
  const keys: EntityKey[] = [];
  for (const disjunct of terms(filter, 'or', [])) {
    const key: Record<string, PrimitiveValue> = {};
    for (const conjunct of terms(disjunct, 'and', [])) {
      const equality = keyEquality(conjunct, entityType);
      if (equality === undefined || Object.prototype.hasOwnProperty.call(key, equality[0])) return undefined;
      key[equality[0]] = equality[1];
    }
    if (entityType.key.some((property) => !Object.prototype.hasOwnProperty.call(key, property.name))) return undefined;
    keys.push(key);
  }
  return keys;
}
