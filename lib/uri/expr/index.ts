/**
 * The `$filter`/`$orderby` expression language: parse (text -> AST), type-check (AST + entity type
 * -> typed AST), print, and traverse. Providers read the typed AST; `provider/evaluate` runs it.
 */
export type * from './ast';
export { parseExpression, parseOrderBy, BINARY_PRECEDENCE } from './parser';
export { checkFilter, checkExpression, describeType, derivesFrom, primitiveType } from './typecheck';
export { BUILTIN_FUNCTIONS, arities, formatSignature, takesTypeName } from './functions';
export type { FunctionParameterType, FunctionReturnType, FunctionSignature } from './functions';
export { NUMERIC_TYPES, areComparable, arithmeticType, canCast, canPromote, isNumeric, promoteNumeric, widenSmallInteger } from './promotion';
export { printBraced, printExpression } from './printer';
export { childrenOf, foldExpression, transformExpression, walkExpression, withoutLocations } from './walk';
export type { ExpressionFolder, ExpressionVisitor } from './walk';
export { sourceOf } from './source';
export type { ExpressionSource } from './source';
