/**
 * Server-driven paging helpers: page plans, next links written from the last entry's position (at
 * the provider's precision: a PreciseInstant keeps its microseconds), and the navigation an
 * expression reads through.
 */
import { readFileSync } from 'fs';
import { resolve } from 'path';
import { loadEdmx } from '../../lib/edm';
import { DEFAULT_LIMITS } from '../../lib/options';
import { navigationExpansion, nextLink, planPage } from '../../lib/handlers/paging';
import { preciseInstant } from '../../lib/edm/precise-instant';
import { parseQueryOptions, parseResourcePath } from '../../lib/uri';
import type { ExpandItem, PositionValue, QueryOptions } from '../../lib/uri/types';

const model = loadEdmx(readFileSync(resolve(__dirname, '../fixtures/odata-demo/metadata.xml'), 'utf8'));
const ROOT = 'http://localhost/odata/';

function products(query: string): QueryOptions {
  return parseQueryOptions(query, parseResourcePath('Products', model), model, DEFAULT_LIMITS);
}

function entitySet(name: string) {
  const set = model.entitySets.get(name);
  if (set === undefined) throw new Error(`no set ${name}`);
  return set;
}

const Products = entitySet('Products');

/** `Category(Products)`: an expand tree as text, for short table rows. */
function describeExpand(items: readonly ExpandItem[]): string {
  return items.map((item) => (item.expand.length === 0 ? item.property.name : `${item.property.name}(${describeExpand(item.expand)})`)).join(',');
}

describe('planPage', () => {
  it.each([
    // [client $top, page size, page size in force, provider top]
    [undefined, undefined, undefined, undefined],
    [5, undefined, undefined, 5],
    [undefined, 97, 97, 98],
    [50, 97, undefined, 50],
    [97, 97, undefined, 97],
    [98, 97, 97, 98],
    [500, 97, 97, 98],
  ] as const)('$top %p with page size %p pages by %p and asks the provider for %p', (top, size, pageSize, providerTop) => {
    expect(planPage(top, size)).toEqual({ pageSize, providerTop });
  });
});

describe('nextLink', () => {
  const released = preciseInstant(new Date('1992-01-01T00:00:00.123Z'), '456');

  it.each([
    ['$top=500&$skip=3', [], 97, 'Products?$top=403&$skiptoken=7'],
    ['$filter=Price gt 20&$format=json&foo=a b', [], 97, 'Products?$filter=Price%20gt%2020&$format=json&foo=a%20b&$skiptoken=7'],
    ['$orderby=Name desc&$select=ID,Name', ["O'Neil & Co"], 97, "Products?$orderby=Name%20desc&$select=ID,Name&$skiptoken='O''Neil%20%26%20Co',7"],
    ['$orderby=Rating desc,Price', [3, '35.88'], 97, 'Products?$orderby=Rating%20desc,Price&$skiptoken=3,35.88M,7'],
    [
      '$orderby=Category/Name desc&$inlinecount=allpages',
      ['Electronics'],
      97,
      "Products?$orderby=Category/Name%20desc&$inlinecount=allpages&$skiptoken='Electronics',7",
    ],
    // The provider's position covers the tie-breaker too: only the client's items go into the token.
    ['$orderby=Rating', [3, 7], 97, 'Products?$orderby=Rating&$skiptoken=3,7'],
    // A timestamp at the store's precision keeps its digits; a Date (milliseconds) prints as ever.
    ['$orderby=ReleaseDate', [released], 97, "Products?$orderby=ReleaseDate&$skiptoken=datetime'1992-01-01T00:00:00.123456',7"],
    ['$orderby=ReleaseDate', [released.date], 97, "Products?$orderby=ReleaseDate&$skiptoken=datetime'1992-01-01T00:00:00.123',7"],
  ] as [string, PositionValue[], number, string][])('%s at %p with %i entries returned links to %s', (query, orderByValues, returned, expected) => {
    const options = products(query);
    const position = { orderByValues, key: { ID: 7 } };
    expect(nextLink(ROOT, 'Products', options, options.orderBy, Products.entityType, position, returned)).toBe(`${ROOT}${expected}`);
  });
});

describe('navigationExpansion', () => {
  it.each([
    ['Name', undefined],
    ['Rating desc,Price', undefined],
    ['length(Name)', undefined],
    ['Category/Name', 'Category'],
    ['Supplier/Address/City desc,Name', 'Supplier'],
    ['Category/Name,Supplier/Name,Category/ID', 'Category,Supplier'],
    ['concat(Category/Name,Supplier/Name)', 'Category,Supplier'],
  ])('$orderby=%s expands %p', (orderBy, expected) => {
    const expansion = navigationExpansion(
      products(`$orderby=${orderBy}`).orderBy.map((item) => item.expression),
      Products,
      model,
    );
    expect(expansion === undefined ? undefined : describeExpand(expansion.expand)).toBe(expected);
    if (expansion !== undefined) {
      expect(expansion.select).toBeUndefined();
      expect(expansion.expand.map((item) => item.entitySet.name)).toEqual(
        expansion.expand.map((item) => model.navigationTarget(Products, item.property)?.name),
      );
    }
  });

  it('expands into the entity set the association set binds', () => {
    const categories = entitySet('Categories');
    const expansion = navigationExpansion([products('$orderby=Category/Name').orderBy[0].expression], Products, model);
    expect(expansion?.expand[0].entitySet).toBe(categories);
  });
});
