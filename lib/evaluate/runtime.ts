/**
 * Shared types of the evaluator: what compiled closures return, how navigation and entity types are
 * resolved at run time, and small guards over the typed AST.
 */
import type { EdmEntityType, EdmNavigationProperty } from '../edm/model';
import { isPlainObject } from '../edm/primitives';
import type { ComplexValue, EdmPrimitiveTypeName, PrimitiveValue } from '../edm/primitives';
import type { ExprNode } from '../uri/expr/ast';
import type { Entity } from '../provider/types';

/** What an expression evaluates to: a primitive, a complex value, an entity (navigation), or null. */
export type RuntimeValue = PrimitiveValue | ComplexValue | Entity | readonly Entity[] | null;

/** A compiled expression: a closure over one entity. */
export type Evaluator = (entity: Entity) => RuntimeValue;

/**
 * Resolves a single-valued navigation property in a member path (`Category/Name`): the related
 * entity, or null/undefined when there is none. The default reads `entity[property.name]`.
 */
export type NavigationAccess = (entity: Entity, property: EdmNavigationProperty) => Entity | null | undefined;

/** How the evaluator reaches related entities and learns an entity's type. */
export interface EvaluationOptions {
  /** Resolves single-valued navigation in member paths; default: `entity[property.name]`. */
  readonly navigate?: NavigationAccess;
  /**
   * The entity type of an entity, for `isof`/`cast` over an inheritance hierarchy. By default an
   * entity is of a derived type when it has (as own keys) the properties that type declares.
   */
  readonly typeOf?: (entity: Entity) => EdmEntityType | undefined;
}

/** The second argument of the compile functions: a navigation function or the full options. */
export type EvaluationAccess = NavigationAccess | EvaluationOptions | undefined;

/** Options with defaults filled in. */
export interface EvaluationSettings {
  readonly navigate: NavigationAccess;
  readonly isInstance: (entity: Entity, type: EdmEntityType) => boolean;
}

/** True for a plain object that can hold properties (an entity or a complex value). */
export function isStructured(value: unknown): value is Entity {
  return isPlainObject(value);
}

const defaultNavigate: NavigationAccess = (entity, property) => {
  const value = entity[property.name];
  return isStructured(value) ? value : null;
};

/** Heuristic type test: every type below the hierarchy's root in `type`'s chain has its own properties present. */
function hasPropertiesOf(entity: Entity, type: EdmEntityType): boolean {
  for (let current: EdmEntityType | undefined = type; current?.baseType !== undefined; current = current.baseType) {
    for (const property of current.declaredProperties) {
      if (!Object.prototype.hasOwnProperty.call(entity, property.name)) return false;
    }
  }
  return true;
}

function derivesFrom(type: EdmEntityType, ancestor: EdmEntityType): boolean {
  for (let current: EdmEntityType | undefined = type; current !== undefined; current = current.baseType) {
    if (current === ancestor || current.qualifiedName === ancestor.qualifiedName) return true;
  }
  return false;
}

/** Fill in defaults once per compile. */
export function resolveSettings(access: EvaluationAccess): EvaluationSettings {
  const options: EvaluationOptions = typeof access === 'function' ? { navigate: access } : (access ?? {});
  const typeOf = options.typeOf;
  return {
    navigate: options.navigate ?? defaultNavigate,
    isInstance:
      typeOf === undefined
        ? hasPropertiesOf
        : (entity, type) => {
            const actual = typeOf(entity);
            return actual === undefined ? hasPropertiesOf(entity, type) : derivesFrom(actual, type);
          },
  };
}

/** The declared primitive type of a node (from the checker, or a literal's own type); undefined if unknown. */
export function staticPrimitive(node: ExprNode): EdmPrimitiveTypeName | undefined {
  if (node.type !== undefined) return node.type.kind === 'Primitive' ? node.type.name : undefined;
  return node.kind === 'Literal' && node.literalType !== null ? node.literalType : undefined;
}

/** True for the `null` literal (or anything the checker typed as Null). */
export function isNullTyped(node: ExprNode): boolean {
  if (node.type !== undefined) return node.type.kind === 'Null';
  return node.kind === 'Literal' && node.literalType === null;
}

/** `undefined` (an absent property) reads as null. */
export function orNull(value: RuntimeValue | undefined): RuntimeValue {
  return value === undefined ? null : value;
}
