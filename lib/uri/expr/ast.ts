/**
 * The `$filter` / `$orderby` expression AST (MS-ODATA §2.2.3.6.1.1 "Common Expression Syntax").
 * The parser produces these nodes; the type checker returns the same shapes with `type` filled in
 * (the EDM type of the node, or `null` for the untyped `null` literal). Providers translate this AST
 * (e.g. to SQL) or hand it to `evaluate` helpers. Nodes are readonly and discriminated by `kind`.
 */
import type { EdmEntityType, EdmNavigationProperty, EdmProperty } from '../../edm/model';
import type { PreciseInstant } from '../../edm/precise-instant';
import type { EdmPrimitiveTypeName, PrimitiveValue } from '../../edm/primitives';
import type { FunctionName } from './functions';

/** Offsets into the expression text: `start` inclusive, `end` exclusive. */
export interface SourceRange {
  /** Offset of the first character. */
  readonly start: number;
  /** Offset after the last character. */
  readonly end: number;
}

/** The static type of an expression after type checking. */
export type ExprType =
  | { readonly kind: 'Primitive'; readonly name: EdmPrimitiveTypeName }
  | { readonly kind: 'Null' }
  | { readonly kind: 'Complex'; readonly qualifiedName: string }
  | { readonly kind: 'Entity'; readonly qualifiedName: string }
  /** A dynamic property of an open type: its type is only known per entity. */
  | { readonly kind: 'Dynamic' };

/** What every expression node has. */
interface NodeBase {
  /** Where the node is in the expression text, when parsed from text. */
  readonly loc?: SourceRange;
  /** Filled by the type checker. */
  readonly type?: ExprType;
}

/** The binary operators of the expression language, by keyword. */
export type BinaryOperator = 'or' | 'and' | 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge' | 'add' | 'sub' | 'mul' | 'div' | 'mod';
/** `not`, and numeric negation (`-x`). */
export type UnaryOperator = 'not' | 'negate';

/** A literal in any EDM URI form (`'text'`, `12L`, `2.5M`, `datetime'...'`, `null`). */
export interface LiteralNode extends NodeBase {
  /** Always `Literal`: narrows an `ExprNode`. */
  readonly kind: 'Literal';
  /** The literal's EDM type; `null` for the `null` literal. */
  readonly literalType: EdmPrimitiveTypeName | null;
  /**
   * The value in its JavaScript form (see the primitives table); null for `null`. A
   * PreciseInstant only in a condition the kit builds from a position finer than milliseconds
   * (`seekCondition`): it compares by its full value. The parser never makes one.
   */
  readonly value: PrimitiveValue | PreciseInstant | null;
  /** The literal as written, when parsed from text (the printer reuses it, so print→parse is exact). */
  readonly text?: string;
}

/** One step of a member path, as resolved by the type checker. */
export type MemberStep =
  | { readonly kind: 'Property'; readonly name: string; readonly property: EdmProperty }
  | { readonly kind: 'Navigation'; readonly name: string; readonly property: EdmNavigationProperty }
  | { readonly kind: 'Dynamic'; readonly name: string };

/**
 * A property path from the current entity (`Name`, `Address/City`, `Category/Name`). The parser
 * fills `path`; the checker fills `steps` with what each name resolved to.
 */
export interface MemberNode extends NodeBase {
  /** Always `Member`: narrows an `ExprNode`. */
  readonly kind: 'Member';
  /** The names of the path, as written (`['Category', 'Name']`). */
  readonly path: readonly string[];
  /** What each name resolved to; filled by the type checker. */
  readonly steps?: readonly MemberStep[];
  /**
   * Where the path starts when not at the current entity: the result of `cast('NS.Derived')` (MS-ODATA
   * memberExpression = commonExpression "/" property), e.g. `cast('NS.Derived')/Extra`.
   */
  readonly base?: ExprNode;
}

/** A binary operation (`Price gt 20`, `a and b`). */
export interface BinaryNode extends NodeBase {
  /** Always `Binary`: narrows an `ExprNode`. */
  readonly kind: 'Binary';
  /** `eq`, `add`, `and`, ... as written in the URI. */
  readonly operator: BinaryOperator;
  /** The operand before the operator (`Price` in `Price gt 20`). */
  readonly left: ExprNode;
  /** The operand after the operator (`20` in `Price gt 20`). */
  readonly right: ExprNode;
}

/** A unary operation (`not x`, `-x`). */
export interface UnaryNode extends NodeBase {
  /** Always `Unary`: narrows an `ExprNode`. */
  readonly kind: 'Unary';
  /** `not`, or `negate` for a minus that is not part of a literal (`-Price`, `- 5`; `-5` is a literal). */
  readonly operator: UnaryOperator;
  /** What the operator applies to (`Discontinued` in `not Discontinued`). */
  readonly operand: ExprNode;
}

/** A built-in function call (`substringof('a', Name)`); `isof`/`cast` take a type name as a `TypeName` argument. */
export interface CallNode extends NodeBase {
  /** Always `Call`: narrows an `ExprNode`. */
  readonly kind: 'Call';
  /** The function's name (`substringof`, `year`, ...): one of the built-in functions' table. */
  readonly name: FunctionName;
  /** The arguments as written; a type-name argument (`isof`, `cast`) is a `TypeNameNode`. */
  readonly args: readonly ExprNode[];
}

/** A qualified type name used as an argument of `isof` and `cast` (`'Edm.Int32'`, `ODataDemo.Product`). */
export interface TypeNameNode extends NodeBase {
  /** Always `TypeName`: narrows an `ExprNode`. */
  readonly kind: 'TypeName';
  /** The qualified type name, as written. */
  readonly name: string;
  /** Set by the type checker when the name is an entity type of the model. */
  readonly entityType?: EdmEntityType;
  /**
   * Set by the type checker when the tested value's declared entity type and this one are
   * unrelated (neither derives from the other): `isof` is false and `cast` null for every value.
   */
  readonly neverMatches?: boolean;
}

/** Any expression node. */
export type ExprNode = LiteralNode | MemberNode | BinaryNode | UnaryNode | CallNode | TypeNameNode;

/** A type-checked `$filter` expression (its `type` is Edm.Boolean). */
export type FilterExpression = ExprNode;
