import { readAtomEntry } from '../../../lib/format/readers';
import type { EntryTarget, ReadContext } from '../../../lib/format/readers';
import { BAD_VALUE_CASES, PRIMITIVE_CASES } from './primitive-cases';
import { ATOM_NAMESPACES, SERVICE_ROOT, atomEntry, catchODataError, contextFor, demoModel, related, summarize, targetOf, writeModel } from './reader-fixtures';
import type { EntrySummary } from './reader-fixtures';

const items = targetOf(writeModel, 'Items');
const context = contextFor();

function read(body: string, target: EntryTarget = items, readContext: ReadContext = context): EntrySummary {
  return summarize(readAtomEntry(Buffer.from(body, 'utf8'), target, readContext));
}

const category = (term: string): string => `<category term="${term}" scheme="http://schemas.microsoft.com/ado/2007/08/dataservices/scheme"/>`;
const link = (nav: string, href: string, inner = ''): string =>
  inner === '' ? `<link rel="${related(nav)}" href="${href}"/>` : `<link rel="${related(nav)}" href="${href}">${inner}</link>`;
const inlineEntry = (properties: string, extra = ''): string =>
  `<entry>${extra}<content type="application/xml"><m:properties>${properties}</m:properties></content></entry>`;

describe('readAtomEntry: every primitive type', () => {
  it.each(PRIMITIVE_CASES)('%s (%s) %s', (name, type, text, _json, expected) => {
    const typed = read(atomEntry(`<d:${name} m:type="${type}">${text}</d:${name}>`));
    expect(typed).toEqual({ type: 'WriteTest.Item', properties: { [name]: expected } });
    // Without m:type the declared type applies.
    expect(read(atomEntry(`<d:${name}>${text}</d:${name}>`)).properties).toEqual({ [name]: expected });
  });

  it.each(BAD_VALUE_CASES.filter(([, text]) => text !== null))('a bad %s value %j -> 400 VALUE_INVALID naming the property', (name, text) => {
    const error = catchODataError(() => read(atomEntry(`<d:${name}>${text}</d:${name}>`)));
    expect([error.status, error.code]).toEqual([400, 'VALUE_INVALID']);
    expect(error.message).toContain(`'${name}'`);
  });

  it('reads m:null="true" as null for every nullable type', () => {
    const nulls = PRIMITIVE_CASES.map(([name, type]) => `<d:${name} m:type="${type}" m:null="true"/>`);
    const unique = [...new Set(nulls)].join('');
    const expected = Object.fromEntries(PRIMITIVE_CASES.map(([name]) => [name, null]));
    expect(read(atomEntry(unique)).properties).toEqual(expected);
  });
});

describe('readAtomEntry: entries', () => {
  it.each<[string, string, EntryTarget, EntrySummary]>([
    [
      'a category naming the target type, and an id',
      atomEntry('<d:ID m:type="Edm.Int32">1</d:ID><d:Code>AB</d:Code>', `${category('WriteTest.Item')}<id>http://localhost:4004/odata/Items(1)</id>`),
      items,
      { type: 'WriteTest.Item', properties: { ID: 1, Code: 'AB' }, id: 'http://localhost:4004/odata/Items(1)' },
    ],
    ['no category: the declared type', atomEntry('<d:Code>AB</d:Code>'), items, { type: 'WriteTest.Item', properties: { Code: 'AB' } }],
    ['an empty m:properties', atomEntry(''), items, { type: 'WriteTest.Item', properties: {} }],
    [
      'a derived type named by the category',
      atomEntry('<d:ID m:type="Edm.Int32">3</d:ID><d:Salary m:type="Edm.Decimal">1000.00</d:Salary>', category('WriteTest.Employee')),
      targetOf(writeModel, 'People'),
      { type: 'WriteTest.Employee', properties: { ID: 3, Salary: '1000' } },
    ],
    [
      'nested complex values, with and without m:type',
      atomEntry(
        '<d:Address m:type="WriteTest.Address"><d:Street>Main 1</d:Street><d:Geo><d:Lat m:type="Edm.Double">1.5</d:Lat><d:Lon m:null="true"/></d:Geo></d:Address>',
      ),
      items,
      { type: 'WriteTest.Item', properties: { Address: { Street: 'Main 1', Geo: { Lat: 1.5, Lon: null } } } },
    ],
    [
      'feed-customized properties read back from atom:title, atom:author/atom:name and a custom element',
      atomEntry(
        '<d:ID>1</d:ID>',
        '<title type="text">Hello &amp; bye</title><author><name>Ann</name></author><ext:tag xmlns:ext="http://example.org/ext" value="red"/>',
      ),
      items,
      { type: 'WriteTest.Item', properties: { ID: 1, Title: 'Hello & bye', Author: 'Ann', Tag: 'red' } },
    ],
    [
      'an empty mapped title sets nothing; a value in m:properties wins over the title',
      atomEntry('<d:Author>Bob</d:Author>', '<title/><author><name>Ann</name></author>'),
      items,
      { type: 'WriteTest.Item', properties: { Author: 'Bob' } },
    ],
    [
      'a mapping with FC_KeepInContent="true" is not read from atom:updated',
      atomEntry('', '<updated>2011-01-01T00:00:00Z</updated>'),
      items,
      { type: 'WriteTest.Item', properties: {} },
    ],
    [
      'ODataDemo Product: Name from the title, Description from the summary',
      atomEntry(
        '<d:ID m:type="Edm.Int32">10</d:ID><d:Price m:type="Edm.Decimal">2.5</d:Price>',
        '<title type="text">Bread</title><summary type="text">Whole grain</summary>',
      ),
      targetOf(demoModel, 'Products'),
      { type: 'ODataDemo.Product', properties: { ID: 10, Price: '2.5', Name: 'Bread', Description: 'Whole grain' } },
    ],
    [
      'bindings by absolute, path-absolute and relative URIs; other rels are ignored',
      atomEntry(
        '',
        link('Owner', 'http://localhost:4004/odata/People(5)') +
          link('Parts', "/odata/Parts(ItemID=1,PartNo='a')") +
          link('Parts', "Parts(ItemID=1,PartNo='b%2Fc')") +
          '<link rel="edit" href="Items(1)"/><link rel="self" href="Items(1)"/>',
      ),
      items,
      { type: 'WriteTest.Item', properties: {}, bindings: { Owner: ['People(ID=5)'], Parts: ['Parts(ItemID=1,PartNo=a)', 'Parts(ItemID=1,PartNo=b/c)'] } },
    ],
    [
      'a relative href is resolved against xml:base',
      `<entry ${ATOM_NAMESPACES} xml:base="http://localhost:4004/odata/"><content type="application/xml"><m:properties/></content>${link('Owner', 'People(7)')}</entry>`,
      items,
      { type: 'WriteTest.Item', properties: {}, bindings: { Owner: ['People(ID=7)'] } },
    ],
    [
      'the deferred link of a read entry is echoed and ignored',
      atomEntry('', link('Owner', 'Items(1)/Owner') + link('Parts', 'http://localhost:4004/odata/Items(1)/Parts')),
      items,
      { type: 'WriteTest.Item', properties: {} },
    ],
    [
      'deep insert: an inline entry, an inline feed, and an empty m:inline (explicit null)',
      atomEntry(
        '<d:ID>1</d:ID>',
        link('Owner', 'Items(1)/Owner', `<m:inline>${inlineEntry('<d:ID>9</d:ID><d:Name>Eve</d:Name>', category('WriteTest.Employee'))}</m:inline>`) +
          link(
            'Parts',
            'Items(1)/Parts',
            `<m:inline><feed>${inlineEntry('<d:PartNo>a</d:PartNo>')}${inlineEntry('<d:PartNo>b</d:PartNo>')}</feed></m:inline>`,
          ) +
          link('Detail', 'Items(1)/Detail', '<m:inline/>'),
      ),
      items,
      {
        type: 'WriteTest.Item',
        properties: { ID: 1 },
        inline: {
          Owner: { set: 'People', entries: [{ type: 'WriteTest.Employee', properties: { ID: 9, Name: 'Eve' } }] },
          Parts: {
            set: 'Parts',
            entries: [
              { type: 'WriteTest.Part', properties: { PartNo: 'a' } },
              { type: 'WriteTest.Part', properties: { PartNo: 'b' } },
            ],
          },
          Detail: { set: 'ItemDetails', entries: [] },
        },
      },
    ],
    [
      'an inline entry carries its own bindings',
      atomEntry(
        '',
        link('Parts', 'Items(1)/Parts', `<m:inline><feed>${inlineEntry('<d:PartNo>a</d:PartNo>')}</feed></m:inline>`) +
          link('Owner', 'Items(1)/Owner', `<m:inline>${inlineEntry('<d:ID>2</d:ID>', link('Items', 'Items(4)'))}</m:inline>`),
      ),
      items,
      {
        type: 'WriteTest.Item',
        properties: {},
        inline: {
          Parts: { set: 'Parts', entries: [{ type: 'WriteTest.Part', properties: { PartNo: 'a' } }] },
          Owner: { set: 'People', entries: [{ type: 'WriteTest.Person', properties: { ID: 2 }, bindings: { Items: ['Items(ID=4)'] } }] },
        },
      },
    ],
    [
      'a media link entry: m:properties beside atom:content with src',
      `<entry ${ATOM_NAMESPACES}>${category('WriteTest.Photo')}<content type="image/png" src="Photos(1)/$value"/><m:properties><d:ID m:type="Edm.Int32">1</d:ID><d:Caption>Sea</d:Caption></m:properties></entry>`,
      targetOf(writeModel, 'Photos'),
      { type: 'WriteTest.Photo', properties: { ID: 1, Caption: 'Sea' }, mediaLinkEntry: true },
    ],
    [
      'an open type: dynamic properties typed by m:type, Edm.String without it',
      atomEntry(
        '<d:ID m:type="Edm.Int32">1</d:ID><d:Color>red</d:Color><d:Size m:type="Edm.Int64">5</d:Size><d:Where m:type="WriteTest.GeoPoint"><d:Lat m:type="Edm.Double">1</d:Lat></d:Where><d:Gone m:type="Edm.Int32" m:null="true"/>',
      ),
      targetOf(writeModel, 'Bags'),
      {
        type: 'WriteTest.Bag',
        properties: { ID: 1, Color: 'red', Size: '5', Where: { Lat: 1 }, Gone: null },
        dynamicTypes: { Color: 'Edm.String', Size: 'Edm.Int64', Where: 'WriteTest.GeoPoint', Gone: 'Edm.Int32' },
      },
    ],
    [
      'a key equal to the URL key (PUT)',
      atomEntry('<d:ID m:type="Edm.Int32">4</d:ID><d:Code>X</d:Code>'),
      targetOf(writeModel, 'Items', { ID: 4 }),
      { type: 'WriteTest.Item', properties: { ID: 4, Code: 'X' } },
    ],
    [
      'a composite key equal to the URL key',
      atomEntry('<d:ItemID m:type="Edm.Int32">4</d:ItemID><d:PartNo>x\'y</d:PartNo>'),
      targetOf(writeModel, 'Parts', { ItemID: 4, PartNo: "x'y" }),
      { type: 'WriteTest.Part', properties: { ItemID: 4, PartNo: "x'y" } },
    ],
  ])('%s', (_name, body, target, expected) => {
    expect(read(body, target)).toEqual(expected);
  });

  it('resolves $<ContentID> references of a change set', () => {
    const batch = contextFor(writeModel, {
      contentIds: new Map([
        ['1', 'People(9)'],
        ['abc', "Parts(ItemID=2,PartNo='z')"],
      ]),
    });
    expect(read(atomEntry('', link('Owner', '$1') + link('Parts', '$abc')), items, batch).bindings).toEqual({
      Owner: ['People(ID=9)'],
      Parts: ['Parts(ItemID=2,PartNo=z)'],
    });
  });

  it('reads a string body (a host app ran a text body parser) like the bytes', () => {
    const body = atomEntry('<d:PString>abc</d:PString>', link('Owner', 'People(1)'));
    const expected = read(body);
    expect(summarize(readAtomEntry(body, items, context))).toEqual(expected);
  });
});

describe('readAtomEntry: refused bodies', () => {
  const deepEntry = (levels: number): string => {
    // Items -> Parts -> Item -> Parts ...: each level one inline entry.
    let inner = '';
    for (let level = levels; level > 0; level--) {
      const nav = level % 2 === 1 ? 'Parts' : 'Item';
      const wrapped = nav === 'Parts' ? `<feed>${inlineEntry('', inner)}</feed>` : inlineEntry('', inner);
      inner = link(nav, 'x', `<m:inline>${wrapped}</m:inline>`);
    }
    return atomEntry('', inner);
  };

  it.each<[string, string, number, string, string]>([
    ['malformed XML', '<entry><content>', 400, 'BODY_SYNTAX', 'not well-formed XML'],
    ['an empty body', '  ', 400, 'BODY_MISSING', 'A request body is required'],
    ['a DOCTYPE', `<!DOCTYPE entry><entry ${ATOM_NAMESPACES}/>`, 400, 'BODY_DOCTYPE', 'DOCTYPE'],
    [
      'billion laughs',
      `<!DOCTYPE e [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><entry ${ATOM_NAMESPACES}><title>&c;</title></entry>`,
      400,
      'BODY_DOCTYPE',
      'entity declarations',
    ],
    ['a feed instead of an entry', `<feed ${ATOM_NAMESPACES}/>`, 400, 'BODY_INVALID', 'expected an atom:entry element'],
    ['an entry outside the Atom namespace', '<entry/>', 400, 'BODY_INVALID', "found 'entry'"],
    ['an unknown property', atomEntry('<d:Cod>1</d:Cod>'), 400, 'BODY_INVALID', "has no property 'Cod'. Did you mean 'Code'?"],
    ['a navigation property in m:properties', atomEntry('<d:Owner>1</d:Owner>'), 400, 'BODY_INVALID', "'Owner' is a navigation property"],
    ['a property outside the data namespace', atomEntry('<m:Code>1</m:Code>'), 400, 'BODY_INVALID', 'not in the data namespace'],
    ['text in m:properties', atomEntry('stray'), 400, 'BODY_INVALID', 'contains text'],
    ['a property given twice', atomEntry('<d:Code>A</d:Code><d:Code>B</d:Code>'), 400, 'BODY_INVALID', "'Code' is given more than once"],
    ['a wrong m:type', atomEntry('<d:PInt32 m:type="Edm.String">1</d:PInt32>'), 400, 'VALUE_INVALID', "m:type 'Edm.String' does not match"],
    ['an unknown m:type', atomEntry('<d:PInt32 m:type="Edm.Int128">1</d:PInt32>'), 400, 'BODY_INVALID', "m:type 'Edm.Int128'"],
    ['a wrong complex m:type', atomEntry('<d:Address m:type="WriteTest.GeoPoint"/>'), 400, 'VALUE_INVALID', 'does not match'],
    ['a bad m:null', atomEntry('<d:PString m:null="yes"/>'), 400, 'BODY_INVALID', 'must be "true" or "false"'],
    ['an element inside a primitive', atomEntry('<d:PString><d:x/></d:PString>'), 400, 'BODY_INVALID', "primitive property 'PString' contains XML elements"],
    ['an unknown complex member', atomEntry('<d:Address><d:Zip>1</d:Zip></d:Address>'), 400, 'BODY_INVALID', "'WriteTest.Address' has no property 'Zip'"],
    ['text in a complex value', atomEntry('<d:Address>Main</d:Address>'), 400, 'BODY_INVALID', 'contains text'],
    ['MaxLength', atomEntry('<d:PString>12345678901</d:PString>'), 400, 'VALUE_INVALID', "'PString'"],
    ['Nullable="false"', atomEntry('<d:Code m:null="true"/>'), 400, 'VALUE_INVALID', "'Code'"],
    ['a null non-nullable complex value', atomEntry('<d:Address m:null="true"/>'), 400, 'VALUE_INVALID', "'Address'"],
    ['a nested MaxLength', atomEntry('<d:Address><d:Street>123456789012345678901</d:Street></d:Address>'), 400, 'VALUE_INVALID', "'Street'"],
    ['Binary MaxLength', atomEntry('<d:PBinary>AAAAAAAAAAAA</d:PBinary>'), 400, 'VALUE_INVALID', "'PBinary'"],
    [
      'a category of an unrelated type',
      atomEntry('', category('WriteTest.Part')),
      400,
      'BODY_INVALID',
      "'WriteTest.Part' is not 'WriteTest.Item' or a type derived from it",
    ],
    [
      'a category of an unknown type',
      atomEntry('', category('WriteTest.Itme')),
      400,
      'BODY_INVALID',
      "'WriteTest.Itme' is not defined in the model. Did you mean 'WriteTest.Item'",
    ],
    ['two categories', atomEntry('', category('WriteTest.Item') + category('WriteTest.Item')), 400, 'BODY_INVALID', 'more than one category'],
    ['an unknown navigation rel', atomEntry('', link('Ownr', 'People(1)')), 400, 'BODY_INVALID', "no navigation property 'Ownr'. Did you mean 'Owner'?"],
    ['a link without href or m:inline', atomEntry('', `<link rel="${related('Owner')}"/>`), 400, 'BODY_INVALID', 'neither an href nor m:inline'],
    [
      'a link to another service',
      atomEntry('', link('Owner', 'http://evil.example/odata/People(1)')),
      400,
      'BODY_INVALID',
      'does not address a resource of this service',
    ],
    ['a link to a collection', atomEntry('', link('Owner', 'People')), 400, 'BODY_INVALID', 'does not address a single entry by its key'],
    ['a link to an unknown set', atomEntry('', link('Owner', 'Persons(1)')), 400, 'BODY_INVALID', "the link 'Persons(1)' does not address an entry"],
    ['a link with a bad key', atomEntry('', link('Owner', "People('x')")), 400, 'BODY_INVALID', "the link 'People('x')' does not address an entry"],
    [
      'a link to the wrong set of the right type',
      atomEntry('', link('Owner', 'FormerPeople(1)')),
      400,
      'BODY_INVALID',
      "addresses the entity set 'FormerPeople', but 'Owner' links to entries of 'People'",
    ],
    ['a link to a set of another type', atomEntry('', link('Owner', "Parts(ItemID=1,PartNo='a')")), 400, 'BODY_INVALID', "addresses the entity set 'Parts'"],
    ['an unknown Content-ID', atomEntry('', link('Owner', '$7')), 400, 'BODY_INVALID', "Content-ID '7'"],
    [
      'two links for a single-valued navigation',
      atomEntry('', link('Owner', 'People(1)') + link('Owner', 'People(2)')),
      400,
      'BODY_INVALID',
      "'Owner' is given more than once",
    ],
    [
      'a feed inlined for a single-valued navigation',
      atomEntry('', link('Owner', 'x', '<m:inline><feed/></m:inline>')),
      400,
      'BODY_INVALID',
      'must hold an entry, not a feed',
    ],
    [
      'an entry inlined for a many-valued navigation',
      atomEntry('', link('Parts', 'x', `<m:inline>${inlineEntry('')}</m:inline>`)),
      400,
      'BODY_INVALID',
      'must hold a feed, not an entry',
    ],
    ['something else inlined', atomEntry('', link('Parts', 'x', '<m:inline><d:x/></m:inline>')), 400, 'BODY_INVALID', "not 'x'"],
    ['two m:inline', atomEntry('', link('Detail', 'x', '<m:inline/><m:inline/>')), 400, 'BODY_INVALID', 'more than one m:inline'],
    [
      'a bad value inside an inline entry',
      atomEntry('', link('Owner', 'x', `<m:inline>${inlineEntry('<d:ID>x</d:ID>')}</m:inline>`)),
      400,
      'VALUE_INVALID',
      "'ID'",
    ],
    ['inline entries nested too deep', deepEntry(9), 400, 'BODY_INVALID', 'nested deeper than 8 levels'],
    [
      'an unexpected element in atom:content',
      `<entry ${ATOM_NAMESPACES}><content type="application/xml"><d:ID>1</d:ID></content></entry>`,
      400,
      'BODY_INVALID',
      "unexpected element 'ID' in atom:content",
    ],
    ['a bad xml:base', `<entry ${ATOM_NAMESPACES} xml:base="http://[::1"/>`, 400, 'BODY_INVALID', 'xml:base'],
  ])('%s', (_name, body, status, code, fragment) => {
    const error = catchODataError(() => read(body));
    expect([error.status, error.code]).toEqual([status, code]);
    expect(error.message).toContain(fragment);
  });

  it.each([
    ['a dynamic complex value without m:type', '<d:Where><d:Lat>1</d:Lat></d:Where>', 'BODY_INVALID', "'Where' has members but no m:type"],
    ['a dynamic value of an unknown type', '<d:Where m:type="WriteTest.Nowhere">1</d:Where>', 'BODY_INVALID', "m:type 'WriteTest.Nowhere' of 'Where'"],
    ['a bad dynamic value', '<d:Size m:type="Edm.Int32">big</d:Size>', 'VALUE_INVALID', "'Size'"],
  ])('open type: %s -> 400 %s', (_name, properties, code, fragment) => {
    const error = catchODataError(() => read(atomEntry(properties), targetOf(writeModel, 'Bags')));
    expect([error.status, error.code]).toEqual([400, code]);
    expect(error.message).toContain(fragment);
  });

  it('accepts inline entries up to the depth limit', () => {
    expect(read(deepEntry(8)).inline?.Parts.entries).toHaveLength(1);
    const shallow = contextFor(writeModel, { limits: { maxInlineDepth: 2 } });
    expect(catchODataError(() => read(deepEntry(3), items, shallow)).message).toContain('nested deeper than 2 levels');
  });

  it.each([
    ['a key other than the URL key', atomEntry('<d:ID m:type="Edm.Int32">1</d:ID>'), targetOf(writeModel, 'Items', { ID: 2 })],
    [
      'one part of a composite key differs',
      atomEntry('<d:ItemID>4</d:ItemID><d:PartNo>b</d:PartNo>'),
      targetOf(writeModel, 'Parts', { ItemID: 4, PartNo: 'a' }),
    ],
  ])('%s -> 400 KEY_MISMATCH', (_name, body, target) => {
    const error = catchODataError(() => read(body, target));
    expect([error.status, error.code, error.message]).toEqual([400, 'KEY_MISMATCH', 'The key in the request body does not match the key in the URL.']);
  });

  it.each([
    ['application/atom+xml;charset=iso-8859-1', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['application/atom+xml;type=entry;charset=utf-8', 200, ''],
  ])('content type %s', (contentType, status, code) => {
    const body = atomEntry('<d:Code>A</d:Code>');
    const withType = contextFor(writeModel, { contentType });
    if (status === 200) expect(read(body, items, withType).properties).toEqual({ Code: 'A' });
    else expect(catchODataError(() => read(body, items, withType)).code).toBe(code);
  });

  it('uses the service root it is given', () => {
    expect(SERVICE_ROOT).toBe('http://localhost:4004/odata/');
    const other = contextFor(writeModel, { serviceRoot: 'https://example.com/svc/' });
    expect(read(atomEntry('', link('Owner', 'https://example.com/svc/People(1)')), items, other).bindings).toEqual({ Owner: ['People(ID=1)'] });
    expect(catchODataError(() => read(atomEntry('', link('Owner', 'http://localhost:4004/odata/People(1)')), items, other)).code).toBe('BODY_INVALID');
  });
});
