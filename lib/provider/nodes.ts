/**
 * Builders of type-checked filter AST nodes (the shapes the parser and type checker produce) for
 * the conditions the kit hands to providers: the `$skiptoken` keyset condition, the If-Match
 * condition, the keys of a batched read. `and`/`or` fold the constants away so a translator sees
 * no `true and ...`.
 */
import { inferPrimitiveType } from '../edm/payload-values';
import type { EdmEntityType } from '../edm/model';
import type { EdmPrimitiveTypeName, PrimitiveValue } from '../edm/primitives';
import type { BinaryNode, ExprNode, LiteralNode, MemberNode } from '../uri/expr/ast';
import type { EntityKey } from '../uri/types';

const BOOLEAN = { kind: 'Primitive', name: 'Edm.Boolean' } as const;

/** A typed literal; `type` defaults to the type the JS value implies. */
export function literal(value: PrimitiveValue | null, type: EdmPrimitiveTypeName | undefined): LiteralNode {
  if (value === null) return { kind: 'Literal', literalType: null, value: null, type: { kind: 'Null' } };
  const literalType = type ?? inferPrimitiveType(value);
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

/** The condition that selects the entity with `key`: `ID eq 1`, or `A eq 1 and B eq 'x'` for a composite key. */
export function keyCondition(entityType: EdmEntityType, key: EntityKey): ExprNode {
  let condition: ExprNode = TRUE;
  for (const property of entityType.key) {
    const type = property.type.kind === 'Primitive' ? property.type.name : undefined;
    condition = and(condition, binary('eq', propertyMember(entityType, property.name), literal(key[property.name] ?? null, type)));
  }
  return condition;
}
