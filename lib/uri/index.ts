/** The URI layer: resource paths and query options in, typed ResourcePath and QueryOptions out. */
export * from './types';
export { parseResourcePath } from './resource-path';
export { shapedResultOf } from './resource-kinds';
export type { ServiceOperationShape, ShapeReturnType } from './resource-kinds';
export { parseQueryOptions } from './query-options';
export { parseOrderByOption, withKeyTieBreaker } from './orderby';
export { NO_SELECT_EXPAND } from './expand-select';
export { encodeSkipToken } from './skiptoken';
export * from './expr';
