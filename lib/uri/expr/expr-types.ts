/** The static types the checker assigns (ExprType values), shared and frozen, and how messages name them. */
import type { EdmPrimitiveTypeName } from '../../edm/primitives';
import { assertNever } from '../../util';
import type { ExprType } from './ast';

const TYPE_CACHE = new Map<EdmPrimitiveTypeName, ExprType>();

/** The (shared, frozen) ExprType of a primitive type. */
export function primitiveType(name: EdmPrimitiveTypeName): ExprType {
  let type = TYPE_CACHE.get(name);
  if (type === undefined) {
    type = Object.freeze({ kind: 'Primitive', name } as const);
    TYPE_CACHE.set(name, type);
  }
  return type;
}

export const BOOLEAN_TYPE = primitiveType('Edm.Boolean');
export const NULL_TYPE: ExprType = Object.freeze({ kind: 'Null' });
export const DYNAMIC_TYPE: ExprType = Object.freeze({ kind: 'Dynamic' });

/** How a type reads in a message: `Edm.String`, `ODataDemo.Address`, `null`. */
export function describeType(type: ExprType | undefined): string {
  if (type === undefined) return 'an unknown type';
  switch (type.kind) {
    case 'Primitive':
      return type.name;
    case 'Null':
      return 'null';
    case 'Complex':
    case 'Entity':
      return type.qualifiedName;
    case 'Dynamic':
      return 'a dynamic property';
    default:
      return assertNever(type, 'expression type');
  }
}
