/**
 * Totality of the URI layer: every parser is total, so any path and any query string end in a
 * result or a 4xx ODataError, never a crash, a 5xx or a hang. Deterministic pseudo-random inputs
 * built from tricky fragments.
 */
import { ODataError } from '../../lib/errors';
import { parseQueryOptions } from '../../lib/uri/query-options';
import { parseResourcePath } from '../../lib/uri/resource-path';
import type { ResourcePath } from '../../lib/uri/types';
import { demoModel, uriModel } from './uri-fixtures';
import { seededRandom } from '../helpers/random';

const random = seededRandom;

const PATH_FRAGMENTS = [
  'Products',
  'Categories',
  'Suppliers',
  'Orders',
  'Items',
  'Bags',
  'Photos',
  'GetOrders',
  'GetCount',
  'GetProductsByRating',
  '(',
  ')',
  '()',
  "'",
  "''",
  '%27',
  '%',
  '%2',
  '%2F',
  '%C3',
  '%A9',
  '/',
  '//',
  '$value',
  '$count',
  '$links',
  '$metadata',
  '$batch',
  'Category',
  'Products',
  'Address',
  'City',
  'ShipTo',
  'Geo',
  'Name',
  'Color',
  'ID=',
  'OrderID=',
  'Line=',
  '1',
  '-1',
  '5L',
  '20m',
  '2.5',
  'null',
  ',',
  '=',
  "datetime'2020-01-01T00:00'",
  "guid'x'",
  ' ',
  '+',
  'é',
  '\u0000',
  '\uD800',
];

const QUERY_FRAGMENTS = [
  '$filter=',
  '$orderby=',
  '$top=',
  '$skip=',
  '$skiptoken=',
  '$inlinecount=',
  '$select=',
  '$expand=',
  '$format=',
  'search=',
  '%22',
  '"',
  '$Filter=',
  '$x=',
  '&',
  '=',
  '+',
  '%',
  '%27',
  '%2B',
  '%ZZ',
  'Name',
  'Price',
  'Rating',
  'Category',
  'Category/Name',
  'Supplier',
  'Products',
  '*',
  ' eq ',
  ' and ',
  ' or ',
  'not ',
  '(',
  ')',
  "'Milk'",
  "'",
  "''",
  '1',
  '-1',
  '20m',
  '2.5',
  'null',
  'asc',
  'desc',
  ',',
  '/',
  'allpages',
  'none',
  'json',
  'substringof(',
  'length(',
  'rating=',
  'x=',
  '\u0000',
];

function build(next: () => number, fragments: readonly string[], length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += fragments[Math.floor(next() * fragments.length)];
  return text;
}

function expectTotal(fn: () => unknown, input: string): void {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof ODataError) || error.status < 400 || error.status >= 500) {
      throw new Error(`input ${JSON.stringify(input)} threw ${String(error)}`, { cause: error });
    }
  }
}

const LIMITS = { maxTop: 1000, maxExpandDepth: 3, maxExpandBreadth: 5, maxFilterLength: 500, maxFilterDepth: 20, maxSearchTerms: 5 };

describe('URI layer totality', () => {
  it('parses 3000 random resource paths to a ResourcePath or a 4xx', () => {
    const next = random(20240601);
    for (let i = 0; i < 3000; i++) {
      // Half the paths start with a real set and a parenthesis, to reach the key and navigation parsers.
      // (Even i: the demo model, odd i: the URI test model.)
      const start = i % 4 < 2 ? (i % 2 === 0 ? 'Products(' : 'Orders(OrderID=1,Line=') : '';
      const path = start + build(next, PATH_FRAGMENTS, 1 + Math.floor(next() * 8));
      expectTotal(() => parseResourcePath(path, i % 2 === 0 ? demoModel : uriModel), path);
    }
  });

  it('parses 3000 random query strings to QueryOptions or a 4xx', () => {
    const next = random(42);
    const paths: ResourcePath[] = ['Products', 'Products(1)', 'Categories(1)/Products', 'Products/$count', 'Categories(1)/$links/Products'].map((path) =>
      parseResourcePath(path, demoModel),
    );
    for (let i = 0; i < 3000; i++) {
      const query = build(next, QUERY_FRAGMENTS, 1 + Math.floor(next() * 10));
      expectTotal(() => parseQueryOptions(query, paths[i % paths.length], demoModel, LIMITS), query);
    }
  });
});
