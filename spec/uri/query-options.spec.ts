import { defineModel } from '../../lib/edm';
import type { EdmModel } from '../../lib/edm/model';
import { printExpression } from '../../lib/uri/expr';
import { parseQueryOptions } from '../../lib/uri/query-options';
import type { QueryLimits } from '../../lib/uri/query-options';
import { parseResourcePath } from '../../lib/uri/resource-path';
import type { QueryOptions } from '../../lib/uri/types';
import { catchODataError, demoModel, uriModel } from './uri-fixtures';

const LIMITS: QueryLimits = { maxTop: 100, maxExpandDepth: 2, maxExpandBreadth: 3, maxFilterLength: 60, maxFilterDepth: 4, maxSearchTerms: 3 };

function parse(path: string, query: string, model: EdmModel = demoModel, limits: QueryLimits = LIMITS): QueryOptions {
  return parseQueryOptions(query, parseResourcePath(path, model), model, limits);
}

/** The options as plain data: expressions printed, select/expand pictured, undefined fields dropped. */
function summarize(options: QueryOptions): Record<string, unknown> {
  const summary: Record<string, unknown> = {};
  if (options.filter !== undefined) summary.filter = printExpression(options.filter);
  if (options.orderBy.length > 0) summary.orderBy = options.orderBy.map((item) => `${printExpression(item.expression)} ${item.direction}`);
  if (options.top !== undefined) summary.top = options.top;
  if (options.skip !== undefined) summary.skip = options.skip;
  if (options.skipToken !== undefined) summary.skipToken = options.skipToken;
  if (options.inlineCount !== undefined) summary.inlineCount = options.inlineCount;
  const { select, expand } = options.selectExpand;
  if (select !== undefined) summary.select = [...select.properties, ...[...select.navigationProperties].map((name) => `>${name}`)];
  if (expand.length > 0) summary.expand = expand.map((item) => item.property.name);
  if (options.search !== undefined) summary.search = options.search;
  if (options.format !== undefined) summary.format = options.format;
  if (Object.keys(options.custom).length > 0) summary.custom = { ...options.custom };
  return summary;
}

describe('parseQueryOptions', () => {
  it('gives empty options for an empty query string', () => {
    expect(parse('Products', '')).toEqual({
      filter: undefined,
      orderBy: [],
      top: undefined,
      skip: undefined,
      skipToken: undefined,
      inlineCount: undefined,
      selectExpand: { select: undefined, expand: [] },
      search: undefined,
      format: undefined,
      custom: {},
      raw: [],
    });
  });

  it.each([
    ['Products', '?'],
    ['Products(1)', ''],
    ['$metadata', ''],
    ['Products(1)/Category/$links/Products', ''],
  ])('gives %s with query %p the options the full parse gives for a query of empty parts', (path, query) => {
    const shortcut = parse(path, query);
    expect(shortcut).toEqual(parse(path, '&&'));
    expect([Object.isFrozen(shortcut), Object.isFrozen(shortcut.custom), Object.getPrototypeOf(shortcut.custom)]).toEqual([true, true, Object.prototype]);
  });

  it.each<[string, string, Record<string, unknown>]>([
    ['Products', '$top=2&$skip=3', { top: 2, skip: 3 }],
    ['Products', '$top=0&$skip=0', { top: 0, skip: 0 }],
    ['Products', '$top=100', { top: 100 }],
    ['Products', '$skip=2147483647', { skip: 2147483647 }],
    ['Products', '$inlinecount=allpages', { inlineCount: 'allpages' }],
    ['Products', '$inlinecount=none', { inlineCount: 'none' }],
    ['Products', '$format=json', { format: 'json' }],
    ['Products', '$format=application%2Fatom%2Bxml', { format: 'application/atom+xml' }],
    ['Products', "$filter=Name+eq+'Milk'", { filter: "Name eq 'Milk'" }],
    ['Products', '$filter=Name%20eq%20%27O%27%27Neil%27', { filter: "Name eq 'O''Neil'" }],
    ['Products', '$filter=Price+gt+20m', { filter: 'Price gt 20m' }],
    ['Products', '$filter=Price gt 20M and Rating ge 3', { filter: 'Price gt 20M and Rating ge 3' }],
    ['Products(1)', "$filter=Name eq 'Milk'", { filter: "Name eq 'Milk'" }],
    ['Products', '$orderby=Name desc,Price', { orderBy: ['Name desc', 'Price asc'] }],
    ['Products', "$orderby=Name&$skiptoken='Milk',1", { orderBy: ['Name asc'], skipToken: { orderByValues: ['Milk'], key: { ID: 1 } } }],
    ['Products', '$skiptoken=5', { skipToken: { orderByValues: [], key: { ID: 5 } } }],
    // $skiptoken is read against $orderby whatever their order in the query string.
    ['Products', "$skiptoken='Milk',1&$orderby=Name", { orderBy: ['Name asc'], skipToken: { orderByValues: ['Milk'], key: { ID: 1 } } }],
    ['Products', '$select=Name,Category/Name&$expand=Category', { select: ['Name', '>Category'], expand: ['Category'] }],
    ['Products', '$expand=Category,Supplier', { expand: ['Category', 'Supplier'] }],
    ['Products(1)', '$select=Name', { select: ['Name'] }],
    ['Products(1)/Category', '$expand=Products', { expand: ['Products'] }],
    ['Products', 'sap-client=001&$top=1&search=milk', { top: 1, search: ['milk'], custom: { 'sap-client': '001', search: 'milk' } }],
    ['Products', 'x=1&x=2', { custom: { x: '1' } }],
    ['Products', 'a+b=c+d', { custom: { 'a b': 'c d' } }],
    ['$metadata', 'sap-language=EN', { custom: { 'sap-language': 'EN' } }],
    ['', '$format=json', { format: 'json' }],
    ['Products/$count', '$filter=Rating gt 3&$format=json', { filter: 'Rating gt 3', format: 'json' }],
    ['Products(1)/Name', '$format=json', { format: 'json' }],
    // $links options apply to the linked entities.
    ['Categories(1)/$links/Products', "$filter=Name eq 'x'&$orderby=Rating&$top=1", { filter: "Name eq 'x'", orderBy: ['Rating asc'], top: 1 }],
    ['Products(1)/$links/Category', "$filter=Name eq 'x'", { filter: "Name eq 'x'" }],
    // Service operations: parameters are custom options; feeds compose with query options.
    ['GetProductsByRating', 'rating=4', { custom: { rating: '4' } }],
    [
      'GetProductsByRating',
      'rating=4&$filter=Price lt 5m&$top=1&$expand=Category',
      { filter: 'Price lt 5m', top: 1, expand: ['Category'], custom: { rating: '4' } },
    ],
  ])('%s ? %s', (path, query, expected) => {
    expect(summarize(parse(path, query))).toEqual(expected);
  });

  it.each<[string, string, Record<string, unknown>]>([
    ['Orders', "$skiptoken=7,'a,b'", { skipToken: { orderByValues: [], key: { OrderID: 7, Line: 'a,b' } } }],
    ['Orders', '$filter=ShipTo/Geo/Lat gt 1.5', { filter: 'ShipTo/Geo/Lat gt 1.5' }],
    ['Bags', "$filter=Color eq 'red'&$select=Color", { filter: "Color eq 'red'", select: ['Color'] }],
    ['GetOrder', 'id=1&$expand=Items', { expand: ['Items'], custom: { id: '1' } }],
    ['GetCount', '$format=json', { format: 'json' }],
    ['Photos(1)/$value', "$filter=Title eq 'x'", { filter: "Title eq 'x'" }],
  ])('%s ? %s (URI test model)', (path, query, expected) => {
    expect(summarize(parse(path, query, uriModel))).toEqual(expected);
  });

  it('keeps every decoded pair in order in raw', () => {
    const options = parse('Products', "$top=2&x=1&$filter=Name+eq+'a'&x=2&&sap-client=001");
    expect(options.raw).toEqual([
      ['$top', '2'],
      ['x', '1'],
      ['$filter', "Name eq 'a'"],
      ['x', '2'],
      ['sap-client', '001'],
    ]);
  });

  it.each(['20m', '20M'])('reads the decimal literal %s in $filter exactly, whatever the suffix case', (literal) => {
    const filter = parse('Products', `$filter=Price gt ${literal}`).filter;
    expect(filter?.kind === 'Binary' && filter.right).toMatchObject({ kind: 'Literal', literalType: 'Edm.Decimal', value: '20' });
  });

  it('keeps the client orderBy without the key tie-breaker', () => {
    expect(parse('Products', '$orderby=Name').orderBy).toHaveLength(1);
  });

  it('types $filter against the entity type', () => {
    const filter = parse('Products', '$filter=Rating gt 3').filter;
    expect(filter?.type).toEqual({ kind: 'Primitive', name: 'Edm.Boolean' });
  });

  it('keeps a __proto__ option as data', () => {
    const options = parse('Products', '__proto__=x');
    expect(Object.getPrototypeOf(options.custom)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(options.custom, '__proto__')).toBe(true);
  });

  it.each<[string, string, Record<string, unknown>]>([
    // SAP's search narrows collections and their $count; its text stays a custom option too.
    ['Products', 'search=%22Low+fat%22+milk', { search: ['Low fat', 'milk'], custom: { search: '"Low fat" milk' } }],
    ['Categories(1)/Products', 'search=milk&$filter=Price gt 1', { filter: 'Price gt 1', search: ['milk'], custom: { search: 'milk' } }],
    ['Products/$count', 'search=milk', { search: ['milk'], custom: { search: 'milk' } }],
    ['Categories(1)/Products/$count', 'search=milk', { search: ['milk'], custom: { search: 'milk' } }],
    // No terms, no search.
    ['Products', 'search=', { custom: { search: '' } }],
    ['Products', 'search=+%22%22+', { custom: { search: ' "" ' } }],
    // Anywhere else it is a custom option like any other: not read, not refused.
    ['Products(1)', 'search=%22open', { custom: { search: '"open' } }],
    ['Products(1)/Category', 'search=x', { custom: { search: 'x' } }],
    ['Categories(1)/$links/Products', 'search=x', { custom: { search: 'x' } }],
    ['GetProductsByRating', 'rating=4&search=x', { custom: { rating: '4', search: 'x' } }],
    ['$metadata', 'search=x', { custom: { search: 'x' } }],
  ])('%s ? %s (search)', (path, query, expected) => {
    expect(summarize(parse(path, query))).toEqual(expected);
  });

  it('uses no $top limit when maxTop is undefined', () => {
    expect(parse('Products', '$top=1000000', demoModel, { ...LIMITS, maxTop: undefined }).top).toBe(1000000);
  });
});

describe('search where it is not offered', () => {
  const SAP = { namespace: 'http://www.sap.com/Protocols/SAPData', prefix: 'sap', name: 'searchable' };
  const model = defineModel({
    namespace: 'S',
    entityTypes: [{ name: 'T', key: ['ID'], properties: [{ name: 'ID', type: 'Edm.String', nullable: false }] }],
    entityContainers: [
      {
        name: 'C',
        isDefaultEntityContainer: true,
        entitySets: [
          { name: 'Open', entityType: 'S.T', annotationAttributes: [{ ...SAP, value: 'true' }] },
          { name: 'Closed', entityType: 'S.T', annotationAttributes: [{ ...SAP, value: 'false' }] },
          { name: 'Plain', entityType: 'S.T' },
          // Only `true` and `false` are values; anything else is the default, searchable.
          { name: 'Odd', entityType: 'S.T', annotationAttributes: [{ ...SAP, value: 'no' }] },
        ],
      },
    ],
  });
  const searchOf = (path: string, query: string, search = true) => parseQueryOptions(query, parseResourcePath(path, model), model, LIMITS, { search }).search;

  it.each(['Open', 'Plain', 'Odd', 'Open/$count'])('%s?search=x is a search', (path) => {
    expect(searchOf(path, 'search=x')).toEqual(['x']);
  });

  it.each<[string, string, boolean, string]>([
    ['Closed', 'search=x', true, `the entity set 'Closed' is marked sap:searchable="false"`],
    ['Closed/$count', 'search=x', true, `the entity set 'Closed' is marked sap:searchable="false"`],
    ['Open', 'search=x', false, 'this service does not offer search'],
    ['Plain/$count', 'search=x', false, 'this service does not offer search'],
  ])('%s?%s with search %p: 400 SEARCH_NOT_ALLOWED', (path, query, search, detail) => {
    const error = catchODataError(() => searchOf(path, query, search));
    expect([error.status, error.code, error.target, error.message]).toEqual([
      400,
      'SEARCH_NOT_ALLOWED',
      'search',
      `The search query option is not allowed here: ${detail}`,
    ]);
  });

  it('an empty search asks for nothing, so nothing is refused', () => {
    expect([searchOf('Closed', 'search='), searchOf('Open', 'search=++', false)]).toEqual([undefined, undefined]);
  });
});

describe('parseQueryOptions errors', () => {
  it.each<[string, string, string, string]>([
    ['Products', '$Filter=x', 'QUERY_UNKNOWN_OPTION', "Unknown system query option '$Filter'. Did you mean '$filter'?"],
    ['Products', '$tp=1', 'QUERY_UNKNOWN_OPTION', "Unknown system query option '$tp'. Did you mean '$top'?"],
    ['Products', '$count=true', 'QUERY_UNKNOWN_OPTION', "Unknown system query option '$count'."],
    ['Products', '$search=x', 'QUERY_UNKNOWN_OPTION', "Unknown system query option '$search'."],
    ['Products', '$top=1&$top=2', 'QUERY_DUPLICATE_OPTION', "The query option '$top' is given more than once."],
    ['Products', '$filter=ID eq 1&%24filter=ID eq 2', 'QUERY_DUPLICATE_OPTION', "The query option '$filter' is given more than once."],
    ['GetProductsByRating', 'rating=1&rating=2', 'QUERY_DUPLICATE_OPTION', "The query option 'rating' is given more than once."],
    ['Products(1)', '$top=1', 'QUERY_OPTION_NOT_ALLOWED', "The query option '$top' is not allowed for this resource: it does not apply to a single entity"],
    [
      'Products(1)',
      '$orderby=Name',
      'QUERY_OPTION_NOT_ALLOWED',
      "The query option '$orderby' is not allowed for this resource: it does not apply to a single entity",
    ],
    [
      'Products(1)/Category',
      '$skip=1',
      'QUERY_OPTION_NOT_ALLOWED',
      "The query option '$skip' is not allowed for this resource: it does not apply to a single related entity",
    ],
    [
      'Products/$count',
      '$inlinecount=allpages',
      'QUERY_OPTION_NOT_ALLOWED',
      "The query option '$inlinecount' is not allowed for this resource: it does not apply to the count of a collection",
    ],
    [
      'Products/$count',
      '$expand=Category',
      'QUERY_OPTION_NOT_ALLOWED',
      "The query option '$expand' is not allowed for this resource: it does not apply to the count of a collection",
    ],
    [
      'Products(1)/Name/$value',
      '$format=json',
      'QUERY_OPTION_NOT_ALLOWED',
      "The query option '$format' is not allowed for this resource: it does not apply to the raw value of a property",
    ],
    [
      'Products(1)/Name',
      "$filter=Name eq 'x'",
      'QUERY_OPTION_NOT_ALLOWED',
      "The query option '$filter' is not allowed for this resource: it does not apply to a primitive property",
    ],
    [
      '$metadata',
      '$format=json',
      'QUERY_OPTION_NOT_ALLOWED',
      "The query option '$format' is not allowed for this resource: it does not apply to the metadata document",
    ],
    ['$batch', '$top=1', 'QUERY_OPTION_NOT_ALLOWED', "The query option '$top' is not allowed for this resource: it does not apply to a batch request"],
    ['', '$top=1', 'QUERY_OPTION_NOT_ALLOWED', "The query option '$top' is not allowed for this resource: it does not apply to the service document"],
    [
      'Categories(1)/$links/Products',
      '$expand=Products',
      'QUERY_OPTION_NOT_ALLOWED',
      "The query option '$expand' is not allowed for this resource: it does not apply to the links of a navigation property",
    ],
    ['Products', '$top=-1', 'QUERY_INVALID_VALUE', "Invalid value '-1' for the query option '$top': expected a non-negative integer up to 2147483647"],
    ['Products', '$top=abc', 'QUERY_INVALID_VALUE', "Invalid value 'abc' for the query option '$top': expected a non-negative integer up to 2147483647"],
    ['Products', '$top=1.5', 'QUERY_INVALID_VALUE', "Invalid value '1.5' for the query option '$top': expected a non-negative integer up to 2147483647"],
    ['Products', '$top=+1', 'QUERY_INVALID_VALUE', "Invalid value ' 1' for the query option '$top': expected a non-negative integer up to 2147483647"],
    ['Products', '$top=1e3', 'QUERY_INVALID_VALUE', "Invalid value '1e3' for the query option '$top': expected a non-negative integer up to 2147483647"],
    [
      'Products',
      '$skip=2147483648',
      'QUERY_INVALID_VALUE',
      "Invalid value '2147483648' for the query option '$skip': expected a non-negative integer up to 2147483647",
    ],
    [
      'Products',
      '$skip=99999999999999999999',
      'QUERY_INVALID_VALUE',
      "Invalid value '99999999999999999999' for the query option '$skip': expected a non-negative integer up to 2147483647",
    ],
    ['Products', '$top=', 'QUERY_INVALID_VALUE', "Invalid value '' for the query option '$top': the value must not be empty"],
    ['Products', '$filter', 'QUERY_INVALID_VALUE', "Invalid value '' for the query option '$filter': the value must not be empty"],
    ['Products', '$top=101', 'QUERY_LIMIT_EXCEEDED', '$top exceeds the limit of 100: 101 was asked for'],
    ['Products', '$inlinecount=all', 'QUERY_INVALID_VALUE', "Invalid value 'all' for the query option '$inlinecount': expected 'allpages' or 'none'"],
    ['Products', '$inlinecount=AllPages', 'QUERY_INVALID_VALUE', "Invalid value 'AllPages' for the query option '$inlinecount': expected 'allpages' or 'none'"],
    ['Products', `$filter=${'Rating gt 1 and '.repeat(4)}Rating gt 1`, 'QUERY_LIMIT_EXCEEDED', '$filter exceeds the limit of 60: it is 75 characters long'],
    ['Products', `$orderby=${'Name,'.repeat(12)}Name`, 'QUERY_LIMIT_EXCEEDED', '$orderby exceeds the limit of 60: it is 64 characters long'],
    ['Products', "$skiptoken='Milk',1", 'SKIPTOKEN_INVALID', "The $skiptoken ''Milk',1' is not valid for this request."],
    ['Products', '$orderby=Name&$skiptoken=1', 'SKIPTOKEN_INVALID', "The $skiptoken '1' is not valid for this request."],
    [
      'Products',
      '$select=Nme',
      'QUERY_INVALID_VALUE',
      "Invalid value 'Nme' for the query option '$select': no property 'Nme' exists in 'ODataDemo.Product' (position 0). Did you mean 'Name'?",
    ],
    ['Products', '$expand=Category/Products/Supplier', 'QUERY_LIMIT_EXCEEDED', "$expand exceeds the limit of 2: 'Category/Products/Supplier' is 3 levels deep"],
    ['Products', '$expand=Category,Supplier,Category,Supplier', 'QUERY_LIMIT_EXCEEDED', '$expand exceeds the limit of 3: it lists 4 paths'],
    ['Products', 'search=a b c d', 'QUERY_LIMIT_EXCEEDED', "search exceeds the limit of 3 terms: 'a b c d' has more"],
    ['Products/$count', 'search=%22milk', 'SEARCH_INVALID', "Invalid search '\"milk': the double quote at position 0 is not closed"],
    ['Products', '$filter=%ZZ', 'URI_PERCENT_ENCODING', "Bad percent-encoding in '$filter=%ZZ'."],
  ])('%s ? %s -> %s', (path, query, code, message) => {
    const error = catchODataError(() => parse(path, query));
    expect([error.code, error.status, error.message]).toEqual([code, 400, message]);
  });

  it.each<[string, string]>([
    ['$filter=Nme eq 1', 'FILTER_UNKNOWN_PROPERTY'],
    ['$filter=Name', 'FILTER_TYPE'],
    ["$filter=Name eq 'x", 'FILTER_SYNTAX'],
    ['$filter=((((((Rating gt 1))))))', 'QUERY_LIMIT_EXCEEDED'],
    ['$orderby=Nme', 'FILTER_UNKNOWN_PROPERTY'],
    ['$orderby=Category', 'FILTER_TYPE'],
  ])('passes %s to the expression layer (%s)', (query, code) => {
    const error = catchODataError(() => parse('Products', query));
    expect([error.code, error.status]).toEqual([code, 400]);
  });

  it('checks the option against the resource before parsing its value', () => {
    const error = catchODataError(() => parse('Products(1)', '$top=abc'));
    expect(error.code).toBe('QUERY_OPTION_NOT_ALLOWED');
  });
});
