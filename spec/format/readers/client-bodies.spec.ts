/**
 * Bodies as real OData V2 clients send them, against the ODataDemo model: SAPUI5's v2 ODataModel
 * (create and MERGE, `__metadata` with type and etag, deferred links removed), the SAP Cloud SDK's
 * OData v2 client (dates as `\/Date(ms)\/`, Decimal and Int64 as strings, deep create as arrays),
 * datajs (`__metadata.uri` bindings), WCF Data Services' DataServiceContext (Atom with the mapped
 * title and summary, empty id, related links with absolute hrefs) and Olingo (xml:base, m:etag,
 * whitespace around the id).
 */
import { readAtomEntry, readJsonEntry } from '../../../lib/format/readers';
import { catchODataError, contextFor, demoModel, summarize, targetOf } from './reader-fixtures';
import type { EntrySummary } from './reader-fixtures';

const context = contextFor(demoModel);
const products = targetOf(demoModel, 'Products');
const json = (body: string, target = products): EntrySummary =>
  summarize(readJsonEntry(Buffer.from(body), target, { ...context, contentType: 'application/json' }));
const atom = (body: string, target = products): EntrySummary =>
  summarize(readAtomEntry(Buffer.from(body), target, { ...context, contentType: 'application/atom+xml' }));

const RELEASE = new Date(Date.UTC(1992, 0, 1));

describe('verbose JSON from real clients', () => {
  it('SAPUI5 v2 ODataModel create (createEntry + submitChanges)', () => {
    const body =
      '{"__metadata":{"type":"ODataDemo.Product"},"ID":100,"Name":"Bread","Description":"Whole grain",' +
      '"ReleaseDate":"\\/Date(694224000000)\\/","DiscontinuedDate":null,"Rating":4,"Price":"2.50"}';
    expect(json(body)).toEqual({
      type: 'ODataDemo.Product',
      properties: { ID: 100, Name: 'Bread', Description: 'Whole grain', ReleaseDate: RELEASE, DiscontinuedDate: null, Rating: 4, Price: '2.5' },
    });
  });

  it('SAPUI5 v2 ODataModel MERGE of a changed property, with the etag in __metadata', () => {
    const body = '{"__metadata":{"type":"ODataDemo.Supplier","etag":"W/\\"0\\""},"Name":"Exotic Liquids Ltd"}';
    expect(json(body, targetOf(demoModel, 'Suppliers', { ID: 0 }))).toEqual({ type: 'ODataDemo.Supplier', properties: { Name: 'Exotic Liquids Ltd' } });
  });

  it('SAP Cloud SDK v2 create with a deep insert and a complex value', () => {
    const body = JSON.stringify({
      ID: 7,
      Name: 'Acme',
      Address: { Street: '1 Main St', City: 'Redmond', State: 'WA', ZipCode: '98052', Country: 'USA' },
      Concurrency: 0,
      Products: [{ ID: 70, Name: 'Anvil', ReleaseDate: '/Date(694224000000)/', Rating: 5, Price: '99.99' }],
    });
    expect(json(body, targetOf(demoModel, 'Suppliers'))).toEqual({
      type: 'ODataDemo.Supplier',
      properties: { ID: 7, Name: 'Acme', Address: { Street: '1 Main St', City: 'Redmond', State: 'WA', ZipCode: '98052', Country: 'USA' }, Concurrency: 0 },
      inline: {
        Products: {
          set: 'Products',
          entries: [{ type: 'ODataDemo.Product', properties: { ID: 70, Name: 'Anvil', ReleaseDate: RELEASE, Rating: 5, Price: '99.99' } }],
        },
      },
    });
  });

  it('datajs create with a binding by __metadata.uri, wrapped in d', () => {
    const body =
      '{"d":{"__metadata":{"type":"ODataDemo.Product"},"ID":101,"Name":"Milk","ReleaseDate":"\\/Date(694224000000)\\/",' +
      '"Rating":3,"Price":"3.5","Category":{"__metadata":{"uri":"http://localhost:4004/odata/Categories(1)"}}}}';
    expect(json(body)).toEqual({
      type: 'ODataDemo.Product',
      properties: { ID: 101, Name: 'Milk', ReleaseDate: RELEASE, Rating: 3, Price: '3.5' },
      bindings: { Category: ['Categories(ID=1)'] },
    });
  });

  it('an entry read from the service and sent back for PUT (metadata and deferred links)', () => {
    const body = JSON.stringify({
      d: {
        __metadata: { uri: 'http://localhost:4004/odata/Products(0)', type: 'ODataDemo.Product' },
        ID: 0,
        Name: 'Bread',
        Description: 'Whole grain bread',
        ReleaseDate: '/Date(694224000000)/',
        DiscontinuedDate: null,
        Rating: 4,
        Price: '2.5',
        Category: { __deferred: { uri: 'http://localhost:4004/odata/Products(0)/Category' } },
        Supplier: { __deferred: { uri: 'http://localhost:4004/odata/Products(0)/Supplier' } },
      },
    });
    expect(json(body, targetOf(demoModel, 'Products', { ID: 0 }))).toEqual({
      type: 'ODataDemo.Product',
      properties: { ID: 0, Name: 'Bread', Description: 'Whole grain bread', ReleaseDate: RELEASE, DiscontinuedDate: null, Rating: 4, Price: '2.5' },
      id: 'http://localhost:4004/odata/Products(0)',
    });
  });
});

describe('the error documented in docs/request-bodies.md', () => {
  it('names the unknown property and suggests the declared one', () => {
    expect(catchODataError(() => json('{"Nam":"x"}')).message).toBe(
      "The request body is invalid: the type 'ODataDemo.Product' has no property 'Nam'. Did you mean 'Name'?",
    );
  });
});

describe('Atom from real clients', () => {
  it('WCF Data Services DataServiceContext.AddObject + SetLink (mapped title and summary, empty id)', () => {
    const body = `<?xml version="1.0" encoding="utf-8" standalone="yes"?>
<entry xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata" xmlns="http://www.w3.org/2005/Atom">
  <category scheme="http://schemas.microsoft.com/ado/2007/08/dataservices/scheme" term="ODataDemo.Product" />
  <title type="text">Bread</title>
  <summary type="text">Whole grain bread</summary>
  <author>
    <name />
  </author>
  <updated>2011-03-01T10:00:00.0000000Z</updated>
  <id />
  <link href="http://localhost:4004/odata/Categories(0)" rel="http://schemas.microsoft.com/ado/2007/08/dataservices/related/Category" type="application/atom+xml;type=entry" />
  <content type="application/xml">
    <m:properties>
      <d:DiscontinuedDate m:type="Edm.DateTime" m:null="true" />
      <d:ID m:type="Edm.Int32">100</d:ID>
      <d:Price m:type="Edm.Decimal">2.5</d:Price>
      <d:Rating m:type="Edm.Int32">4</d:Rating>
      <d:ReleaseDate m:type="Edm.DateTime">1992-01-01T00:00:00</d:ReleaseDate>
    </m:properties>
  </content>
</entry>`;
    expect(atom(body)).toEqual({
      type: 'ODataDemo.Product',
      properties: { DiscontinuedDate: null, ID: 100, Price: '2.5', Rating: 4, ReleaseDate: RELEASE, Name: 'Bread', Description: 'Whole grain bread' },
      bindings: { Category: ['Categories(ID=0)'] },
    });
  });

  it('Olingo client entry for MERGE: xml:base, m:etag, whitespace around the id, edit link', () => {
    const body = `<entry xmlns="http://www.w3.org/2005/Atom"
  xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"
  xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices"
  xml:base="http://localhost:4004/odata/"
  m:etag="W/&quot;0&quot;">
  <id>
    http://localhost:4004/odata/Suppliers(0)
  </id>
  <title type="text">Exotic Liquids</title>
  <updated>2013-04-03T10:53:26.021+02:00</updated>
  <category term="ODataDemo.Supplier" scheme="http://schemas.microsoft.com/ado/2007/08/dataservices/scheme"/>
  <link href="Suppliers(0)" rel="edit" title="Supplier"/>
  <link href="Suppliers(0)/Products" rel="http://schemas.microsoft.com/ado/2007/08/dataservices/related/Products" title="Products" type="application/atom+xml;type=feed"/>
  <content type="application/xml">
    <m:properties>
      <d:ID>0</d:ID>
      <d:Name>Exotic Liquids</d:Name>
      <d:Address m:type="ODataDemo.Address">
        <d:Street>NE 228th</d:Street>
        <d:City>Sammamish</d:City>
        <d:State>WA</d:State>
        <d:ZipCode>98074</d:ZipCode>
        <d:Country>USA</d:Country>
      </d:Address>
      <d:Concurrency m:type="Edm.Int32">0</d:Concurrency>
    </m:properties>
  </content>
</entry>`;
    expect(atom(body, targetOf(demoModel, 'Suppliers', { ID: 0 }))).toEqual({
      type: 'ODataDemo.Supplier',
      properties: {
        ID: 0,
        Name: 'Exotic Liquids',
        Address: { Street: 'NE 228th', City: 'Sammamish', State: 'WA', ZipCode: '98074', Country: 'USA' },
        Concurrency: 0,
      },
      id: 'http://localhost:4004/odata/Suppliers(0)',
    });
  });

  it('an AtomPub client posting a Category with a deep-inserted product feed', () => {
    const body = `<?xml version="1.0" encoding="utf-8"?>
<entry xmlns="http://www.w3.org/2005/Atom" xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata">
  <title type="text">Snacks</title>
  <author><name/></author>
  <content type="application/xml"><m:properties><d:ID m:type="Edm.Int32">9</d:ID></m:properties></content>
  <link rel="http://schemas.microsoft.com/ado/2007/08/dataservices/related/Products" type="application/atom+xml;type=feed" title="Products" href="Categories(9)/Products">
    <m:inline>
      <feed>
        <title type="text">Products</title>
        <entry>
          <title type="text">Chips</title>
          <content type="application/xml"><m:properties><d:ID m:type="Edm.Int32">90</d:ID><d:Price m:type="Edm.Decimal">1</d:Price></m:properties></content>
        </entry>
      </feed>
    </m:inline>
  </link>
</entry>`;
    // Category.Name keeps its value in content (FC_KeepInContent="true"): the title is not read for it.
    expect(atom(body, targetOf(demoModel, 'Categories'))).toEqual({
      type: 'ODataDemo.Category',
      properties: { ID: 9 },
      inline: { Products: { set: 'Products', entries: [{ type: 'ODataDemo.Product', properties: { ID: 90, Price: '1', Name: 'Chips' } }] } },
    });
  });
});
