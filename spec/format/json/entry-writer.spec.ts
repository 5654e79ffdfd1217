/**
 * Targeted checks of verbose JSON entries: __metadata, deferred and inline navigation in OData 1.0
 * and 2.0 shapes, media link entries, open types, and that feed customization does not apply.
 */
import { writeJsonEntry, writeJsonFeed } from '../../../lib/format';
import type { Entity } from '../../../lib/provider/types';
import type { SelectExpand } from '../../../lib/uri/types';
import { ALL, byId, context, demo, entitySet, expandItem, productWith, selection, SERVICE_ROOT, text } from '../support';
import { testModel } from '../test-model';

type Json = Record<string, unknown>;

function json(
  setName: string,
  entity: Entity,
  selectExpand: SelectExpand = ALL,
  version: '1.0' | '2.0' = '2.0',
  model = testModel,
  extra: Parameters<typeof context>[2] = {},
): Json {
  const set = model.entitySets.get(setName) ?? entitySet(setName);
  const body = JSON.parse(
    text(writeJsonEntry({ kind: 'Entry', entitySet: set, entityType: set.entityType, entity, selectExpand }, context(version, model, extra))),
  ) as { d: Json };
  return body.d;
}

function must(entity: Entity | null): Entity {
  if (entity === null) throw new Error('missing fixture');
  return entity;
}

const product0 = must(byId(demo.Products, 0));
const category0 = must(byId(demo.Categories, 0));
const supplier0 = must(byId(demo.Suppliers, 0));

describe('JSON entry', () => {
  it('writes __metadata, every property (feed customization does not apply) and deferred links', () => {
    expect(json('Products', product0)).toEqual({
      __metadata: { uri: `${SERVICE_ROOT}Products(0)`, type: 'ODataDemo.Product' },
      ID: 0,
      Name: 'Bread',
      Description: 'Whole grain bread',
      ReleaseDate: '/Date(694224000000)/',
      DiscontinuedDate: null,
      Rating: 4,
      Price: '2.5',
      Category: { __deferred: { uri: `${SERVICE_ROOT}Products(0)/Category` } },
      Supplier: { __deferred: { uri: `${SERVICE_ROOT}Products(0)/Supplier` } },
    });
  });

  it('escapes the slashes of DateTime values as the original service did', () => {
    const set = entitySet('Products');
    expect(writeJsonEntry({ kind: 'Entry', entitySet: set, entityType: set.entityType, entity: product0, selectExpand: ALL }, context())).toContain(
      '"ReleaseDate":"\\/Date(694224000000)\\/"',
    );
  });

  it('writes the etag and complex values with their type', () => {
    const supplier = json('Suppliers', supplier0);
    expect(supplier.__metadata).toEqual({ uri: `${SERVICE_ROOT}Suppliers(0)`, type: 'ODataDemo.Supplier', etag: 'W/"0"' });
    expect(supplier.Address).toEqual({
      __metadata: { type: 'ODataDemo.Address' },
      Street: 'NE 228th',
      City: 'Sammamish',
      State: 'WA',
      ZipCode: '98074',
      Country: 'USA',
    });
  });

  it('inlines an expanded feed as an array in 1.0 and as {"results":[...]} in 2.0', () => {
    const selectExpand: SelectExpand = { select: undefined, expand: [expandItem(entitySet('Categories'), 'Products')] };
    const entity = { ...category0, Products: demo.Products.filter((p) => p.CategoryID === 0) };
    const v1 = json('Categories', entity, selectExpand, '1.0');
    const v2 = json('Categories', entity, selectExpand, '2.0');
    expect(Array.isArray(v1.Products)).toBe(true);
    expect((v2.Products as { results: Json[] }).results.map((p) => p.ID)).toEqual([0]);
    expect(v1.Products).toEqual((v2.Products as { results: Json[] }).results);
  });

  it('inlines a single expanded entry, or null', () => {
    const selectExpand: SelectExpand = { select: undefined, expand: [expandItem(entitySet('Products'), 'Category')] };
    expect((json('Products', productWith(product0, ['Category']), selectExpand).Category as Json).ID).toBe(0);
    expect(json('Products', { ...product0, Category: null }, selectExpand).Category).toBeNull();
  });

  it('writes only selected properties and selected or expanded links under $select', () => {
    const selectExpand: SelectExpand = {
      select: selection(['Name']),
      expand: [expandItem(entitySet('Products'), 'Supplier', { select: selection(['Name']), expand: [] })],
    };
    const entry = json('Products', productWith(product0, ['Supplier']), selectExpand);
    expect(Object.keys(entry)).toEqual(['__metadata', 'Name', 'Supplier']);
    expect(Object.keys(entry.Supplier as Json)).toEqual(['__metadata', 'Name']);
  });

  it('writes media metadata of a media link entry', () => {
    const photo = json('Photos', { Id: 1, Caption: 'Sunset', Version: 3 }, ALL, '2.0', testModel, {
      etagOf: () => 'W/"3"',
      mediaOf: () => ({ contentType: 'image/png', etag: 'W/"m1"' }),
    });
    expect(photo.__metadata).toEqual({
      uri: `${SERVICE_ROOT}Photos(1)`,
      type: 'Test.Photo',
      etag: 'W/"3"',
      edit_media: `${SERVICE_ROOT}Photos(1)/$value`,
      media_src: `${SERVICE_ROOT}Photos(1)/$value`,
      content_type: 'image/png',
      media_etag: 'W/"m1"',
    });
    expect(photo.Caption).toBe('Sunset');
  });

  it('writes dynamic properties of an open type and skips unwritable ones', () => {
    const bag = json('Bags', { Id: 1, __metadata: { uri: 'spoofed' }, Label: null, Color: 'red', Size: 3, Gone: null, 'bad name': 1, Nested: { a: 1 } });
    expect(bag).toEqual({ __metadata: { uri: `${SERVICE_ROOT}Bags(1)`, type: 'Test.Bag' }, Id: 1, Label: null, Color: 'red', Size: 3, Gone: null });
  });
});

describe('JSON escaping', () => {
  it('escapes strings and URIs so that the body parses back to the values', () => {
    const nasty = `"\\</script>\u0001\u2028`;
    const entry = json('Books', { Isbn: nasty, Edition: 1, Title: nasty });
    expect(entry.Title).toBe(nasty);
    expect((entry.__metadata as Json).uri).toBe(`${SERVICE_ROOT}Books(Isbn='%22%5C%3C%2Fscript%3E%01%E2%80%A8',Edition=1)`);
  });
});

describe('JSON service root', () => {
  it('writes each response with its own service root, however responses of several hosts interleave', () => {
    const roots = ['http://a.example/odata/', 'http://b.example/o"data/', 'http://a.example/odata/'];
    const uris = roots.map((serviceRoot) => (json('Products', product0, ALL, '2.0', testModel, { serviceRoot }).__metadata as Json).uri);
    expect(uris).toEqual(['http://a.example/odata/Products(0)', 'http://b.example/o"data/Products(0)', 'http://a.example/odata/Products(0)']);
  });
});

describe('JSON feed', () => {
  const set = entitySet('Products');
  const base = { kind: 'Feed', entitySet: set, entityType: set.entityType, selfPath: 'Products', title: 'Products', selectExpand: ALL } as const;

  it('writes {"d":[...]} in 1.0 and {"d":{"results":[...]}} in 2.0', () => {
    const v1 = JSON.parse(text(writeJsonFeed({ ...base, entities: demo.Products.slice(0, 2), count: undefined, nextLink: undefined }, context('1.0')))) as {
      d: Json[];
    };
    const v2 = JSON.parse(text(writeJsonFeed({ ...base, entities: demo.Products.slice(0, 2), count: undefined, nextLink: undefined }, context('2.0')))) as {
      d: { results: Json[] };
    };
    expect(v1.d.map((e) => e.ID)).toEqual([0, 1]);
    expect(v2.d.results).toEqual(v1.d);
    expect(Object.keys(v2.d)).toEqual(['results']);
  });

  it('writes __count as a string before the results and __next after them', () => {
    const body = text(writeJsonFeed({ ...base, entities: [], count: 9, nextLink: `${SERVICE_ROOT}Products?$skiptoken=4` }, context('2.0')));
    expect(body).toBe(`{"d":{"__count":"9","results":[],"__next":"${SERVICE_ROOT}Products?$skiptoken=4"}}`);
  });
});
