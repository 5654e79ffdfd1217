/** The URI layer: resource paths and query options in, typed ResourcePath and QueryOptions out. */
export * from './types';
export { splitPath, splitSegment, percentDecode } from './segments';
export type { PathSegment } from './segments';
export { entityKeyOf, parseKeyPredicate, scanIdentifier } from './key-predicate';
export { parseResourcePath } from './resource-path';
export {
  ALLOWED_QUERY_OPTIONS,
  QUERY_OPTION_TARGET_DESCRIPTIONS,
  SYSTEM_QUERY_OPTIONS,
  isQueryOptionAllowed,
  isSystemQueryOption,
  queryOptionTarget,
  serviceOperationShape,
  shapedResultOf,
} from './resource-kinds';
export type { QueryOptionTarget, ServiceOperationShape, ShapeReturnType, SystemQueryOption } from './resource-kinds';
export { parseQueryString } from './query-string';
export { parseQueryOptions } from './query-options';
export type { QueryLimits } from './query-options';
export { parseOrderByOption, withKeyTieBreaker } from './orderby';
export { NO_SELECT_EXPAND, parseSelectExpand } from './expand-select';
export { decodeSkipToken, encodeSkipToken } from './skiptoken';
export * from './expr';
