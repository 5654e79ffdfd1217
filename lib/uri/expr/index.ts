/**
 * The `$filter`/`$orderby` expression language: parse (text -> AST), type-check (AST + entity type
 * -> typed AST), print, and traverse. Providers read the typed AST; `evaluate/` runs it.
 */
export type * from './ast';
export { parseExpression, parseOrderBy } from './parser';
export { checkFilter, checkExpression, describeType } from './typecheck';
export { BUILTIN_FUNCTIONS, FUNCTION_NAMES, arities, formatSignature } from './functions';
export type { FunctionSignature } from './functions';
export { NUMERIC_TYPES, areComparable, arithmeticType, canCast, canPromote, isNumeric, promoteNumeric } from './promotion';
export { printBraced, printExpression } from './printer';
export { childrenOf, foldExpression, transformExpression, walkExpression, withoutLocations } from './walk';
export type { ExpressionFolder, ExpressionVisitor } from './walk';
