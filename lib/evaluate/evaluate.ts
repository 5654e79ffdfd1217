/**
 * The shared evaluator: exact OData 2.0 `$filter`/`$orderby`/paging semantics for any provider.
 * MemoryProvider runs on it; a provider that cannot do part of a query natively (a computed
 * `$orderby`, a function its store lacks) hands the typed AST and its rows to these helpers.
 * Everything is compiled once per request; the closures do no AST or string work per entity.
 */
export { compileExpression, compileFilter, evaluate } from './compile';
export { afterPosition, applyQuery, compileOrderBy, compileSkipTokenFilter, entityPosition } from './query';
export type { QueryPart } from './query';
export { compareValues } from './compare';
export { finishQuery } from './finish';
export type { EvaluationAccess, EvaluationOptions, Evaluator, NavigationAccess, RuntimeValue } from './runtime';
