/**
 * Built-in function calls (the table is uri/expr/functions.ts): string, date and math functions
 * with null propagation (a null argument gives null), and the type functions `isof` and `cast`
 * with the evaluator's semantics. The SQL text of each comes from the dialect. Every function has
 * an entry (a FunctionTable): one this compiler leaves to the evaluator throws
 * `untranslatable(reason)` in its entry, and a dialect that has no SQL for one returns undefined.
 */
import { sql } from 'kysely';
import { laneOf } from '../../edm/primitives';
import type { CallNode, ExprNode } from '../../uri/expr/ast';
import type { FunctionTable } from '../../uri/expr/functions';
import type { DatePart, Sql } from '../dialect';
import { EVALUATOR_PRECISION, computed, isNullTyped, primitiveOf, untranslatable, type NodeCompiler, type SqlValue } from './context';
import { instanceOf, navigationPath } from './members';
import { numericOperand } from './operators';

/** A string literal's text (substringof/startswith/endswith turn it into a LIKE pattern), else undefined. */
function literalText(node: ExprNode): string | undefined {
  return node.kind === 'Literal' && typeof node.value === 'string' && node.literalType === 'Edm.String' ? node.value : undefined;
}

/** The SQL of a call from its compiled arguments (none null-typed); undefined when the dialect has none. */
type Builder = (c: NodeCompiler, args: readonly SqlValue[], node: CallNode) => Sql | undefined;

/** The translation of a whole call. */
type CallCompiler = (c: NodeCompiler, node: CallNode) => SqlValue;

/** The operand of a string function (String only: the checker admits no other type). */
function text(value: SqlValue): Sql {
  return value.type === 'Edm.String' ? value.sql : untranslatable(`a string function of ${value.type ?? 'null'}`);
}

/** An Int32 operand (substring positions), widened from the small integers. */
function integer(c: NodeCompiler, value: SqlValue): Sql {
  return numericOperand(c, value, 'Edm.Int32');
}

function datePart(part: DatePart): Builder {
  return (c, [value]) => (value.type === null ? undefined : c.state.dialect.datePart(part, value.type, value.sql));
}

function rounding(name: 'round' | 'floor' | 'ceiling'): Builder {
  return (c, [value], node) => {
    const overload = primitiveOf(node) === 'Edm.Decimal' ? 'Edm.Decimal' : 'Edm.Double';
    return c.state.dialect.rounding(name, overload, numericOperand(c, value, overload), c.state.share);
  };
}

/** A call of a null-propagating function: null-typed when an argument is, else the builder's SQL. */
function propagatingNull(builder: Builder): CallCompiler {
  return (c, node) => {
    const type = primitiveOf(node) ?? untranslatable(`'${node.name}' without a checked type`);
    // Every built-in propagates null; the typed NULL also spares the database an untyped one.
    if (node.args.some(isNullTyped)) return computed(c.state.constant(type), type, true);
    const args = node.args.map((arg) => c.value(arg));
    const result = builder(c, args, node) ?? untranslatable(`'${node.name}' on this engine`);
    return computed(
      result,
      type,
      args.some((arg) => arg.nullable),
    );
  };
}

/** `isof(T)` / `isof(x, T)`: two-valued. */
function compileIsOf(c: NodeCompiler, node: CallNode): SqlValue {
  const target = node.args[node.args.length - 1];
  const subject = node.args.length === 2 ? node.args[0] : undefined;
  const boolean = (condition: Sql): SqlValue => computed(condition, 'Edm.Boolean', false);
  if (target.kind === 'TypeName' && target.entityType !== undefined) {
    // The checker marks a type outside the subject's hierarchy: no entity is of it.
    if (target.neverMatches === true) return boolean(c.state.constant(false));
    if (subject === undefined) return boolean(instanceOf(c, [], target.entityType));
    if (isNullTyped(subject)) return boolean(c.state.constant(false));
    const navigation = navigationPath(subject) ?? untranslatable('isof of an entity that is not a navigation path');
    return boolean(instanceOf(c, navigation, target.entityType));
  }
  const targetType = target.type?.kind === 'Primitive' ? target.type.name : undefined;
  if (subject === undefined || targetType === undefined || isNullTyped(subject)) return boolean(c.state.constant(false));
  // The evaluator answers from the declared type: true for any non-null value of exactly that type.
  const declared = primitiveOf(subject) ?? untranslatable('isof of a value of unknown type');
  if (declared !== targetType) return boolean(c.state.constant(false));
  return boolean(sql`(${c.value(subject).sql} is not null)`);
}

/** `cast(x, 'Edm.T')` for primitives (a cast to an entity type only appears as a member's base). */
function compileCast(c: NodeCompiler, node: CallNode): SqlValue {
  const target = node.args[node.args.length - 1];
  const to = target.type?.kind === 'Primitive' ? target.type.name : undefined;
  if (node.args.length !== 2 || to === undefined) return untranslatable('a cast to an entity type outside a member path');
  if (isNullTyped(node.args[0])) return computed(c.state.constant(to), to, true);
  const value = c.value(node.args[0]);
  const from = value.type ?? untranslatable('a cast of a value of unknown type');
  const operand = value.realColumn ? c.state.dialect.realAsDouble(value.sql) : value.sql;
  const result = c.state.dialect.cast(operand, from, to, c.state.share);
  return computed(result, to, true, laneOf(from) === 'instant' && laneOf(to) === 'instant' ? value.precision : EVALUATOR_PRECISION);
}

/** The translation of every built-in function, by name. @internal (read by the function-table type test) */
export const FUNCTION_TRANSLATIONS: FunctionTable<CallCompiler> = {
  substringof: propagatingNull((c, [needle, haystack], node) => c.state.dialect.contains(text(haystack), literalText(node.args[0]) ?? text(needle))),
  startswith: propagatingNull((c, [value, prefix], node) => c.state.dialect.startsWith(text(value), literalText(node.args[1]) ?? text(prefix))),
  endswith: propagatingNull((c, [value, suffix], node) => c.state.dialect.endsWith(text(value), literalText(node.args[1]) ?? text(suffix), c.state.share)),
  length: propagatingNull((c, [value]) => c.state.dialect.length(text(value))),
  indexof: propagatingNull((c, [value, search]) => c.state.dialect.indexOf(text(value), text(search), c.state.share)),
  replace: propagatingNull((c, [value, search, replacement]) => c.state.dialect.replace(text(value), text(search), text(replacement))),
  substring: propagatingNull((c, [value, start, count]) =>
    c.state.dialect.substring(text(value), integer(c, start), count === undefined ? undefined : integer(c, count), c.state.share),
  ),
  tolower: propagatingNull((c, [value]) => c.state.dialect.changeCase(text(value), 'lower', c.state.context.approximateCase)),
  toupper: propagatingNull((c, [value]) => c.state.dialect.changeCase(text(value), 'upper', c.state.context.approximateCase)),
  trim: propagatingNull((c, [value]) => c.state.dialect.trim(text(value))),
  concat: propagatingNull((c, [left, right]) => c.state.dialect.concat(text(left), text(right))),
  year: propagatingNull(datePart('year')),
  month: propagatingNull(datePart('month')),
  day: propagatingNull(datePart('day')),
  hour: propagatingNull(datePart('hour')),
  minute: propagatingNull(datePart('minute')),
  second: propagatingNull(datePart('second')),
  round: propagatingNull(rounding('round')),
  floor: propagatingNull(rounding('floor')),
  ceiling: propagatingNull(rounding('ceiling')),
  isof: compileIsOf,
  cast: compileCast,
};

/** Any built-in call, as a value. */
export function compileCall(c: NodeCompiler, node: CallNode): SqlValue {
  return FUNCTION_TRANSLATIONS[node.name](c, node);
}
