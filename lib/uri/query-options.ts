/**
 * Query options (MS-ODATA §2.2.3.6): the decoded pairs become typed QueryOptions for a resolved
 * path. System options are checked against the resource-kinds table, parsed once and typed
 * against the entity type they apply to; every other option is kept for the handler (custom
 * options, service-operation parameters).
 */
import { ODataError } from '../errors';
import type { EdmEntitySet, EdmEntityType, EdmModel } from '../edm/model';
import { sapSwitch } from '../edm/sap';
import { didYouMean } from '../util';
import { NO_SELECT_EXPAND, parseSelectExpand } from './expand-select';
import { checkFilter, parseExpression } from './expr';
import type { ExprNode } from './expr/ast';
import { parseOrderByOption } from './orderby';
import { parseQueryString } from './query-string';
import { QUERY_OPTION_TARGET_DESCRIPTIONS, SYSTEM_QUERY_OPTIONS, isQueryOptionAllowed, isSystemQueryOption, queryOptionTarget } from './resource-kinds';
import type { SystemQueryOption } from './resource-kinds';
import { parseSearch } from './search';
import { decodeSkipToken } from './skiptoken';
import type { OrderByItem, QueryOptions, ResourceKind, ResourcePath, SkipTokenPosition } from './types';

/** The limits query options are held to (ServiceLimits of lib/options.ts fits this shape). */
export interface QueryLimits {
  /** Largest `$top`; undefined for none. */
  maxTop?: number;
  maxExpandDepth: number;
  maxExpandBreadth: number;
  /** Longest `$filter` (and `$orderby`) text in characters. */
  maxFilterLength: number;
  maxFilterDepth: number;
  /** Most terms in a `search` text. */
  maxSearchTerms: number;
}

/** What the service lets clients use beyond OData 2.0 (ResolvedOptions of lib/options.ts fits this shape). */
interface QueryFeatures {
  /** SAP's `search`: read on searchable sets (true), or refused everywhere with 400 SEARCH_NOT_ALLOWED (false). */
  readonly search: boolean;
}

const ALL_FEATURES: QueryFeatures = Object.freeze({ search: true });

/**
 * The resources SAP's `search` narrows: collections of entities and their `$count`. On any other
 * resource `search` is a custom option like the rest (a service operation may take a parameter
 * of that name).
 */
const SEARCHED_KINDS: ReadonlySet<ResourceKind> = new Set<ResourceKind>(['EntitySet', 'NavigationCollection', 'CollectionCount']);

/** `$top` and `$skip` are Int32 in WCF Data Services; larger values are refused rather than rounded. */
const MAX_INTEGER_OPTION = 2147483647;

/** The options of a request without a query string: the same for every path. */
const NO_QUERY_OPTIONS: QueryOptions = Object.freeze({
  filter: undefined,
  orderBy: Object.freeze([]),
  top: undefined,
  skip: undefined,
  skipToken: undefined,
  inlineCount: undefined,
  selectExpand: NO_SELECT_EXPAND,
  search: undefined,
  format: undefined,
  custom: Object.freeze({}),
  raw: Object.freeze([]),
});

/** The entities the entity-shaped options (`$filter`, `$orderby`, `$expand`...) apply to. */
interface OptionTarget {
  readonly entitySet: EdmEntitySet;
  readonly entityType: EdmEntityType;
}

function optionTargetOf(path: ResourcePath): OptionTarget | undefined {
  switch (path.kind) {
    case 'ServiceDocument':
    case 'Metadata':
    case 'Batch':
      return undefined;
    case 'ServiceOperation': {
      const { returnType, entitySet } = path.functionImport;
      return returnType?.kind === 'Entity' && entitySet !== undefined ? { entitySet, entityType: returnType.type } : undefined;
    }
    case 'Links':
    case 'Link':
    case 'LinksCount':
      // The options of `$links/Nav` filter and page the linked entities, not the source.
      return { entitySet: path.targetEntitySet, entityType: path.navigationProperty.target };
    default:
      return { entitySet: path.entitySet, entityType: path.entityType };
  }
}

function invalidValue(option: string, value: string, detail: string): ODataError {
  return ODataError.fromCode('QUERY_INVALID_VALUE', { value, option, detail }, { target: option });
}

function limitExceeded(option: string, limit: number, detail: string): ODataError {
  return ODataError.fromCode('QUERY_LIMIT_EXCEEDED', { option, limit, detail }, { target: option });
}

/**
 *   topQueryOp  = "$top=" 1*DIGIT
 *   skipQueryOp = "$skip=" 1*DIGIT
 */
function parseInteger(option: '$top' | '$skip', value: string): number {
  let digits = 0;
  while (digits < value.length && value.charCodeAt(digits) >= 0x30 && value.charCodeAt(digits) <= 0x39) digits++;
  const number = digits === value.length && digits <= 10 ? Number(value) : NaN;
  if (!(number <= MAX_INTEGER_OPTION)) {
    throw invalidValue(option, value, `expected a non-negative integer up to ${MAX_INTEGER_OPTION}`);
  }
  return number;
}

/** Pick the system options out of the pairs and check each is known, unique and allowed here. */
function collectSystemOptions(pairs: readonly (readonly [string, string])[], path: ResourcePath): Map<SystemQueryOption, string> {
  const system = new Map<SystemQueryOption, string>();
  for (const [name, value] of pairs) {
    if (!name.startsWith('$')) continue;
    if (!isSystemQueryOption(name)) {
      throw ODataError.fromCode('QUERY_UNKNOWN_OPTION', { option: name, suggestion: didYouMean(name, SYSTEM_QUERY_OPTIONS) }, { target: name });
    }
    if (system.has(name)) throw ODataError.fromCode('QUERY_DUPLICATE_OPTION', { option: name }, { target: name });
    if (!isQueryOptionAllowed(path, name)) {
      const detail = `it does not apply to ${QUERY_OPTION_TARGET_DESCRIPTIONS[queryOptionTarget(path)]}`;
      throw ODataError.fromCode('QUERY_OPTION_NOT_ALLOWED', { option: name, detail }, { target: name });
    }
    // MS-ODATA §2.2.3.6.1: every system option has a non-empty value in the grammar.
    if (value.length === 0) throw invalidValue(name, value, 'the value must not be empty');
    system.set(name, value);
  }
  return system;
}

/** Custom options and service-operation parameters: first occurrence wins, except repeated parameters (400). */
function collectCustomOptions(pairs: readonly (readonly [string, string])[], path: ResourcePath): Readonly<Record<string, string>> {
  const custom = new Map<string, string>();
  for (const [name, value] of pairs) {
    if (name.startsWith('$')) continue;
    if (custom.has(name)) {
      if (path.kind === 'ServiceOperation' && path.functionImport.parametersByName.has(name)) {
        throw ODataError.fromCode('QUERY_DUPLICATE_OPTION', { option: name }, { target: name });
      }
      continue;
    }
    custom.set(name, value);
  }
  // fromEntries defines own properties, so a `__proto__` option is data, not a prototype.
  return Object.freeze(Object.fromEntries(custom));
}

function requireTarget(target: OptionTarget | undefined, option: string): OptionTarget {
  if (target === undefined) {
    throw ODataError.fromCode('QUERY_OPTION_NOT_ALLOWED', { option, detail: 'the resource is not made of entities' }, { target: option });
  }
  return target;
}

/**
 *   filterQueryOp = "$filter=" boolCommonExpression        ; MS-ODATA §2.2.3.6.1.4
 */
function parseFilterOption(text: string, target: OptionTarget, model: EdmModel, limits: QueryLimits): ExprNode {
  if (text.length > limits.maxFilterLength) {
    throw limitExceeded('$filter', limits.maxFilterLength, `it is ${text.length} characters long`);
  }
  const ast = parseExpression(text, { maxDepth: limits.maxFilterDepth });
  return checkFilter(ast, target.entityType, model);
}

/**
 *   inlinecountQueryOp = "$inlinecount=" ( "allpages" / "none" )   ; MS-ODATA §2.2.3.6.1.10
 */
function parseInlineCount(value: string): 'allpages' | 'none' {
  if (value === 'allpages' || value === 'none') return value;
  throw invalidValue('$inlinecount', value, "expected 'allpages' or 'none'");
}

/**
 * SAP's `search` of a collection: its terms, or undefined without terms (`search=`, only
 * whitespace). An entity set with `sap:searchable="false"`, or a service with `search: false`:
 * 400 SEARCH_NOT_ALLOWED, as SAP Gateway refuses a search the metadata does not offer.
 */
function parseSearchOption(text: string | undefined, path: ResourcePath, limits: QueryLimits, features: QueryFeatures): readonly string[] | undefined {
  if (text === undefined || !SEARCHED_KINDS.has(path.kind) || !('entitySet' in path)) return undefined;
  const terms = parseSearch(text, limits.maxSearchTerms);
  if (terms.length === 0) return undefined;
  if (!features.search) throw ODataError.fromCode('SEARCH_NOT_ALLOWED', { detail: 'this service does not offer search' }, { target: 'search' });
  if (sapSwitch(path.entitySet, 'searchable') === false) {
    const detail = `the entity set '${path.entitySet.name}' is marked sap:searchable="false"`;
    throw ODataError.fromCode('SEARCH_NOT_ALLOWED', { detail }, { target: 'search' });
  }
  return Object.freeze(terms);
}

/**
 * Parse the raw query string (still encoded, with or without `?`) for a resolved path
 * (MS-ODATA §2.2.3.6). Unknown `$` options: 400 QUERY_UNKNOWN_OPTION; repeated: 400
 * QUERY_DUPLICATE_OPTION; not for this resource: 400 QUERY_OPTION_NOT_ALLOWED; bad values: 400
 * QUERY_INVALID_VALUE, FILTER_*, SKIPTOKEN_INVALID, SEARCH_INVALID; over a limit: 400
 * QUERY_LIMIT_EXCEEDED; `search` where it is not offered: 400 SEARCH_NOT_ALLOWED.
 */
export function parseQueryOptions(raw: string, path: ResourcePath, model: EdmModel, limits: QueryLimits, features = ALL_FEATURES): QueryOptions {
  // No query string (every key read, most batch parts): nothing to check, and the answer is always the same.
  if (raw === '' || raw === '?') return NO_QUERY_OPTIONS;
  const pairs = parseQueryString(raw);
  const system = collectSystemOptions(pairs, path);
  const custom = collectCustomOptions(pairs, path);
  const target = optionTargetOf(path);

  const filterText = system.get('$filter');
  const filter = filterText === undefined ? undefined : parseFilterOption(filterText, requireTarget(target, '$filter'), model, limits);

  let orderBy: readonly OrderByItem[] = [];
  const orderByText = system.get('$orderby');
  if (orderByText !== undefined) {
    if (orderByText.length > limits.maxFilterLength) {
      throw limitExceeded('$orderby', limits.maxFilterLength, `it is ${orderByText.length} characters long`);
    }
    orderBy = Object.freeze(parseOrderByOption(orderByText, requireTarget(target, '$orderby').entityType, model, limits.maxFilterDepth));
  }

  const topText = system.get('$top');
  const top = topText === undefined ? undefined : parseInteger('$top', topText);
  if (top !== undefined && limits.maxTop !== undefined && top > limits.maxTop) {
    throw limitExceeded('$top', limits.maxTop, `${top} was asked for`);
  }
  const skipText = system.get('$skip');
  const skip = skipText === undefined ? undefined : parseInteger('$skip', skipText);

  const skipTokenText = system.get('$skiptoken');
  let skipToken: SkipTokenPosition | undefined;
  if (skipTokenText !== undefined) skipToken = decodeSkipToken(skipTokenText, orderBy, requireTarget(target, '$skiptoken').entityType);

  const inlineCountText = system.get('$inlinecount');
  const inlineCount = inlineCountText === undefined ? undefined : parseInlineCount(inlineCountText);

  const selectText = system.get('$select');
  const expandText = system.get('$expand');
  let selectExpand = NO_SELECT_EXPAND;
  if (selectText !== undefined || expandText !== undefined) {
    const { entitySet, entityType } = requireTarget(target, selectText === undefined ? '$expand' : '$select');
    selectExpand = parseSelectExpand(selectText, expandText, entitySet, entityType, model, limits);
  }

  return Object.freeze({
    filter,
    orderBy,
    top,
    skip,
    skipToken,
    inlineCount,
    selectExpand,
    search: parseSearchOption(custom.search, path, limits, features),
    format: system.get('$format'),
    custom,
    raw: Object.freeze(pairs.map((pair) => Object.freeze(pair))),
  });
}
