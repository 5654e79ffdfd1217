/**
 * Query options end to end (issue 3): the demo service on a real port, through HTTP, with exact
 * results checked against the demo data (spec/fixtures/odata-demo/data.json). Tables per option:
 * $filter (every operator and function), $orderby, $top/$skip, $inlinecount and /$count, $select,
 * $expand and its limits, options on navigation collections and where they do not apply, query
 * string encoding, custom options reaching the provider, and DataServiceVersion per feature.
 */
import { readFileSync } from 'fs';
import { resolve } from 'path';
import express from 'express';
import request from 'supertest';
import { type MemoryProvider, odata } from '../../lib';
import type { EdmModel } from '../../lib/edm/model';
import type { CountRequest, DataProvider, QueryRequest, QueryResult } from '../../lib/provider/types';
import type { RequestContext } from '../../lib/protocol/message';
import { DEMO_MODEL, EXPRESS_VERSIONS, FIXED_NOW, demoData as loadDemoData, demoProvider, startDemo } from '../helpers/demo';
import { type RunningServer, startServer } from '../helpers/server';

const demoData = loadDemoData() as Record<string, Record<string, unknown>[]>;

interface JsonEntity {
  readonly ID: number;
  readonly [name: string]: unknown;
}

/** The entities of a verbose JSON feed, 1.0 (`d: [...]`) or 2.0 (`d: { results: [...] }`). */
function feedOf(body: { d: JsonEntity[] | { results: JsonEntity[] } }): JsonEntity[] {
  return Array.isArray(body.d) ? body.d : body.d.results;
}

const idsOf = (body: { d: JsonEntity[] | { results: JsonEntity[] } }): number[] => feedOf(body).map((entity) => entity.ID);

/** The keys of the top-level entries of an Atom feed (inline entries are inside `<link>`, after the entry's own id). */
function atomIds(xml: string, set: string): number[] {
  return [...xml.matchAll(new RegExp(`<entry><id>[^<]*/${set}\\((\\d+)\\)</id>`, 'g'))].map((match) => Number(match[1]));
}

const ALL_PRODUCTS = [0, 1, 2, 3, 4, 5, 6, 7, 8];

describe('query options on the demo service', () => {
  let demo: RunningServer;
  beforeAll(async () => {
    demo = await startDemo();
  });
  afterAll(() => demo.close());

  const get = (path: string) => request(demo.url).get(`/odata/${path}`);
  /** GET with `$format=json` appended; the path is sent as written (spaces become %20, nothing else changes). */
  const json = (path: string) => get(`${path}${path.includes('?') ? '&' : '?'}$format=json`.replace(/ /g, '%20'));

  async function expectError(path: string, status: number, code: string, message: string): Promise<void> {
    const response = await json(path);
    expect({ status: response.status, code: response.body.error?.code, message: response.body.error?.message?.value }).toEqual({ status, code, message });
  }

  // ---------------------------------------------------------------------------------------------
  describe('$filter', () => {
    it.each([
      // comparison operators on each type of the demo
      ['Price gt 20', [2, 4, 5, 7, 8]],
      ['Price ge 22.8M', [4, 5, 7, 8]],
      ['Price lt 3.5M', [0]],
      ['Price le 3.5M', [0, 1]],
      ['Price gt 20.5', [2, 4, 5, 7, 8]],
      ['Rating eq 4', [0]],
      ['Rating ne 3', [0]],
      ['ID lt 2', [0, 1]],
      ["Name eq 'Milk'", [1]],
      ["Name gt 'M'", [1, 2, 6]],
      ["ReleaseDate lt datetime'2000-01-01T00:00:00'", [0, 1]],
      ["DiscontinuedDate eq datetime'2006-10-01T00:00:00'", [3]],
      // logical operators and precedence (and binds tighter than or; not tighter than both)
      ['Price gt 20 and Price lt 30', [2, 4, 5]],
      ['ID eq 0 or ID eq 8', [0, 8]],
      ['not (Price gt 20)', [0, 1, 3, 6]],
      ["not substringof('a',Name)", [1, 4, 8]],
      ['Rating eq 3 or ID eq 0 and Price gt 100', [1, 2, 3, 4, 5, 6, 7, 8]],
      ['(Rating eq 3 or ID eq 0) and Price gt 100', [8]],
      ['not (ID lt 3) and not (ID gt 5)', [3, 4, 5]],
      // arithmetic
      ['Price add 1 gt 23', [4, 5, 7, 8]],
      ['Price sub 2.5M eq 0', [0]],
      ['Price mul 2 eq 7', [1]],
      ['Price div 2 lt 2', [0, 1]],
      ['ID mod 3 eq 0', [0, 3, 6]],
      ['-Price lt -1000', [8]],
      ['Rating add ID eq 7', [4]],
      ['ID add 1 mul 3 eq 9', [6]],
      ['(ID add 1) mul 3 eq 9', [2]],
      ['ID sub 4 sub 2 eq 0', [6]],
      // string functions
      ["substringof('a',Name)", [0, 2, 3, 5, 6, 7]],
      ["startswith(Name,'C')", [5]],
      ["endswith(Name,'e')", [5, 6]],
      ['length(Name) eq 4', [1]],
      ["indexof(Name,'a') eq 1", [3]],
      ["replace(Name,' ','') eq 'Vintsoda'", [2]],
      ["substring(Name,1) eq 'ilk'", [1]],
      ["substring(Name,0,3) eq 'LCD'", [8]],
      ["tolower(Name) eq 'dvd player'", [7]],
      ["toupper(Name) eq 'MILK'", [1]],
      ["trim(concat(' ',Name)) eq 'Bread'", [0]],
      ["concat(concat(Name,' '),Description) eq 'Milk Low fat milk'", [1]],
      // date functions (null propagates: a missing DiscontinuedDate matches nothing)
      ['year(ReleaseDate) eq 2006', [5, 6, 7]],
      ['month(ReleaseDate) eq 10', [1, 2, 3]],
      ['day(ReleaseDate) eq 5', [4, 6]],
      ['hour(ReleaseDate) eq 0 and minute(ReleaseDate) eq 0 and second(ReleaseDate) eq 0', ALL_PRODUCTS],
      ['year(DiscontinuedDate) eq 2006', [3]],
      // math functions (round: half away from zero)
      ['round(Price) eq 23M', [4, 5]],
      ['round(Price) eq 3M', [0]],
      ['floor(Price) eq 22', [4, 5]],
      ['ceiling(Price) eq 21', [2]],
      // type functions
      ["isof('ODataDemo.Product')", ALL_PRODUCTS],
      ["isof(Category,'ODataDemo.Category')", ALL_PRODUCTS],
      ["cast(Price,'Edm.Int32') eq 22", [4, 5]],
      // an entity type outside the hierarchy: nothing is of it (false, null), not a type error
      ["isof('ODataDemo.Category')", []],
      ["not isof('ODataDemo.Category')", ALL_PRODUCTS],
      ["isof(Category,'ODataDemo.Supplier')", []],
      ["cast('ODataDemo.Category') eq null", ALL_PRODUCTS],
      ["cast('ODataDemo.Category')/Name eq 'Food'", []],
      // navigation (single-valued) and complex properties in paths
      ["Category/Name eq 'Beverages'", [1, 2, 3, 4, 5, 6]],
      ["Supplier/Address/City eq 'Redmond'", [0, 7, 8]],
      ['Category/ID add Supplier/ID eq 1', [0, 1, 2, 3, 4, 5, 6]],
      // null semantics: eq/ne null test presence; ordering comparisons with null are false
      ['DiscontinuedDate eq null', [0, 1, 2, 4, 5, 6, 7, 8]],
      ['null eq DiscontinuedDate', [0, 1, 2, 4, 5, 6, 7, 8]],
      ['DiscontinuedDate ne null', [3]],
      ["DiscontinuedDate gt datetime'2000-01-01T00:00:00'", [3]],
      ["not (DiscontinuedDate gt datetime'2000-01-01T00:00:00')", [0, 1, 2, 4, 5, 6, 7, 8]],
      // literals: a doubled quote is one quote
      ["concat(Name,'''') eq 'Milk'''", [1]],
    ])('Products?$filter=%s', async (filter, expected) => {
      const response = await json(`Products?$filter=${filter}`);
      expect(response.status).toBe(200);
      expect(idsOf(response.body)).toEqual(expected);
    });

    it.each([
      ['Suppliers', "Address/City eq 'Redmond'", [1]],
      ['Suppliers', "startswith(Address/ZipCode,'980') and Address/State eq 'WA'", [0, 1]],
      ['Suppliers', 'Concurrency eq 0', [0, 1]],
      ['Categories', "Name ne 'Food'", [1, 2]],
      ['Categories', "length(Name) ge 4 and indexof(Name,'o') ge 0", [0, 2]],
    ])('%s?$filter=%s', async (set, filter, expected) => {
      const response = await json(`${set}?$filter=${filter}`);
      expect(response.status).toBe(200);
      expect(idsOf(response.body)).toEqual(expected);
    });

    it('gives the same entries in Atom', async () => {
      const response = await get("Products?$filter=Category/Name%20eq%20'Electronics'");
      expect(response.status).toBe(200);
      expect(atomIds(response.text, 'Products')).toEqual([7, 8]);
    });

    it.each([
      ['Price gt', 'FILTER_SYNTAX', "Syntax error at position 8 in 'Price gt': expected an expression, found the end of the expression"],
      ['Price gt 20)', 'FILTER_SYNTAX', "Syntax error at position 11 in 'Price gt 20)': expected an operator, found ')'"],
      ['(Price gt 20', 'FILTER_SYNTAX', "Syntax error at position 12 in '(Price gt 20': expected ')', found the end of the expression"],
      ["Name eq 'Milk", 'FILTER_SYNTAX', "Syntax error at position 8 in 'Name eq 'Milk': Bad literal ''Milk': the closing quote is missing"],
      ['Price gt 20 an ID eq 1', 'FILTER_SYNTAX', "Syntax error at position 12 in 'Price gt 20 an ID eq 1': expected an operator, found 'an'"],
      ["Nme eq 'x'", 'FILTER_UNKNOWN_PROPERTY', "No property 'Nme' exists in type 'ODataDemo.Product' at position 0 in 'Nme eq 'x''. Did you mean 'Name'?"],
      [
        "Category/Nam eq 'x'",
        'FILTER_UNKNOWN_PROPERTY',
        "No property 'Nam' exists in type 'ODataDemo.Category' at position 9 in 'Category/Nam eq 'x''. Did you mean 'Name'?",
      ],
      ['Name eq 1', 'FILTER_TYPE', "Type error at position 0 in 'Name eq 1': the operator 'eq' cannot compare Edm.String with Edm.Int32"],
      ['Name', 'FILTER_TYPE', "Type error at position 0 in 'Name': the expression must be of type Edm.Boolean, but it is Edm.String"],
      [
        'not Rating eq 3',
        'FILTER_TYPE',
        "Type error at position 4 in 'not Rating eq 3': the operator 'not' needs Edm.Boolean operands, but this one is Edm.Int32",
      ],
      ["substringof('a')", 'FILTER_ARITY', "Function 'substringof' takes 2 argument(s), got 1, at position 0 in 'substringof('a')'."],
      ['ID eq 1 and length(Name,1) eq 4', 'FILTER_ARITY', "Function 'length' takes 1 argument(s), got 2, at position 12 in 'ID eq 1 and length(Name,1) eq 4'."],
      ['foo(Name)', 'FILTER_UNKNOWN_FUNCTION', "Unknown function 'foo' at position 0 in 'foo(Name)'."],
      [
        'ID eq 1 and lenght(Name) eq 4',
        'FILTER_UNKNOWN_FUNCTION',
        "Unknown function 'lenght' at position 12 in 'ID eq 1 and lenght(Name) eq 4'. Did you mean 'length'?",
      ],
      ['Price div 0 gt 1', 'FILTER_DIVISION_BY_ZERO', "Division by zero while evaluating 'Price div 0'."],
    ])('$filter=%s is 400 %s', async (filter, code, message) => {
      await expectError(`Products?$filter=${filter}`, 400, code, message);
    });

    it('sends filter errors as an Atom error body when no format is asked for', async () => {
      const response = await get('Products?$filter=Price%20gt');
      expect(response.status).toBe(400);
      expect(response.headers['content-type']).toBe('application/xml;charset=utf-8');
      expect(response.text).toContain('<m:code>FILTER_SYNTAX</m:code>');
      expect(response.text).toContain("at position 8 in 'Price gt'");
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('$orderby', () => {
    it.each([
      ['ID desc', [8, 7, 6, 5, 4, 3, 2, 1, 0]],
      ['Name', [0, 5, 7, 4, 3, 8, 1, 6, 2]],
      ['Name asc', [0, 5, 7, 4, 3, 8, 1, 6, 2]],
      // ties on Rating fall back to the key, ascending
      ['Rating', [1, 2, 3, 4, 5, 6, 7, 8, 0]],
      ['Rating desc', [0, 1, 2, 3, 4, 5, 6, 7, 8]],
      ['Rating desc,Price', [0, 1, 6, 3, 2, 5, 4, 7, 8]],
      ['Rating,Name desc', [2, 6, 1, 8, 3, 4, 7, 5, 0]],
      ['Rating desc,ID desc', [0, 8, 7, 6, 5, 4, 3, 2, 1]],
      ['Category/Name,Price desc', [4, 5, 2, 3, 6, 1, 8, 7, 0]],
      ['Supplier/Address/City desc,ID desc', [6, 5, 4, 3, 2, 1, 8, 7, 0]],
      // null sorts before every value
      ['DiscontinuedDate desc', [3, 0, 1, 2, 4, 5, 6, 7, 8]],
      ['DiscontinuedDate,ID desc', [8, 7, 6, 5, 4, 2, 1, 0, 3]],
      ['length(Name) desc', [5, 6, 3, 4, 7, 2, 8, 0, 1]],
      ['year(ReleaseDate) desc,Price', [8, 6, 5, 7, 3, 4, 2, 1, 0]],
    ])('Products?$orderby=%s', async (orderBy, expected) => {
      const response = await json(`Products?$orderby=${orderBy}`);
      expect(response.status).toBe(200);
      expect(idsOf(response.body)).toEqual(expected);
    });

    it.each([
      ['Nme', 'FILTER_UNKNOWN_PROPERTY', "No property 'Nme' exists in type 'ODataDemo.Product' at position 0 in 'Nme'. Did you mean 'Name'?"],
      ['Name up', 'FILTER_SYNTAX', "Syntax error at position 5 in 'Name up': expected ',' or 'asc'/'desc', found 'up'"],
      ['Category', 'FILTER_TYPE', "Type error at position 0 in 'Category': cannot sort by ODataDemo.Category: only primitive values can be compared"],
      ['Name,', 'FILTER_SYNTAX', "Syntax error at position 5 in 'Name,': expected an expression, found the end of the expression"],
    ])('$orderby=%s is 400 %s', async (orderBy, code, message) => {
      await expectError(`Products?$orderby=${orderBy}`, 400, code, message);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('$top and $skip', () => {
    it.each([
      ['$top=2', [0, 1]],
      ['$skip=7', [7, 8]],
      ['$skip=2&$top=3', [2, 3, 4]],
      ['$top=3&$skip=2', [2, 3, 4]],
      ['$top=0', []],
      ['$skip=100', []],
      ['$top=2147483647', ALL_PRODUCTS],
      ['$orderby=Price desc&$top=3', [8, 7, 4]],
      ['$orderby=Price desc&$skip=1&$top=2', [7, 4]],
      ['$filter=Rating eq 3&$skip=6', [7, 8]],
    ])('Products?%s', async (query, expected) => {
      const response = await json(`Products?${query}`);
      expect(response.status).toBe(200);
      expect(idsOf(response.body)).toEqual(expected);
    });

    it.each([
      ['$top', '-1'],
      ['$top', 'abc'],
      ['$top', '1.5'],
      ['$top', '2147483648'],
      ['$top', '+1'],
      ['$top', '%201'],
      ['$skip', '-1'],
      ['$skip', '1e3'],
      ['$skip', '99999999999'],
    ])('%s=%s is 400 QUERY_INVALID_VALUE', async (option, value) => {
      const decoded = decodeURIComponent(value.replace(/\+/g, ' '));
      await expectError(
        `Products?${option}=${value}`,
        400,
        'QUERY_INVALID_VALUE',
        `Invalid value '${decoded}' for the query option '${option}': expected a non-negative integer up to 2147483647`,
      );
    });

    it('refuses an empty value', async () => {
      await expectError('Products?$skip=', 400, 'QUERY_INVALID_VALUE', "Invalid value '' for the query option '$skip': the value must not be empty");
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('$inlinecount and /$count', () => {
    it.each([
      ['Products?$inlinecount=allpages&$top=2', '9', [0, 1]],
      ['Products?$inlinecount=allpages&$filter=Price gt 20&$top=1', '5', [2]],
      ['Products?$inlinecount=allpages&$skip=8', '9', [8]],
      ['Products?$inlinecount=allpages&$top=0', '9', []],
      ['Categories(1)/Products?$inlinecount=allpages&$orderby=Price desc&$top=2', '6', [4, 5]],
      ['Products?$inlinecount=allpages&$filter=ID gt 100', '0', []],
    ])('%s counts %s', async (path, count, ids) => {
      const response = await json(path);
      expect(response.status).toBe(200);
      expect(response.headers['dataserviceversion']).toBe('2.0;');
      expect(response.body.d.__count).toBe(count);
      expect(idsOf(response.body)).toEqual(ids);
    });

    it('writes m:count in Atom', async () => {
      const response = await get('Categories?$inlinecount=allpages&$top=1');
      expect(response.status).toBe(200);
      expect(response.text).toContain('<m:count>3</m:count>');
      expect(atomIds(response.text, 'Categories')).toEqual([0]);
    });

    it('writes no count for none, which needs no 2.0', async () => {
      const response = await json('Products?$inlinecount=none&$top=2').set('MaxDataServiceVersion', '1.0');
      expect(response.status).toBe(200);
      expect(response.headers['dataserviceversion']).toBe('1.0;');
      expect(Array.isArray(response.body.d)).toBe(true);
      expect(idsOf(response.body)).toEqual([0, 1]);
    });

    it.each(['foo', 'AllPages', 'allpages '])('$inlinecount=%s is 400', async (value) => {
      await expectError(
        `Products?$inlinecount=${encodeURIComponent(value)}`,
        400,
        'QUERY_INVALID_VALUE',
        `Invalid value '${value}' for the query option '$inlinecount': expected 'allpages' or 'none'`,
      );
    });

    it.each([
      ['Products/$count', '9'],
      ['Products/$count?$filter=Price gt 20', '5'],
      ["Products/$count?$filter=Category/Name eq 'Electronics'", '2'],
      ['Products/$count?$filter=DiscontinuedDate ne null', '1'],
      ['Categories(1)/Products/$count?$filter=Price lt 20', '3'],
      ['Products/$count?$top=2', '2'],
      ['Products/$count?$skip=7', '2'],
      ['Products/$count?$filter=Rating eq 3&$orderby=Name&$skip=1&$top=100', '7'],
    ])('%s is %s', async (path, count) => {
      const response = await get(path.replace(/ /g, '%20'));
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('text/plain;charset=utf-8');
      expect(response.headers['dataserviceversion']).toBe('2.0;');
      expect(response.text).toBe(count);
    });

    it.each([
      ['Products/$count?$inlinecount=allpages', '$inlinecount', 'the count of a collection'],
      ['Products/$count?$expand=Category', '$expand', 'the count of a collection'],
      ['Products/$count?$select=Name', '$select', 'the count of a collection'],
    ])('%s is 400 QUERY_OPTION_NOT_ALLOWED', async (path, option, target) => {
      await expectError(path, 400, 'QUERY_OPTION_NOT_ALLOWED', `The query option '${option}' is not allowed for this resource: it does not apply to ${target}`);
    });

    it.each([
      ['Products(3)/$count', "'Products' addresses a single entity"],
      ['Products(3)/$count?$filter=DiscontinuedDate eq null', "'Products' addresses a single entity"],
      ['Products(1)/Category/$count', "'Category' addresses a single entity"],
      ['Products(1)/$links/Category/$count', "'$links/Category' addresses a single link"],
    ])('%s is 400 URI_INVALID_SEGMENT: $count follows collections only', async (path, detail) => {
      await expectError(
        path.replace(/ /g, '%20'),
        400,
        'URI_INVALID_SEGMENT',
        `The segment '$count' is not valid here: $count can only follow a collection; ${detail}`,
      );
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('$select', () => {
    const uri = (path: string) => `${demo.url}/odata/${path}`;

    it('keeps the listed properties', async () => {
      const response = await json('Products(1)?$select=Name,Price');
      expect(response.status).toBe(200);
      expect(response.headers['dataserviceversion']).toBe('2.0;');
      expect(response.body).toEqual({ d: { __metadata: { uri: uri('Products(1)'), type: 'ODataDemo.Product' }, Name: 'Milk', Price: '3.5' } });
    });

    it('keeps every property for *, the navigation links included (MS-ODATA §2.2.3.6.1.11), as without $select', async () => {
      const response = await json('Products(1)?$select=*');
      const plain = await json('Products(1)');
      expect(response.body.d).toEqual({
        __metadata: { uri: uri('Products(1)'), type: 'ODataDemo.Product' },
        ID: 1,
        Name: 'Milk',
        Description: 'Low fat milk',
        ReleaseDate: '/Date(812505600000)/',
        DiscontinuedDate: null,
        Rating: 3,
        Price: '3.5',
        Category: { __deferred: { uri: uri('Products(1)/Category') } },
        Supplier: { __deferred: { uri: uri('Products(1)/Supplier') } },
      });
      expect(response.body.d).toEqual(plain.body.d);
    });

    it('keeps the related links for * in Atom, as without $select', async () => {
      const links = (text: string) =>
        [...text.matchAll(/<link rel="http:\/\/schemas\.microsoft\.com\/ado\/2007\/08\/dataservices\/related\/[^>]*>/g)].map((m) => m[0]);
      const selected = await get('Products(1)?$select=*');
      const plain = await get('Products(1)');
      expect(links(selected.text)).toEqual([
        '<link rel="http://schemas.microsoft.com/ado/2007/08/dataservices/related/Category" type="application/atom+xml;type=entry" title="Category" href="Products(1)/Category"/>',
        '<link rel="http://schemas.microsoft.com/ado/2007/08/dataservices/related/Supplier" type="application/atom+xml;type=entry" title="Supplier" href="Products(1)/Supplier"/>',
      ]);
      expect(links(selected.text)).toEqual(links(plain.text));
    });

    it('keeps the navigation links of an expanded level selected with Nav/*', async () => {
      const response = await json('Products(1)?$select=Name,Category/*&$expand=Category');
      expect(response.body.d).toEqual({
        __metadata: { uri: uri('Products(1)'), type: 'ODataDemo.Product' },
        Name: 'Milk',
        Category: {
          __metadata: { uri: uri('Categories(1)'), type: 'ODataDemo.Category' },
          ID: 1,
          Name: 'Beverages',
          Products: { __deferred: { uri: uri('Categories(1)/Products') } },
        },
      });
      const atom = await get('Products(1)?$select=Name,Category/*&$expand=Category');
      expect(atom.text).toContain(
        '<link rel="http://schemas.microsoft.com/ado/2007/08/dataservices/related/Products" type="application/atom+xml;type=feed" title="Products" href="Categories(1)/Products"/>',
      );
    });

    it('writes a selected navigation property as deferred', async () => {
      const response = await json('Products(1)?$select=ID,Category');
      expect(response.body.d).toEqual({
        __metadata: { uri: uri('Products(1)'), type: 'ODataDemo.Product' },
        ID: 1,
        Category: { __deferred: { uri: uri('Products(1)/Category') } },
      });
    });

    it('selects into an expanded navigation property', async () => {
      const response = await json('Products?$select=Name,Category/Name&$expand=Category&$filter=ID le 1');
      expect(feedOf(response.body)).toEqual([
        {
          __metadata: { uri: uri('Products(0)'), type: 'ODataDemo.Product' },
          Name: 'Bread',
          Category: { __metadata: { uri: uri('Categories(0)'), type: 'ODataDemo.Category' }, Name: 'Food' },
        },
        {
          __metadata: { uri: uri('Products(1)'), type: 'ODataDemo.Product' },
          Name: 'Milk',
          Category: { __metadata: { uri: uri('Categories(1)'), type: 'ODataDemo.Category' }, Name: 'Beverages' },
        },
      ]);
    });

    it('selects in Atom: only the listed properties in m:properties', async () => {
      const response = await get('Suppliers(1)?$select=Name,Address');
      expect(response.status).toBe(200);
      expect(response.headers['dataserviceversion']).toBe('2.0;');
      const properties = /<m:properties>(.*)<\/m:properties>/.exec(response.text)?.[1];
      expect(properties).toBe(
        '<d:Name>Tokyo Traders</d:Name><d:Address m:type="ODataDemo.Address"><d:Street>NE 40th</d:Street><d:City>Redmond</d:City>' +
          '<d:State>WA</d:State><d:ZipCode>98052</d:ZipCode><d:Country>USA</d:Country></d:Address>',
      );
      expect(response.text).not.toContain('/Products"');
    });

    it.each([
      ['Nme', "Invalid value 'Nme' for the query option '$select': no property 'Nme' exists in 'ODataDemo.Product' (position 0). Did you mean 'Name'?"],
      [
        'Category/Name',
        "Invalid value 'Category/Name' for the query option '$select': 'Category/Name' selects into 'Category', which is not expanded; add it to $expand",
      ],
    ])('$select=%s is 400', async (select, message) => {
      await expectError(`Products?$select=${select}`, 400, 'QUERY_INVALID_VALUE', message);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('$expand', () => {
    it('expands a single-valued navigation property inline', async () => {
      const response = await json('Products(1)?$expand=Category');
      expect(response.status).toBe(200);
      expect(response.body.d.Category).toEqual({
        __metadata: { uri: `${demo.url}/odata/Categories(1)`, type: 'ODataDemo.Category' },
        ID: 1,
        Name: 'Beverages',
        Products: { __deferred: { uri: `${demo.url}/odata/Categories(1)/Products` } },
      });
      expect(response.body.d.Supplier).toEqual({ __deferred: { uri: `${demo.url}/odata/Products(1)/Supplier` } });
    });

    it('expands several paths at once', async () => {
      const response = await json('Products?$expand=Category,Supplier&$filter=ID ge 7');
      const rows = feedOf(response.body).map((p) => [p.ID, (p.Category as JsonEntity).ID, (p.Supplier as { Name: string }).Name]);
      expect(rows).toEqual([
        [7, 2, 'Tokyo Traders'],
        [8, 2, 'Tokyo Traders'],
      ]);
    });

    it('expands a many-valued navigation property of every entry in a feed', async () => {
      const response = await json('Categories?$expand=Products');
      expect(feedOf(response.body).map((c) => idsOf({ d: c.Products as { results: JsonEntity[] } }))).toEqual([[0], [1, 2, 3, 4, 5, 6], [7, 8]]);
    });

    it('expands over two levels (Products/Supplier from Categories)', async () => {
      const response = await json('Categories(2)?$expand=Products/Supplier');
      expect(response.status).toBe(200);
      const products = feedOf({ d: response.body.d.Products });
      expect(products.map((p) => [p.ID, (p.Supplier as JsonEntity).ID])).toEqual([
        [7, 1],
        [8, 1],
      ]);
      expect((products[0].Supplier as { __metadata: unknown }).__metadata).toEqual({
        uri: `${demo.url}/odata/Suppliers(1)`,
        type: 'ODataDemo.Supplier',
        etag: 'W/"0"',
      });
    });

    it('expands two levels through the inverse navigation (Products/Category from Suppliers)', async () => {
      const response = await json('Suppliers(1)?$expand=Products/Category');
      const products = feedOf({ d: response.body.d.Products });
      expect(products.map((p) => [p.ID, (p.Category as { Name: string }).Name])).toEqual([
        [0, 'Food'],
        [7, 'Electronics'],
        [8, 'Electronics'],
      ]);
    });

    it('writes m:inline in Atom', async () => {
      const response = await get('Products(7)?$expand=Supplier');
      expect(response.text).toContain(
        `<link rel="http://schemas.microsoft.com/ado/2007/08/dataservices/related/Supplier" type="application/atom+xml;type=entry" title="Supplier" href="Products(7)/Supplier"><m:inline><entry m:etag="W/&quot;0&quot;"><id>${demo.url}/odata/Suppliers(1)</id>`,
      );
    });

    it.each([
      ['Nope', "Invalid value 'Nope' for the query option '$expand': no navigation property 'Nope' exists in 'ODataDemo.Product' (position 0)."],
      ['Name', "Invalid value 'Name' for the query option '$expand': 'Name' at position 0 is not a navigation property of 'ODataDemo.Product'"],
    ])('$expand=%s is 400', async (expand, message) => {
      await expectError(`Products?$expand=${expand}`, 400, 'QUERY_INVALID_VALUE', message);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('options on navigation collections', () => {
    it.each([
      ['Categories(1)/Products?$filter=Price gt 20&$orderby=Price desc', [4, 5, 2]],
      ['Categories(1)/Products?$top=2&$skip=1', [2, 3]],
      ["Categories(1)/Products?$filter=substringof('o',Name)&$orderby=Name desc", [2, 6, 3]],
      ['Suppliers(1)/Products?$orderby=Name', [0, 7, 8]],
      ['Suppliers(0)/Products?$filter=year(ReleaseDate) eq 2006&$select=ID', [5, 6]],
      ["Categories(2)/Products?$filter=Supplier/Name eq 'Tokyo Traders'", [7, 8]],
    ])('%s', async (path, expected) => {
      const response = await json(path);
      expect(response.status).toBe(200);
      expect(idsOf(response.body)).toEqual(expected);
    });

    it('404s when the source of the navigation does not exist', async () => {
      const response = await json('Categories(9)/Products?$filter=ID gt 0');
      expect(response.status).toBe(404);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('options that do not apply to the target', () => {
    it.each([
      ['Products(1)?$top=1', '$top', 'a single entity'],
      ['Products(1)?$skip=1', '$skip', 'a single entity'],
      ['Products(1)?$orderby=Name', '$orderby', 'a single entity'],
      ['Products(1)?$inlinecount=allpages', '$inlinecount', 'a single entity'],
      ['Products(1)?$skiptoken=1', '$skiptoken', 'a single entity'],
      ['Products(1)/Category?$top=1', '$top', 'a single related entity'],
      ['Products(1)/Name?$filter=ID eq 1', '$filter', 'a primitive property'],
      ['Suppliers(1)/Address?$select=City', '$select', 'a complex property'],
      ['Products(1)/Name/$value?$format=json', '$format', 'the raw value of a property'],
      ['Categories(1)/$links/Products?$expand=Category', '$expand', 'the links of a navigation property'],
      ['$metadata?$top=1', '$top', 'the metadata document'],
      ['?$filter=ID eq 1', '$filter', 'the service document'],
    ])('%s is 400', async (path, option, target) => {
      const response = await get(path.replace(/ /g, '%20'));
      expect(response.status).toBe(400);
      // In the format asked for: XML by default, JSON for the $format=json row.
      expect(response.text).toMatch(/<m:code>QUERY_OPTION_NOT_ALLOWED<\/m:code>|"code":"QUERY_OPTION_NOT_ALLOWED"/);
      expect(response.text).toContain(`The query option '${option}' is not allowed for this resource: it does not apply to ${target}`);
    });

    it('applies $filter to a single entity: 404 when it does not match', async () => {
      expect((await json('Products(1)?$filter=Price lt 5')).body.d.ID).toBe(1);
      expect((await json('Products(1)?$filter=Price gt 5')).status).toBe(404);
    });

    it.each([
      ['Products?$foo=1', 'QUERY_UNKNOWN_OPTION', "Unknown system query option '$foo'."],
      ['Products?$fitler=ID eq 1', 'QUERY_UNKNOWN_OPTION', "Unknown system query option '$fitler'. Did you mean '$filter'?"],
      ['Products?$top=1&$top=2', 'QUERY_DUPLICATE_OPTION', "The query option '$top' is given more than once."],
    ])('%s is 400 %s', async (path, code, message) => {
      await expectError(path, 400, code, message);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('query string encoding', () => {
    it.each([
      ["$filter=Name+eq+'Vint+soda'", [2]],
      ['$filter=Name%20eq%20%27Milk%27', [1]],
      ['%24filter=ID%20eq%201', [1]],
      ['$filter=Name eq %27Pink%20Lemonade%27', [6]],
      ["$filter=substringof('%2C',Description)", [4]],
      ['$orderby=Rating+desc,Price+desc&$top=3', [0, 8, 7]],
      ["$filter=Name eq 'Fruit%20Punch'+or+Name+eq+'Milk'", [1, 4]],
    ])('Products?%s', async (query, expected) => {
      const response = await json(`Products?${query}`);
      expect(response.status).toBe(200);
      expect(idsOf(response.body)).toEqual(expected);
    });

    it('echoes the decoded text in error messages', async () => {
      await expectError(
        'Products?$filter=Name+eq+%27x%27+and',
        400,
        'FILTER_SYNTAX',
        "Syntax error at position 15 in 'Name eq 'x' and': expected an expression, found the end of the expression",
      );
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('DataServiceVersion by feature', () => {
    // What the result needs, seen by a client that accepts only 1.0 (MaxDataServiceVersion: 1.0),
    // so no version raise on the server's side can hide a 2.0 feature.
    it.each([
      ['Products?$format=json', '1.0;'],
      ['Products?$format=json&$filter=Price%20gt%2020&$orderby=Name&$top=2&$skip=1', '1.0;'],
      ['Products?$format=json&$expand=Category', '1.0;'],
      ['Products(1)?$format=json&$expand=Category', '1.0;'],
      ['Products?$format=json&$inlinecount=none', '1.0;'],
      ['Categories', '1.0;'],
      ['Categories?$format=json&$filter=ID%20gt%200&$top=1&$expand=Products', '1.0;'],
    ])('%s needs %s', async (path, version) => {
      const response = await get(path).set('MaxDataServiceVersion', '1.0');
      expect(response.status).toBe(200);
      expect(response.headers['dataserviceversion']).toBe(version);
    });

    it.each([
      ['Products?$format=json&$select=ID'],
      ['Products(1)?$format=json&$select=ID'],
      ['Products(1)?$format=json&$select=ID,Category/Name&$expand=Category'],
      ['Categories?$select=Name'],
      ['Products?$format=json&$inlinecount=allpages'],
      ['Categories?$inlinecount=allpages'],
      ['Products/$count'],
      // Atom feeds of Products move Name and Description out of the content (FC_KeepInContent=false),
      // also when Products are inline in another feed.
      ['Products'],
      ['Categories?$filter=ID%20gt%200&$top=1&$expand=Products'],
    ])('%s needs 2.0, and a 1.0 client gets 400 VERSION_TOO_LOW', async (path) => {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers['dataserviceversion']).toBe('2.0;');
      const old = await get(path).set('MaxDataServiceVersion', '1.0');
      expect(old.status).toBe(400);
      expect(old.text).toContain('VERSION_TOO_LOW');
    });

    it('stays 1.0 in Atom without 2.0 features, whatever the client accepts', async () => {
      const response = await get('Categories?$filter=ID%20gt%200&$orderby=Name%20desc&$top=1').set('MaxDataServiceVersion', '2.0');
      expect(response.status).toBe(200);
      expect(response.headers['dataserviceversion']).toBe('1.0;');
      expect(atomIds(response.text, 'Categories')).toEqual([2]);
    });

    it('shapes JSON feeds by version: 1.0 a bare array, 2.0 results', async () => {
      const v1 = await json('Products?$top=1').set('MaxDataServiceVersion', '1.0');
      expect(Array.isArray(v1.body.d)).toBe(true);
      const v2 = await json('Products?$top=1&$select=ID');
      expect(Array.isArray(v2.body.d.results)).toBe(true);
    });
  });
});

// -------------------------------------------------------------------------------------------------
describe('query options on Express 4 and 5 alike', () => {
  describe.each(EXPRESS_VERSIONS)('%s', (_name, expressModule) => {
    let demo: RunningServer;
    beforeAll(async () => {
      demo = await startDemo(expressModule);
    });
    afterAll(() => demo.close());

    it.each([
      ["Products?$format=json&$filter=Name+eq+'Vint+soda'", [2]],
      ['Products?$format=json&$filter=Name%20eq%20%27Milk%27', [1]],
      ['Products?$format=json&$filter=Price%20gt%2020&$orderby=Price%20desc&$skip=1&$top=2', [7, 4]],
    ])('%s', async (path, expected) => {
      const response = await request(demo.url).get(`/odata/${path}`);
      expect(response.status).toBe(200);
      expect(idsOf(response.body)).toEqual(expected);
    });
  });
});

// -------------------------------------------------------------------------------------------------
describe('$expand limits from the service options', () => {
  let demo: RunningServer;
  beforeAll(async () => {
    demo = await startDemo(undefined, { limits: { maxExpandDepth: 1, maxExpandBreadth: 2, maxTop: 5 } });
  });
  afterAll(() => demo.close());
  const json = (path: string) => request(demo.url).get(`/odata/${path}&$format=json`);

  it.each([
    ['Categories?$expand=Products/Supplier', "$expand exceeds the limit of 1: 'Products/Supplier' is 2 levels deep"],
    ['Products?$expand=Supplier,Category/Products', "$expand exceeds the limit of 1: 'Category/Products' is 2 levels deep"],
    ['Products?$expand=Category,Supplier,Category', '$expand exceeds the limit of 2: it lists 3 paths'],
    ['Products?$top=6', '$top exceeds the limit of 5: 6 was asked for'],
  ])('%s is 400 QUERY_LIMIT_EXCEEDED', async (path, message) => {
    const response = await json(path);
    expect(response.status).toBe(400);
    expect(response.body.error).toEqual({ code: 'QUERY_LIMIT_EXCEEDED', message: { lang: 'en-US', value: message } });
  });

  it('serves what stays within the limits', async () => {
    const response = await json('Products?$expand=Category,Supplier&$top=5');
    expect(response.status).toBe(200);
    expect(idsOf(response.body)).toEqual([0, 1, 2, 3, 4]);
    expect((feedOf(response.body)[0].Supplier as { Name: string }).Name).toBe('Tokyo Traders');
  });
});

// -------------------------------------------------------------------------------------------------
/** A provider that records what reaches it and delegates to MemoryProvider. */
class RecordingProvider implements DataProvider {
  readonly queries: QueryRequest[] = [];
  readonly counts: CountRequest[] = [];
  constructor(private readonly inner: MemoryProvider) {}
  query(request: QueryRequest, context: RequestContext): Promise<QueryResult> {
    this.queries.push(request);
    return this.inner.query(request, context);
  }
  count(request: CountRequest, context: RequestContext): Promise<number> {
    this.counts.push(request);
    return this.inner.count(request, context);
  }
}

function startApp(model: EdmModel, provider: DataProvider, options: Record<string, unknown> = {}): Promise<RunningServer> {
  const app = express();
  app.use('/odata', odata({ model, provider, now: () => FIXED_NOW, ...options }));
  return startServer(app);
}

describe('custom query options and default order on a spec-local app', () => {
  const model = DEMO_MODEL;
  // The products stored in reverse key order: results must still come out ordered by key.
  const reversed = { ...demoData, Products: [...demoData.Products].reverse() };
  const provider = new RecordingProvider(demoProvider(reversed));
  let app: RunningServer;
  beforeAll(async () => {
    app = await startApp(model, provider, { maxPageSize: 4 });
  });
  afterAll(() => app.close());
  beforeEach(() => {
    provider.queries.length = 0;
    provider.counts.length = 0;
  });
  const json = (path: string) => request(app.url).get(`/odata/${path}`).set('accept', 'application/json');

  it('hands custom options to the provider, decoded, first occurrence winning', async () => {
    const response = await json('Products?$top=2&tenant=acme&mode=a+b&sum=1%2B2&tenant=other&empty=&sap-client=100');
    expect(response.status).toBe(200);
    expect(provider.queries.map((q) => q.customOptions)).toEqual([{ tenant: 'acme', mode: 'a b', sum: '1+2', empty: '', 'sap-client': '100' }]);
  });

  it('hands them to count requests and single-entity reads too', async () => {
    await json('Products/$count?x=1');
    expect(provider.counts.map((c) => c.customOptions)).toEqual([{ x: '1' }]);
    await json('Products(1)?y=2');
    expect(provider.queries.map((q) => q.customOptions)).toEqual([{ y: '2' }]);
  });

  it('keeps custom options in next links', async () => {
    const response = await json('Products?tenant=acme&mode=a+b');
    expect(response.body.d.__next).toBe(`${app.url}/odata/Products?tenant=acme&mode=a%20b&$skiptoken=3`);
  });

  it.each([
    ['Products?$top=3', [0, 1, 2]],
    ['Products?$skip=6', [6, 7, 8]],
    ['Products?$skip=1&$top=2', [1, 2]],
    ['Products', [0, 1, 2, 3]],
    ['Products?$skiptoken=3', [4, 5, 6, 7]],
    ['Products?$filter=Rating eq 3&$top=3', [1, 2, 3]],
    ['Categories(1)/Products?$top=3', [1, 2, 3]],
  ])('orders %s by key without $orderby', async (path, expected) => {
    const response = await json(path.replace(/ /g, '%20'));
    expect(response.status).toBe(200);
    expect(idsOf(response.body)).toEqual(expected);
    expect(provider.queries[0].orderBy.map((item) => [item.expression.kind === 'Member' ? item.expression.path.join('/') : '?', item.direction])).toEqual([
      ['ID', 'asc'],
    ]);
  });
});

// -------------------------------------------------------------------------------------------------
/**
 * The writer goldens (spec/golden, written from hand-built results in spec/format/golden.spec.ts)
 * are what the service sends for the same requests: only the host and the `<updated>` clock differ.
 */
describe('golden payloads over HTTP', () => {
  const GOLDEN = resolve(__dirname, '../golden');
  const GOLDEN_ROOT = 'http://localhost/odata/';
  const GOLDEN_UPDATED = '2013-01-19T16:02:44Z';
  let plain: RunningServer;
  let paged: RunningServer;
  beforeAll(async () => {
    plain = await startDemo();
    paged = await startDemo(undefined, { pageSizes: { Products: 2 } });
  });
  afterAll(() => Promise.all([plain.close(), paged.close()]));

  function normalize(body: string, server: RunningServer): string {
    return body
      .split(`${server.url}/odata/`)
      .join(GOLDEN_ROOT)
      .replace(/<updated>[^<]*<\/updated>/g, `<updated>${GOLDEN_UPDATED}</updated>`);
  }

  it.each([
    ['products-select-expand.feed', 'Products?$top=2&$select=ID,Category/Name&$expand=Category', false, true],
    ['products-select.feed', 'Products?$top=3&$select=Name,Price,Category', false, true],
    ['products-expand-category.feed', 'Products?$expand=Category', false, false],
    ['category-1-expand-products-supplier.entry', 'Categories(1)?$expand=Products/Supplier', false, false],
    // Products paged by 2: the first page of 4 links to the remaining 2, with $top lowered.
    ['products-inlinecount-next.feed', 'Products?$inlinecount=allpages&$top=4', true, true],
  ] as const)('%s: GET %s in Atom and JSON', async (name, path, paging, needs2) => {
    const server = paging ? paged : plain;
    const atom = await request(server.url).get(`/odata/${path}`);
    expect(atom.status).toBe(200);
    expect(normalize(atom.text, server)).toBe(readFileSync(`${GOLDEN}/atom/${name}.xml`, 'utf8'));

    // JSON by Accept, so the next link carries no $format; the golden of the version sent.
    const json = await request(server.url).get(`/odata/${path}`).set('accept', 'application/json');
    expect(json.status).toBe(200);
    const version = json.headers['dataserviceversion'];
    if (needs2) expect(version).toBe('2.0;');
    expect(normalize(json.text, server)).toBe(readFileSync(`${GOLDEN}/json/${name}.v${version === '1.0;' ? 1 : 2}.json`, 'utf8'));

    // A 1.0 client gets the 1.0 shape of what needs no more.
    if (!needs2) {
      const v1 = await request(server.url).get(`/odata/${path}`).set('accept', 'application/json').set('MaxDataServiceVersion', '1.0');
      expect(v1.headers['dataserviceversion']).toBe('1.0;');
      expect(normalize(v1.text, server)).toBe(readFileSync(`${GOLDEN}/json/${name}.v1.json`, 'utf8'));
    }
  });
});
