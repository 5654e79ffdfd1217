/**
 * Golden files of the ODataDemo payloads in Atom/XML and verbose JSON (OData 1.0 and 2.0 shapes),
 * compared byte for byte; plus the captured responses of the original service, which our output
 * must equal once whitespace and the host are normalized.
 */
import { ODataError } from '../../lib/errors';
import { writeError, writeResult } from '../../lib/format';
import type { CollectionResult, EntryResult, FeedResult, LinkResult, LinksResult, PropertyResult, Result } from '../../lib/result';
import type { Entity } from '../../lib/provider/types';
import type { SelectExpand } from '../../lib/uri/types';
import { ALL, byId, context, demo, demoModel, entitySet, expandItem, expectGolden, fixture, productWith, selection, SERVICE_ROOT, text } from './support';

const Products = entitySet('Products');
const Categories = entitySet('Categories');
const Suppliers = entitySet('Suppliers');

function feed(set: typeof Products, entities: readonly Entity[], options: Partial<FeedResult> = {}): FeedResult {
  return {
    kind: 'Feed',
    entitySet: set,
    entityType: set.entityType,
    selfPath: set.name,
    title: set.name,
    entities,
    count: undefined,
    nextLink: undefined,
    selectExpand: ALL,
    ...options,
  };
}

function entry(set: typeof Products, entity: Entity, selectExpand: SelectExpand = ALL): EntryResult {
  return { kind: 'Entry', entitySet: set, entityType: set.entityType, entity, selectExpand };
}

function must(entity: Entity | null): Entity {
  if (entity === null) throw new Error('missing fixture entity');
  return entity;
}

const product0 = must(byId(demo.Products, 0));
const category1 = must(byId(demo.Categories, 1));
const supplier0 = must(byId(demo.Suppliers, 0));

const expandCategory: SelectExpand = { select: undefined, expand: [expandItem(Products, 'Category')] };
const expandProductsSupplier: SelectExpand = {
  select: undefined,
  expand: [expandItem(Categories, 'Products', { select: undefined, expand: [expandItem(Products, 'Supplier')] })],
};
const category1WithProducts: Entity = {
  ...category1,
  Products: demo.Products.filter((p) => p.CategoryID === 1).map((p) => productWith(p, ['Supplier'])),
};

const stringType = { kind: 'Primitive', name: 'Edm.String' } as const;
const address = demoModel.complexTypes.get('ODataDemo.Address');
if (address === undefined) throw new Error('no Address');

/** Payloads written in Atom/XML and in JSON; `versioned` ones differ between JSON 1.0 and 2.0. */
const CASES: readonly (readonly [name: string, result: Result, versioned: boolean])[] = [
  ['categories.feed', feed(Categories, demo.Categories), true],
  ['products.feed', feed(Products, demo.Products), true],
  ['suppliers.feed', feed(Suppliers, demo.Suppliers), true],
  ['product-0.entry', entry(Products, product0), false],
  ['supplier-0.entry', entry(Suppliers, supplier0), false],
  [
    'products-expand-category.feed',
    feed(
      Products,
      demo.Products.map((p) => productWith(p, ['Category'])),
      { selectExpand: expandCategory },
    ),
    true,
  ],
  ['product-expand-category-null.entry', entry(Products, { ...product0, Category: null }, expandCategory), false],
  ['category-1-expand-products-supplier.entry', entry(Categories, category1WithProducts, expandProductsSupplier), true],
  [
    'products-select.feed',
    feed(Products, demo.Products.slice(0, 3), { selectExpand: { select: selection(['Name', 'Price'], ['Category']), expand: [] } }),
    true,
  ],
  [
    'products-select-expand.feed',
    feed(
      Products,
      demo.Products.slice(0, 2).map((p) => productWith(p, ['Category'])),
      {
        selectExpand: { select: selection(['ID']), expand: [expandItem(Products, 'Category', { select: selection(['Name']), expand: [] })] },
      },
    ),
    true,
  ],
  [
    'products-inlinecount-next.feed',
    feed(Products, demo.Products.slice(0, 2), { count: 9, nextLink: `${SERVICE_ROOT}Products?$inlinecount=allpages&$top=2&$skiptoken=1` }),
    true,
  ],
  [
    'category-1-products.feed',
    feed(
      Products,
      demo.Products.filter((p) => p.CategoryID === 1),
      { selfPath: 'Categories(1)/Products', title: 'Products' },
    ),
    true,
  ],
  ['service-document', { kind: 'ServiceDocument' }, false],
  ['product-0-name.property', { kind: 'Property', name: 'Name', type: stringType, value: 'Bread' } satisfies PropertyResult, false],
  [
    'product-0-release-date.property',
    {
      kind: 'Property',
      name: 'ReleaseDate',
      type: { kind: 'Primitive', name: 'Edm.DateTime' },
      value: new Date('1992-01-01T00:00:00Z'),
    } satisfies PropertyResult,
    false,
  ],
  [
    'product-0-price.property',
    { kind: 'Property', name: 'Price', type: { kind: 'Primitive', name: 'Edm.Decimal' }, value: '2.5' } satisfies PropertyResult,
    false,
  ],
  [
    'product-0-discontinued-date-null.property',
    { kind: 'Property', name: 'DiscontinuedDate', type: { kind: 'Primitive', name: 'Edm.DateTime' }, value: null } satisfies PropertyResult,
    false,
  ],
  [
    'supplier-0-address.property',
    {
      kind: 'Property',
      name: 'Address',
      type: { kind: 'Complex', type: address },
      value: supplier0.Address as PropertyResult['value'],
    } satisfies PropertyResult,
    false,
  ],
  [
    'names.collection',
    {
      kind: 'Collection',
      name: 'GetProductNames',
      itemType: { kind: 'Primitive', name: 'Edm.String', collection: true },
      values: ['Bread', 'Milk', null],
    } satisfies CollectionResult,
    true,
  ],
  [
    'ratings.collection',
    { kind: 'Collection', name: 'GetRatings', itemType: { kind: 'Primitive', name: 'Edm.Int32', collection: true }, values: [4, 3] } satisfies CollectionResult,
    true,
  ],
  [
    'addresses.collection',
    {
      kind: 'Collection',
      name: 'GetSupplierAddresses',
      itemType: { kind: 'Complex', type: address, collection: true },
      values: demo.Suppliers.map((s) => s.Address as PropertyResult['value']),
    } satisfies CollectionResult,
    true,
  ],
  [
    'empty.collection',
    { kind: 'Collection', name: 'GetNothing', itemType: { kind: 'Primitive', name: 'Edm.String', collection: true }, values: [] } satisfies CollectionResult,
    true,
  ],
  [
    'category-1-products.links',
    {
      kind: 'Links',
      uris: demo.Products.filter((p) => p.CategoryID === 1).map((p) => `${SERVICE_ROOT}Products(${String(p.ID)})`),
      count: undefined,
      nextLink: undefined,
    } satisfies LinksResult,
    true,
  ],
  [
    'category-1-products-count-next.links',
    {
      kind: 'Links',
      uris: [`${SERVICE_ROOT}Products(1)`, `${SERVICE_ROOT}Products(2)`],
      count: 6,
      nextLink: `${SERVICE_ROOT}Categories(1)/$links/Products?$top=2&$skiptoken=2`,
    } satisfies LinksResult,
    true,
  ],
  ['product-0-category.link', { kind: 'Link', uri: `${SERVICE_ROOT}Categories(0)` } satisfies LinkResult, false],
];

/** Atom documents are `.xml` under atom/, plain XML (properties, collections, links) under xml/. */
function xmlGoldenPath(name: string, result: Result): string {
  return ['Feed', 'Entry', 'ServiceDocument'].includes(result.kind) ? `atom/${name}.xml` : `xml/${name}.xml`;
}

describe('golden payloads', () => {
  it.each(CASES)('%s in Atom/XML', (name, result) => {
    expectGolden(xmlGoldenPath(name, result), text(writeResult(result, 'atom', context('2.0'))));
  });

  it.each(CASES)('%s is the same document when negotiated as xml', (_name, result) => {
    expect(text(writeResult(result, 'xml', context('2.0')))).toBe(text(writeResult(result, 'atom', context('2.0'))));
  });

  it.each(CASES)('%s in JSON', (name, result, versioned) => {
    if (versioned) {
      expectGolden(`json/${name}.v1.json`, text(writeResult(result, 'json', context('1.0'))));
      expectGolden(`json/${name}.v2.json`, text(writeResult(result, 'json', context('2.0'))));
    } else {
      const v2 = text(writeResult(result, 'json', context('2.0')));
      expectGolden(`json/${name}.json`, v2);
      expect(text(writeResult(result, 'json', context('1.0')))).toBe(v2);
    }
  });

  it.each(CASES)('%s in JSON is valid JSON', (_name, result) => {
    expect(() => JSON.parse(text(writeResult(result, 'json', context('2.0'))))).not.toThrow();
  });
});

/** Remove indentation and the capture's host template and encoding, and use `/>` for empty elements. */
function normalizeCapture(xml: string): string {
  return xml
    .replace('encoding="iso-8859-1"', 'encoding="utf-8"')
    .split('http://localhost:%(port)i/')
    .join(SERVICE_ROOT)
    .replace(/>\s+</g, '><')
    .replace(/ \/>/g, '/>')
    .trim();
}

describe('equality with the captured ODataDemo responses', () => {
  it('writes GET Categories exactly as the original service (whitespace aside)', () => {
    expect(text(writeResult(feed(Categories, demo.Categories), 'atom', context('1.0')))).toBe(normalizeCapture(fixture('samples/categories.feed.atom.xml')));
  });

  it('writes the service document exactly as the original service (whitespace aside)', () => {
    expect(text(writeResult({ kind: 'ServiceDocument' }, 'atom', context('1.0')))).toBe(normalizeCapture(fixture('samples/service-document.atom.xml')));
  });

  it('writes GET Products?$format=json with the same values as the original service (DataServiceVersion 1.0)', () => {
    const captured = fixture('samples/products.feed.v1.json').split('http://services.odata.org/OData/OData.svc/').join(SERVICE_ROOT);
    expect(JSON.parse(text(writeResult(feed(Products, demo.Products), 'json', context('1.0'))))).toEqual(JSON.parse(captured));
  });
});

describe('golden error bodies', () => {
  const notFound = ODataError.fromCode('ENTITY_NOT_FOUND', { key: '(42)', entitySet: 'Products' });
  const withDetails = ODataError.fromCode(
    'BODY_INVALID',
    { detail: 'two properties are invalid' },
    {
      details: [
        { code: 'VALUE_INVALID', message: "Price must not be negative: '-1'", target: 'Price', severity: 'error' },
        { code: 'NAME_LONG', message: 'Name is longer than 20 characters & will be cut <here>', severity: 'warning' },
        { code: 'NO_SEVERITY', message: 'a detail without target and severity' },
      ],
    },
  );
  Object.defineProperty(withDetails, 'stack', { value: 'ODataError: two properties are invalid\n    at test' });
  const cause = new TypeError('provider exploded');
  cause.stack = 'TypeError: provider exploded\n    at provider.query (provider.js:1:1)';
  const internal = ODataError.fromCode('INTERNAL', {}, { cause });
  internal.stack = 'ODataError: An internal error occurred.\n    at normalizeError (normalize.js:1:1)';

  const ERRORS: readonly (readonly [string, ODataError, boolean])[] = [
    ['entity-not-found', notFound, false],
    ['with-details', withDetails, false],
    ['internal', internal, false],
    ['internal-debug', internal, true],
    ['with-details-debug', withDetails, true],
  ];

  it.each(ERRORS)('%s in XML', (name, error, debug) => {
    expectGolden(`xml/error-${name}.xml`, writeError(error, 'xml', { debug }));
  });

  it.each(ERRORS)('%s in JSON', (name, error, debug) => {
    expectGolden(`json/error-${name}.json`, writeError(error, 'json', { debug }));
  });
});
