/**
 * What the filter compiler works with: the provider's resolver from member paths to columns (which
 * records the joins it needs), the compiled form of a value, and the per-compilation state (which
 * fragments are cheap to repeat, derived-table names).
 */
import { sql, type Expression } from 'kysely';
import type { EdmEntityType, EdmNavigationProperty, EdmProperty } from '../../edm/model';
import type { PreciseInstant } from '../../edm/precise-instant';
import type { EdmPrimitiveTypeName, PrimitiveValue } from '../../edm/primitives';
import type { ExprNode } from '../../uri/expr/ast';
import type { Share, Sql, SqlExpressions } from '../dialect';
import { UntranslatableExpressionError } from '../errors';

/**
 * A member path of a filter as the resolver sees it: single-valued navigation properties first
 * (each one a to-one join from the entity before it), then structural properties (complex ones,
 * then the primitive one; or ending at a complex property when its presence is asked for).
 */
export interface SqlMemberPath {
  /** The single-valued navigation properties walked first, in order. */
  readonly navigation: readonly EdmNavigationProperty[];
  /** Then the structural properties, in order. */
  readonly properties: readonly EdmProperty[];
}

/** A column as the compiler needs to know it. */
export interface SqlColumnRef {
  /** The column reference (with the alias of its table or join), e.g. `sql.ref('t1.Price')`. */
  readonly sql: Expression<unknown>;
  /** Whether the column may hold NULL (through a navigation path it may, whatever the column says). */
  readonly nullable: boolean;
  /** Fractional-second digits a timestamp or interval column stores (PostgreSQL's default: 6). */
  readonly precision?: number;
}

/**
 * Maps member paths to SQL. Paths through navigation properties are joins the provider must add
 * (LEFT JOIN over to-one links): the resolver records them when asked. Returning undefined leaves
 * the expression to the evaluator (UntranslatableExpressionError).
 */
export interface SqlPathResolver {
  /** The column of a path ending in a primitive property. */
  column(path: SqlMemberPath): SqlColumnRef | undefined;
  /** An expression that is NULL exactly when the path (ending in a navigation or complex property) has no value. */
  presence?(path: SqlMemberPath): Expression<unknown> | undefined;
  /**
   * A two-valued condition: the entity at `path` (empty: the current one) exists and is of `type`
   * or derived from it; `true` or `false` when the mapping alone decides (no discriminator column).
   */
  isInstance?(path: SqlMemberPath, type: EdmEntityType): Expression<unknown> | boolean | undefined;
}

/** What a compilation needs. */
export interface SqlCompileContext {
  /** The engine's expression dialect (`SqlEngine.expressions`). */
  readonly dialect: SqlExpressions;
  /** Member paths to columns (and joins). */
  readonly resolver: SqlPathResolver;
  /**
   * True for SAP's `search` condition: `tolower` may fall back to the database's own case mapping
   * when the dialect has no exact one (SqlExpressions.changeCase), so a search never leaves SQL.
   */
  readonly approximateCase?: boolean;
}

/** A compiled value and what the compiler knows about it. */
export interface SqlValue {
  readonly sql: Sql;
  /** The EDM type (the checker's); null for the untyped `null` literal. */
  readonly type: EdmPrimitiveTypeName | null;
  /** May be NULL. */
  readonly nullable: boolean;
  /** An Edm.Single column (single precision as stored): `realAsDouble` gives the evaluator's double. */
  readonly realColumn: boolean;
  /** Fractional-second digits it may carry; above 3 it is truncated before it is compared. */
  readonly precision: number;
  /** A plain column reference: a comparison with a parameter can keep it bare (index use). */
  readonly column: boolean;
  /** The value of a literal, when it is one (a PreciseInstant only in a keyset bound). */
  readonly literal?: PrimitiveValue | PreciseInstant;
}

/** Milliseconds: what the evaluator's JS values keep of a timestamp or duration. */
export const EVALUATOR_PRECISION = 3;

/** Stored fractional-second digits assumed when the resolver does not say (PostgreSQL's default). */
export const DEFAULT_COLUMN_PRECISION = 6;

/** Throw the "leave this to the evaluator" signal. */
export function untranslatable(reason: string): never {
  throw new UntranslatableExpressionError(reason);
}

/** Per-compilation state: fragments that are cheap to repeat or constant, and numbering of derived tables. */
export class CompileState {
  private readonly cheap = new WeakSet<Sql>();
  private readonly constants = new WeakSet<Sql>();
  private tables = 0;

  constructor(readonly context: SqlCompileContext) {}

  get dialect(): SqlExpressions {
    return this.context.dialect;
  }

  /** Mark a fragment as cheap to repeat (a column reference, a parameter, a cheap conversion of one). */
  markCheap(fragment: Sql): Sql {
    this.cheap.add(fragment);
    return fragment;
  }

  isCheap(fragment: Sql): boolean {
    return this.cheap.has(fragment);
  }

  /** A constant: TRUE, FALSE or a typed NULL (ORDER BY leaves constants out: PostgreSQL refuses some there). */
  constant(value: boolean | EdmPrimitiveTypeName): Sql {
    const fragment = typeof value === 'boolean' ? (value ? sql`true` : sql`false`) : this.dialect.typedNull(value);
    this.constants.add(fragment);
    return this.markCheap(fragment);
  }

  isConstant(fragment: Sql): boolean {
    return this.constants.has(fragment);
  }

  /** The Share of the dialect: repeated expressions are evaluated once, in a derived table. */
  readonly share: Share = (values, body) => {
    if (values.every((value) => this.cheap.has(value))) return body(values);
    const table = `v${++this.tables}`;
    const columns = values.map((_, i) => `x${i}`);
    const refs = columns.map((column) => this.markCheap(sql.ref(`${table}.${column}`)));
    return this.dialect.evaluateOnce(values, table, columns, body(refs));
  };
}

/** Whether a boolean result must be exact (true/false/null as the evaluator) or only true where the evaluator's is. */
export type Truth = 'true' | 'exact';

/** The compiler as its parts see it. */
export interface NodeCompiler {
  readonly state: CompileState;
  /** A boolean expression; with 'true', NULL may stand for false (WHERE, and/or under it). */
  condition(node: ExprNode, truth: Truth): Sql;
  /** Any expression as a value. */
  value(node: ExprNode): SqlValue;
}

/** A value with the defaults of a computed (non-column, non-literal) expression. */
export function computed(sqlText: Sql, type: EdmPrimitiveTypeName | null, nullable: boolean, precision = EVALUATOR_PRECISION): SqlValue {
  return { sql: sqlText, type, nullable, realColumn: false, precision, column: false };
}

/** True for the `null` literal (or what the checker typed as Null). */
export function isNullTyped(node: ExprNode): boolean {
  if (node.type !== undefined) return node.type.kind === 'Null';
  return node.kind === 'Literal' && node.literalType === null;
}

/** The checker's primitive type of a node (a literal's own type when unchecked). */
export function primitiveOf(node: ExprNode): EdmPrimitiveTypeName | undefined {
  if (node.type !== undefined) return node.type.kind === 'Primitive' ? node.type.name : undefined;
  return node.kind === 'Literal' && node.literalType !== null ? node.literalType : undefined;
}
