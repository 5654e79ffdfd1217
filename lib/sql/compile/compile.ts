/**
 * The SQL translator of the typed `$filter`/`$orderby` AST: a parameterized fragment (every value
 * is a bound parameter, never SQL text) whose result equals the shared evaluator's on the same
 * data. `and`/`or`/`not` are three-valued in both; comparisons are two-valued as the evaluator's
 * (see compare.ts). What cannot be matched is refused with UntranslatableExpressionError, so the
 * provider can leave that part to the evaluator.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { laneOf } from '../../edm/primitives';
import type { ExprNode, LiteralNode } from '../../uri/expr/ast';
import { takesTypeName } from '../../uri/expr/functions';
import { childrenOf } from '../../uri/expr/walk';
import type { OrderByItem } from '../../uri/types';
import { assertNever, isInstanceOf } from '../../util';
import type { Sql } from '../dialect';
import { UntranslatableExpressionError } from '../errors';
import { compileComparison } from './compare';
import { CompileState, EVALUATOR_PRECISION, computed, untranslatable, type NodeCompiler, type SqlCompileContext, type SqlValue, type Truth } from './context';
import { compileCall } from './functions';
import { compileMember } from './members';
import { compileArithmetic, compileNegation } from './operators';

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

class FilterCompiler implements NodeCompiler {
  constructor(readonly state: CompileState) {}

  condition(node: ExprNode, truth: Truth): Sql {
    if (node.kind === 'Literal') {
      if (typeof node.value === 'boolean') return this.state.constant(node.value);
      if (node.value === null) return this.state.constant(truth === 'true' ? false : 'Edm.Boolean');
    }
    if (node.kind === 'Binary') {
      const { operator } = node;
      if (operator === 'and' || operator === 'or') {
        return sql`(${this.condition(node.left, truth)} ${sql.raw(operator)} ${this.condition(node.right, truth)})`;
      }
      if (operator === 'eq' || operator === 'ne' || operator === 'lt' || operator === 'le' || operator === 'gt' || operator === 'ge') {
        return compileComparison(this, node, operator, truth);
      }
    }
    // `not x` is true where x is false: x must be exact, since SQL's NOT keeps unknown unknown.
    if (node.kind === 'Unary' && node.operator === 'not') return sql`(not ${this.condition(node.operand, 'exact')})`;
    const value = this.value(node);
    return value.type === 'Edm.Boolean' || value.type === null ? value.sql : untranslatable(`${value.type} as a condition`);
  }

  value(node: ExprNode): SqlValue {
    switch (node.kind) {
      case 'Literal':
        return this.literal(node);
      case 'Member':
        return compileMember(this, node);
      case 'Binary':
        switch (node.operator) {
          case 'add':
          case 'sub':
          case 'mul':
          case 'div':
          case 'mod':
            return compileArithmetic(this, node, node.operator);
          default:
            return computed(this.condition(node, 'exact'), 'Edm.Boolean', node.operator === 'and' || node.operator === 'or');
        }
      case 'Unary':
        if (node.operator === 'negate') return compileNegation(this, node);
        return computed(this.condition(node, 'exact'), 'Edm.Boolean', true);
      case 'Call':
        return compileCall(this, node);
      case 'TypeName':
        return untranslatable('a type name outside isof and cast');
      default:
        return assertNever(node, 'expression node');
    }
  }

  private literal(node: LiteralNode): SqlValue {
    const { literalType: type, value } = node;
    if (type === null || value === null) return computed(this.state.markCheap(sql`null`), null, true);
    // A string with half a surrogate pair cannot reach PostgreSQL (UTF-8 has no form for it).
    if (typeof value === 'string' && type === 'Edm.String' && UNPAIRED_SURROGATE.test(value))
      return untranslatable('a string literal with an unpaired surrogate');
    const parameter = this.state.markCheap(this.state.dialect.literal(type, value));
    return { sql: parameter, type, nullable: false, realColumn: false, precision: EVALUATOR_PRECISION, column: false, literal: value };
  }
}

/**
 * A `$filter` (type-checked) as a WHERE condition: true exactly for the entities the evaluator
 * keeps. Throws UntranslatableExpressionError for what SQL cannot do exactly (see isTranslatable).
 */
export function compileFilterSql(filter: ExprNode, context: SqlCompileContext): RawBuilder<SqlBool> {
  const condition = new FilterCompiler(new CompileState(context)).condition(filter, 'true');
  return sql<SqlBool>`${condition}`;
}

/** A type-checked expression as a SQL value (booleans three-valued, as the evaluator computes them). */
export function compileExpressionSql(expression: ExprNode, context: SqlCompileContext): RawBuilder<unknown> {
  return new FilterCompiler(new CompileState(context)).value(expression).sql;
}

/** True when an expression reads the entity (a member path, or the one-argument isof/cast). */
function readsEntity(node: ExprNode): boolean {
  if (node.kind === 'Member' || (node.kind === 'Call' && node.args.length === 1 && takesTypeName(node.name))) return true;
  return childrenOf(node).some(readsEntity);
}

/**
 * `$orderby` (with the key tie-breaker appended by the caller) as ORDER BY terms, in the service's
 * order: nulls first ascending and last descending, strings ordinal, NaN before every number.
 * Timestamps sort by the stored value, the bare column an index serves (the kit's rule: stored
 * value, then key; a position keeps the full value, see seekCondition); Edm.Time at milliseconds.
 */
export function compileOrderBySql(orderBy: readonly OrderByItem[], context: SqlCompileContext): readonly RawBuilder<unknown>[] {
  const compiler = new FilterCompiler(new CompileState(context));
  const { dialect } = context;
  return orderBy.flatMap((item) => {
    // A constant (`$orderby=null`, `'a'`, `1 add 2`, `Price add null`) orders nothing; PostgreSQL refuses some there.
    if (!readsEntity(item.expression)) return [];
    const value = compiler.value(item.expression);
    if (value.type === null || compiler.state.isConstant(value.sql)) return [];
    const lane = laneOf(value.type);
    const truncate = lane === 'time' && value.precision > EVALUATOR_PRECISION;
    const sortable = truncate ? dialect.truncateToMilliseconds(value.sql) : value.sql;
    const mayBeNaN = lane === 'float' && value.literal === undefined;
    return dialect.orderBy(sortable, lane, item.direction, mayBeNaN, value.nullable);
  });
}

/**
 * Whether compileFilterSql translates `expression` (a predicate for a pushdown split). It compiles
 * the expression, so the resolver sees (and may record joins for) its member paths.
 */
export function isTranslatable(expression: ExprNode, context: SqlCompileContext): boolean {
  try {
    new FilterCompiler(new CompileState(context)).value(expression);
    return true;
  } catch (error) {
    if (isInstanceOf(error, UntranslatableExpressionError)) return false;
    throw error;
  }
}
