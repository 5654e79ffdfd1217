/**
 * express-odata-v2: the public surface. Everything exported here is supported API; anything
 * else is internal and may change.
 */
export { odata } from './middleware';
export type { ODataMiddleware } from './middleware';
export { modelAsServed } from './service';
export type { ExpressLikeRequest, ClientErrorListener, ODataErrorHandler } from './http';
export { odataClientErrorHandler, odataErrorHandler } from './http';
export type { ODataServiceOptions, ServiceLimits, ServiceLogEvent } from './options';
export { DEFAULT_LIMITS } from './options';
export type { Clock } from './util';
import { ERROR_CODES as CATALOGUE } from './errors';
import type { ErrorCode, ErrorCodeDefinition } from './errors';
export { ODataError, isODataError } from './errors';
export type { ErrorCode, ErrorCodeDefinition, ODataErrorDetail, ODataErrorOptions } from './errors';
// What a provider or a driver threw (the logger's `error`), read without running any of its code.
export { describeCaught } from './util';
export type { CaughtDescription } from './util';
/**
 * The catalogue of every error code the service sends: HTTP status and message template. The same
 * object as in `lib/errors`, typed as a record so the API reference lists it as one table type.
 */
export const ERROR_CODES: Readonly<Record<ErrorCode, ErrorCodeDefinition>> = CATALOGUE;
export { defineModel, buildModel, loadEdmx, readEdmx, writeEdmx } from './edm';
export type { SingleSchemaDefinition } from './edm';
export type * from './edm/definition';
export type * from './edm/model';
export type { EdmPrimitiveTypeName, PrimitiveLane, PrimitiveValue, ComplexValue, PropertyValue } from './edm/primitives';
// Date/time order values finer than milliseconds: a position's (QueryResult.positionOf, a $skiptoken).
export { isPreciseInstant, preciseInstant } from './edm/precise-instant';
export type { PreciseInstant } from './edm/precise-instant';
export type * from './provider/types';
// What the provider contract's requests are made of (QueryRequest.path, orderBy, selectExpand, skipToken).
export type {
  EntityKey,
  EntityPath,
  EntityPathRoot,
  EntitySetPath,
  KeyedEntityPath,
  NavigationStep,
  OrderByItem,
  SortDirection,
  SelectExpand,
  Selection,
  ExpandItem,
  PositionValue,
  SkipTokenPosition,
} from './uri/types';
export type * from './uri/expr/ast';
export type { FunctionName } from './uri/expr/functions';
export type { RequestContext } from './protocol/message';
// Shared query helpers: a custom provider hands rows and the typed request to these and gets
// exactly MemoryProvider's $filter / $orderby / $skiptoken / paging / count semantics.
export { applyQuery, compileFilter, compileOrderBy, compileSkipTokenFilter, compileExpression, entityPosition, evaluate } from './evaluate/evaluate';
export type { QueryPart, EvaluationAccess, EvaluationOptions, NavigationAccess, Evaluator, RuntimeValue } from './evaluate/evaluate';
// The $skiptoken position as a $filter AST: one translator for $filter and keyset paging.
export { seekCondition } from './provider/seek';
// SAP's search as a $filter AST (the request carries the terms): the searched properties, the condition, and $filter and search as one.
export { requestFilter, searchableProperties, searchFilter } from './provider/search';
// The pushdown split: the $filter conjuncts a provider translates, and the residual the service finishes (QueryResult.applied).
export { conjunction, conjuncts, navigationExpansion, splitFilter, translateFilter } from './provider/pushdown';
// The service's side of QueryResult.applied, for a provider that finishes its own partial answer before working on the page.
export { finishQuery } from './evaluate/evaluate';
export type { FilterSplit, TranslatedFilter } from './provider/pushdown';
// If-Match in the write statement: tags decoded to concurrency values (and back), the condition, 404 vs 412.
export { decodeETag, encodeETag } from './protocol/etag';
export { conditionalWriteError, preconditionCondition } from './provider/precondition';
// Not found, as every provider answers it: a missing key, and which step of a navigation path is missing.
export { entityNotFound, isKeyedPath, mediaResourceNotFound, pathNotFound, pathPrefixesThatMayFail } from './provider/not-found';
// The transaction contract: a provider's open transaction kept with the request context, typed.
export { createTransactionScope, retryBackoff } from './provider/transaction';
export type { BeginTransaction, TransactionRunOptions, TransactionScope } from './provider/transaction';
// Writes: which properties were sent, the create-time rule for required ones, the model's defaults.
export { assertRequiredSent, fillDefaults, isRequiredOnCreate, isStoreGenerated, requiredProperties } from './provider/sent';
// Keys from the parent: what a new entry's link fixes under a ReferentialConstraint (deep insert entries once their parent is stored).
export { withLinkedValues } from './provider/linked-values';
// Keys a new entry leaves out: which the store generates (a UUID, the next number) and which the client must give.
export { generatedKeys, withUuidKeys } from './provider/new-keys';
export type { GeneratedKey, KeyGeneration } from './provider/new-keys';
// Concurrency tokens a store keeps: which types (a wrapping version, the write's instant) and the next value.
export { isManagedToken, nextToken, tokenRule } from './provider/tokens';
export type { TokenRule } from './provider/tokens';
// Values as a store holds them, converted to the model's JS forms and checked (nullability, facets).
export { coerceDynamic, coercePrimitive, coerceProperty } from './provider/values';
export type { CoerceResult } from './provider/values';
// Keys: an entity's EntityKey, a caller's key in model form, one identity string per entity, the key as messages print it.
export { describeKey, entityKey, keyIdentity, normalizeKey } from './provider/keys';
// A media link entry POSTed as its media resource: the entry's values (defaults, the Slug as key or title).
export { mediaEntryValues } from './provider/media-entry';
// Any provider without its write methods: every write is 405 (the command line's --read-only).
export { readOnlyProvider } from './provider/read-only';
// Expression traversal and printing, for providers that translate $filter / $orderby (e.g. to SQL).
export { walkExpression, foldExpression, transformExpression, childrenOf, printExpression } from './uri/expr';
export type { ExpressionVisitor, ExpressionFolder } from './uri/expr';
export { MemoryProvider } from './providers/memory';
// MemoryProvider's constructor arguments and its `store` (documented in docs/memory-provider.md).
export type { MemoryProviderOptions, MemoryStore, LinkTarget, StoredMedia, StoredValues, WriteOptions } from './providers/memory';
// The data format MemoryProvider loads and `seed` writes (checked by one loader in the provider kit).
export type { MemoryData, ForeignKeyMap } from './provider/entity-data';
