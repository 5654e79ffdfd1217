/**
 * The `$filter`/`$orderby` expression language: parse (text -> AST), type-check (AST + entity type
 * -> typed AST), print, and traverse. Providers read the typed AST; `provider/evaluate` runs it.
 */
export type * from './ast';
export { parseExpression, parseOrderBy, BINARY_PRECEDENCE, DEFAULT_MAX_DEPTH, DEFAULT_MAX_TREE_DEPTH } from './parser';
export type { ParseOptions, ParsedOrderByItem } from './parser';
export { checkFilter, checkExpression, describeType, derivesFrom, primitiveType } from './typecheck';
export type { CheckOptions } from './typecheck';
export { BUILTIN_FUNCTIONS, arities, formatSignature, takesTypeName } from './functions';
export type { BuiltinFunction, FunctionParameterType, FunctionReturnType, FunctionSignature } from './functions';
export { NUMERIC_TYPES, areComparable, arithmeticType, canCast, canPromote, isNumeric, promoteNumeric, widenSmallInteger } from './promotion';
export { printBraced, printExpression } from './printer';
export { childrenOf, foldExpression, transformExpression, walkExpression, withoutLocations } from './walk';
export type { ExpressionFolder, ExpressionVisitor } from './walk';
export { sourceOf } from './source';
export type { ExpressionSource } from './source';
