/**
 * Server-driven paging helpers: page plans, next links, and the navigation `$orderby` reads
 * through (the last entry of a page is read again with it expanded, so the `$skiptoken` holds the
 * real `Category/Name` and not null).
 */
import { readFileSync } from 'fs';
import { resolve } from 'path';
import { loadEdmx } from '../../lib/edm';
import { DEFAULT_LIMITS } from '../../lib/options';
import { expansionCovered, nextLink, orderByExpansion, planPage } from '../../lib/handlers/paging';
import type { Entity } from '../../lib/provider/types';
import { parseQueryOptions, parseResourcePath } from '../../lib/uri';
import type { ExpandItem, QueryOptions, SelectExpand } from '../../lib/uri/types';

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
  const last: Entity = { ID: 7, Name: "O'Neil & Co", Rating: 3, Price: '35.88', Category: { ID: 2, Name: 'Electronics' } };

  it.each([
    ['$top=500&$skip=3', 97, 'Products?$top=403&$skiptoken=7'],
    ['$filter=Price gt 20&$format=json&foo=a b', 97, 'Products?$filter=Price%20gt%2020&$format=json&foo=a%20b&$skiptoken=7'],
    ['$orderby=Name desc&$select=ID,Name', 97, "Products?$orderby=Name%20desc&$select=ID,Name&$skiptoken='O''Neil%20%26%20Co',7"],
    ['$orderby=Rating desc,Price', 97, 'Products?$orderby=Rating%20desc,Price&$skiptoken=3,35.88M,7'],
    ['$orderby=Category/Name desc&$inlinecount=allpages', 97, "Products?$orderby=Category/Name%20desc&$inlinecount=allpages&$skiptoken='Electronics',7"],
  ])('%s with %i entries returned links to %s', (query, returned, expected) => {
    const options = products(query);
    expect(nextLink(ROOT, 'Products', options, options.orderBy, Products.entityType, last, returned)).toBe(`${ROOT}${expected}`);
  });
});

describe('orderByExpansion', () => {
  it.each([
    ['Name', undefined],
    ['Rating desc,Price', undefined],
    ['length(Name)', undefined],
    ['Category/Name', 'Category'],
    ['Supplier/Address/City desc,Name', 'Supplier'],
    ['Category/Name,Supplier/Name,Category/ID', 'Category,Supplier'],
    ['concat(Category/Name,Supplier/Name)', 'Category,Supplier'],
  ])('$orderby=%s expands %p', (orderBy, expected) => {
    const expansion = orderByExpansion(products(`$orderby=${orderBy}`).orderBy, Products, model);
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
    const expansion = orderByExpansion(products('$orderby=Category/Name').orderBy, Products, model);
    expect(expansion?.expand[0].entitySet).toBe(categories);
  });
});

describe('expansionCovered', () => {
  const needed = orderByExpansion(products('$orderby=Category/Name').orderBy, Products, model) as SelectExpand;

  it.each([
    ['', false],
    ['$expand=Supplier', false],
    ['$expand=Category', true],
    ['$expand=Supplier,Category/Products', true],
    ['$select=ID,Category/Name&$expand=Category', true],
  ])('%s covers $orderby=Category/Name: %p', (query, covered) => {
    expect(expansionCovered(needed, products(query).selectExpand)).toBe(covered);
  });
});
