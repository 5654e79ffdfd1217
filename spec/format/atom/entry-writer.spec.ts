/**
 * Targeted checks of Atom entries and feeds (Olingo-style XPath assertions): ETags, feed
 * customization placement, navigation links and inline content, media link entries, open types.
 */
import { writeAtomEntry, writeAtomFeed } from '../../../lib/format';
import type { EntryResult, FeedResult } from '../../../lib/result';
import type { Entity } from '../../../lib/provider/types';
import type { SelectExpand } from '../../../lib/uri/types';
import { ALL, byId, context, demo, entitySet, expandItem, productWith, selection, SERVICE_ROOT, text, UPDATED } from '../support';
import { testModel } from '../test-model';
import { attr, type Node, one, parseTree, select } from '../xml-tree';

function entryOf(setName: string, entity: Entity, selectExpand: SelectExpand = ALL): Node {
  const set = entitySet(setName);
  const result: EntryResult = { kind: 'Entry', entitySet: set, entityType: set.entityType, entity, selectExpand };
  return parseTree(text(writeAtomEntry(result, context())));
}

function testEntry(setName: string, entity: Entity, selectExpand: SelectExpand = ALL, extra: Parameters<typeof context>[2] = {}): { xml: string; root: Node } {
  const set = entitySet(setName, testModel);
  const xml = text(writeAtomEntry({ kind: 'Entry', entitySet: set, entityType: set.entityType, entity, selectExpand }, context('2.0', testModel, extra)));
  return { xml, root: parseTree(xml) };
}

function propertyNames(entry: Node): string[] {
  return select(entry, 'atom:content/m:properties')
    .concat(select(entry, 'm:properties'))
    .flatMap((p) => p.children.map((c) => c.local));
}

function must(entity: Entity | null): Entity {
  if (entity === null) throw new Error('missing fixture');
  return entity;
}

const product0 = must(byId(demo.Products, 0));
const supplier0 = must(byId(demo.Suppliers, 0));
const category0 = must(byId(demo.Categories, 0));

describe('Atom entry: identity and ETag', () => {
  it('writes id (absolute), edit link (relative, titled with the type name) and category', () => {
    const entry = entryOf('Products', product0);
    expect(one(entry, 'atom:id').text).toBe(`${SERVICE_ROOT}Products(0)`);
    const edit = select(entry, 'atom:link').find((l) => attr(l, 'rel') === 'edit');
    expect(edit && [attr(edit, 'title'), attr(edit, 'href')]).toEqual(['Product', 'Products(0)']);
    const category = one(entry, 'atom:category');
    expect([attr(category, 'term'), attr(category, 'scheme')]).toEqual(['ODataDemo.Product', 'http://schemas.microsoft.com/ado/2007/08/dataservices/scheme']);
    expect(one(entry, 'atom:updated').text).toBe(UPDATED);
    expect(attr(entry, 'xml:base')).toBe(SERVICE_ROOT);
  });

  it('puts the ETag on the entry as m:etag (Supplier.Concurrency is Fixed)', () => {
    const set = entitySet('Suppliers');
    const xml = text(writeAtomEntry({ kind: 'Entry', entitySet: set, entityType: set.entityType, entity: supplier0, selectExpand: ALL }, context()));
    expect(attr(parseTree(xml), 'm:etag')).toBe('W/"0"');
    expect(xml).toContain('m:etag="W/&quot;0&quot;"');
  });

  it('writes no m:etag for a type without concurrency properties', () => {
    expect(attr(entryOf('Products', product0), 'm:etag')).toBeUndefined();
  });
});

describe('Atom entry: feed customization', () => {
  it('maps Product.Name to atom:title and Description to atom:summary, and keeps both out of m:properties (FC_KeepInContent=false)', () => {
    const entry = entryOf('Products', product0);
    expect([one(entry, 'atom:title').text, attr(one(entry, 'atom:title'), 'type')]).toEqual(['Bread', 'text']);
    expect([one(entry, 'atom:summary').text, attr(one(entry, 'atom:summary'), 'type')]).toEqual(['Whole grain bread', 'text']);
    expect(propertyNames(entry)).toEqual(['ID', 'ReleaseDate', 'DiscontinuedDate', 'Rating', 'Price']);
  });

  it('maps Category.Name to atom:title and keeps it in m:properties (FC_KeepInContent=true)', () => {
    const entry = entryOf('Categories', category0);
    expect(one(entry, 'atom:title').text).toBe('Food');
    expect(one(entry, 'atom:content/m:properties/d:Name').text).toBe('Food');
  });

  it('keeps a null mapped value in m:properties as m:null and leaves the title empty', () => {
    const entry = entryOf('Products', { ...product0, Name: null, Description: null });
    expect(one(entry, 'atom:title').text).toBe('');
    expect(select(entry, 'atom:summary')).toHaveLength(0);
    expect(attr(one(entry, 'atom:content/m:properties/d:Name'), 'm:null')).toBe('true');
    expect(attr(one(entry, 'atom:content/m:properties/d:Description'), 'm:null')).toBe('true');
  });

  it('writes an empty title and no summary when $select leaves the mapped properties out', () => {
    const entry = entryOf('Products', product0, { select: selection(['Price']), expand: [] });
    expect(one(entry, 'atom:title').text).toBe('');
    expect(select(entry, 'atom:summary')).toHaveLength(0);
    expect(propertyNames(entry)).toEqual(['Price']);
  });

  const book: Entity = {
    Isbn: '978-3-16',
    Edition: 2,
    Title: 'Fish & <Chips>',
    Blurb: '<p>A <b>tasty</b> read</p>',
    Author: "Ann O'Nym",
    AuthorEmail: 'ann@example.org',
    AuthorUri: 'http://example.org/ann',
    Published: new Date('2001-02-03T04:05:06Z'),
    Changed: new Date('2010-01-01T00:00:00.5Z'),
    Rights: '(c) 2001',
    Publisher: 'Pub & Co',
    ShelfId: 7,
    ShelfName: 'Fiction',
    Location: { Room: 'B2', Floor: 1 },
  };

  it('places every syndication target in its Atom element', () => {
    const { root } = testEntry('Books', book);
    expect([attr(one(root, 'atom:title'), 'type'), one(root, 'atom:title').text]).toEqual(['html', 'Fish & <Chips>']);
    const summary = one(root, 'atom:summary');
    expect(attr(summary, 'type')).toBe('xhtml');
    expect(one(summary, 'xhtml:div/xhtml:p/xhtml:b').text).toBe('tasty');
    expect(one(root, 'atom:author/atom:name').text).toBe("Ann O'Nym");
    expect(one(root, 'atom:author/atom:email').text).toBe('ann@example.org');
    expect(one(root, 'atom:author/atom:uri').text).toBe('http://example.org/ann');
    expect(one(root, 'atom:contributor/atom:name').text).toBe('Pub & Co');
    expect(one(root, 'atom:published').text).toBe('2001-02-03T04:05:06Z');
    expect(one(root, 'atom:updated').text).toBe('2010-01-01T00:00:00.500Z');
    expect([attr(one(root, 'atom:rights'), 'type'), one(root, 'atom:rights').text]).toEqual(['text', '(c) 2001']);
  });

  it("writes the xhtml summary as the property's own markup inside an XHTML div", () => {
    const { xml } = testEntry('Books', book);
    expect(xml).toContain('<summary type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>A <b>tasty</b> read</p></div></summary>');
  });

  it('writes custom targets in their namespace, merging shared steps, with attributes from @ paths', () => {
    const { xml, root } = testEntry('Books', book);
    const shelf = root.children.find((c) => c.local === 'shelf');
    expect(shelf?.uri).toBe('http://example.org/library');
    expect(shelf && attr(shelf, 'id')).toBe('7');
    expect(shelf?.children.map((c) => [c.uri, c.local, c.text])).toEqual([
      ['http://example.org/library', 'name', 'Fiction'],
      ['http://example.org/library', 'room', 'B2'],
    ]);
    expect(xml).toContain('<lib:shelf xmlns:lib="http://example.org/library" id="7"><lib:name>Fiction</lib:name><lib:room>B2</lib:room></lib:shelf></entry>');
  });

  it('leaves FC_KeepInContent=false values out of m:properties and keeps the others', () => {
    const { root } = testEntry('Books', book);
    expect(propertyNames(root)).toEqual(['Isbn', 'Edition', 'Blurb', 'AuthorEmail', 'AuthorUri', 'Published', 'Rights', 'Publisher', 'ShelfName', 'Location']);
  });

  it('omits a null attribute target and keeps the null value in m:properties', () => {
    const { root } = testEntry('Books', { ...book, ShelfId: null, Author: null, Changed: null });
    const shelf = root.children.find((c) => c.local === 'shelf');
    expect(shelf && attr(shelf, 'id')).toBeUndefined();
    expect(attr(one(root, 'atom:content/m:properties/d:ShelfId'), 'm:null')).toBe('true');
    expect(one(root, 'atom:author/atom:name').text).toBe('');
    expect(one(root, 'atom:updated').text).toBe(UPDATED);
  });

  it('writes composite keys in the edit link and id', () => {
    const { root } = testEntry('Books', book);
    expect(one(root, 'atom:id').text).toBe(`${SERVICE_ROOT}Books(Isbn='978-3-16',Edition=2)`);
  });
});

describe('Atom entry: navigation links', () => {
  it('writes one related link per navigation property, typed entry or feed', () => {
    const links = select(entryOf('Products', product0), 'atom:link').filter((l) => attr(l, 'rel')?.includes('/related/'));
    expect(links.map((l) => [attr(l, 'rel'), attr(l, 'type'), attr(l, 'title'), attr(l, 'href')])).toEqual([
      ['http://schemas.microsoft.com/ado/2007/08/dataservices/related/Category', 'application/atom+xml;type=entry', 'Category', 'Products(0)/Category'],
      ['http://schemas.microsoft.com/ado/2007/08/dataservices/related/Supplier', 'application/atom+xml;type=entry', 'Supplier', 'Products(0)/Supplier'],
    ]);
    const categoryLinks = select(entryOf('Categories', category0), 'atom:link').filter((l) => attr(l, 'rel')?.includes('/related/'));
    expect(categoryLinks.map((l) => attr(l, 'type'))).toEqual(['application/atom+xml;type=feed']);
  });

  it('inlines an expanded entry, an empty m:inline for null, and a feed for a collection', () => {
    const expanded = entryOf('Products', productWith(product0, ['Category']), { select: undefined, expand: [expandItem(entitySet('Products'), 'Category')] });
    const link = select(expanded, 'atom:link').find((l) => attr(l, 'title') === 'Category');
    expect(link && one(link, 'm:inline/atom:entry/atom:id').text).toBe(`${SERVICE_ROOT}Categories(0)`);

    const none = entryOf('Products', { ...product0, Category: null }, { select: undefined, expand: [expandItem(entitySet('Products'), 'Category')] });
    const nullLink = select(none, 'atom:link').find((l) => attr(l, 'title') === 'Category');
    expect(nullLink && one(nullLink, 'm:inline').children).toEqual([]);

    const products = demo.Products.filter((p) => p.CategoryID === 0);
    const feedEntry = entryOf(
      'Categories',
      { ...category0, Products: products },
      { select: undefined, expand: [expandItem(entitySet('Categories'), 'Products')] },
    );
    const inlineFeed = one(feedEntry, 'atom:link/m:inline/atom:feed');
    expect(one(inlineFeed, 'atom:id').text).toBe(`${SERVICE_ROOT}Categories(0)/Products`);
    expect(attr(one(inlineFeed, 'atom:link'), 'href')).toBe('Categories(0)/Products');
    expect(select(inlineFeed, 'atom:entry')).toHaveLength(products.length);
  });

  it('writes only selected navigation links under $select', () => {
    const entry = entryOf('Products', product0, { select: selection(['ID'], ['Supplier']), expand: [] });
    expect(select(entry, 'atom:link').map((l) => attr(l, 'title'))).toEqual(['Product', 'Supplier']);
  });

  it("never writes keys that are not properties of a closed type (the demo data's CategoryID)", () => {
    const set = entitySet('Products');
    const xml = writeAtomEntry({ kind: 'Entry', entitySet: set, entityType: set.entityType, entity: product0, selectExpand: ALL }, context());
    expect(xml).not.toContain('CategoryID');
    expect(xml).not.toContain('SupplierID');
  });
});

describe('Atom escaping', () => {
  const nasty = `<&"'\u0001> a\r\nb`;

  it('escapes values in text and in mapped Atom elements; forbidden characters become U+FFFD', () => {
    const entry = entryOf('Categories', { ID: 7, Name: nasty });
    const expected = `<&"'\uFFFD> a\r\nb`;
    expect(one(entry, 'atom:title').text).toBe(expected);
    expect(one(entry, 'atom:content/m:properties/d:Name').text).toBe(expected);
  });

  it('escapes string keys in ids and hrefs', () => {
    const { root } = testEntry('Books', { Isbn: `a&b<"c`, Edition: 1 });
    expect(one(root, 'atom:id').text).toBe(`${SERVICE_ROOT}Books(Isbn='a%26b%3C%22c',Edition=1)`);
    const edit = select(root, 'atom:link').find((l) => attr(l, 'rel') === 'edit');
    expect(edit && attr(edit, 'href')).toBe(`Books(Isbn='a%26b%3C%22c',Edition=1)`);
  });
});

describe('Atom feed', () => {
  it('writes m:count after the self link and the next link last', () => {
    const set = entitySet('Products');
    const result: FeedResult = {
      kind: 'Feed',
      entitySet: set,
      entityType: set.entityType,
      selfPath: 'Products',
      title: 'Products',
      entities: demo.Products.slice(0, 1),
      count: 9,
      nextLink: `${SERVICE_ROOT}Products?$skiptoken=0`,
      selectExpand: ALL,
    };
    const feed = parseTree(text(writeAtomFeed(result, context())));
    expect(feed.children.map((c) => c.local)).toEqual(['title', 'id', 'updated', 'link', 'count', 'entry', 'link']);
    expect(one(feed, 'm:count').text).toBe('9');
    const next = feed.children[feed.children.length - 1];
    expect([attr(next, 'rel'), attr(next, 'href')]).toEqual(['next', `${SERVICE_ROOT}Products?$skiptoken=0`]);
  });
});

describe('Atom media link entry', () => {
  const photo: Entity = { Id: 1, Caption: 'Sunset', Version: 3 };
  const etagOf = (entity: Entity): string => `W/"${String(entity.Version)}"`;

  it('writes content src, an edit-media link with the media ETag, and m:properties beside the content', () => {
    const { root } = testEntry('Photos', photo, ALL, { etagOf, mediaOf: () => ({ contentType: 'image/png', etag: 'W/"m1"' }) });
    const content = one(root, 'atom:content');
    expect([attr(content, 'type'), attr(content, 'src'), content.children.length]).toEqual(['image/png', 'Photos(1)/$value', 0]);
    const media = select(root, 'atom:link').find((l) => attr(l, 'rel') === 'edit-media');
    expect(media && [attr(media, 'href'), attr(media, 'm:etag')]).toEqual(['Photos(1)/$value', 'W/"m1"']);
    expect(one(root, 'm:properties/d:Id').text).toBe('1');
    expect(attr(root, 'm:etag')).toBe('W/"3"');
    expect(one(root, 'atom:title').text).toBe('Sunset');
    expect(propertyNames(root)).toEqual(['Id', 'Version']);
  });

  it('defaults the media type to application/octet-stream without a media ETag', () => {
    const { root } = testEntry('Photos', photo);
    expect(attr(one(root, 'atom:content'), 'type')).toBe('application/octet-stream');
    const media = select(root, 'atom:link').find((l) => attr(l, 'rel') === 'edit-media');
    expect(media && attr(media, 'm:etag')).toBeUndefined();
  });
});

describe('Atom open type', () => {
  const bag: Entity = {
    Id: 1,
    __metadata: { uri: 'x' },
    Label: 'x',
    Color: 'red',
    Size: 3,
    Big: 2.5,
    When: new Date('2020-01-01T00:00:00Z'),
    Gone: null,
    'bad name': 1,
    Nested: { a: 1 },
    Skipped: undefined,
  };

  it('writes dynamic properties with their inferred types after the declared ones', () => {
    const { root } = testEntry('Bags', bag);
    const properties = one(root, 'atom:content/m:properties').children;
    expect(properties.map((p) => [p.local, attr(p, 'm:type'), attr(p, 'm:null'), p.text])).toEqual([
      ['Id', 'Edm.Int32', undefined, '1'],
      ['Label', undefined, undefined, 'x'],
      ['Color', undefined, undefined, 'red'],
      ['Size', 'Edm.Int32', undefined, '3'],
      ['Big', 'Edm.Double', undefined, '2.5'],
      ['When', 'Edm.DateTime', undefined, '2020-01-01T00:00:00'],
      ['Gone', undefined, 'true', ''],
    ]);
  });

  it('writes only the selected dynamic properties under $select', () => {
    const { root } = testEntry('Bags', bag, { select: selection(['Color']), expand: [] });
    expect(propertyNames(root)).toEqual(['Color']);
  });
});
