/**
 * The write path end to end on the demo app: create, update, delete, property and $value writes,
 * $links, ETags, tunneling, in JSON and Atom, with the failure cases and the proof that a failed
 * write leaves storage unchanged.
 */
import request from 'supertest';
import { EXPRESS_VERSIONS, startDemo } from '../helpers/demo';
import type { RunningServer } from '../helpers/server';

const JSON_TYPE = 'application/json';
const ATOM_NS =
  'xmlns="http://www.w3.org/2005/Atom" xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"';

describe.each(EXPRESS_VERSIONS)('demo service writes on %s', (_name, expressModule) => {
  let demo: RunningServer;
  beforeEach(async () => {
    demo = await startDemo(expressModule);
  });
  afterEach(() => demo.close());

  const api = () => request(demo.url);
  const getJson = async (path: string) => (await api().get(`/odata/${path}`).set('accept', JSON_TYPE)).body;
  /** Everything the demo stores, to prove a failed write changed nothing. */
  const snapshot = async () => ({
    products: await getJson('Products?$expand=Category,Supplier'),
    categories: await getJson('Categories?$expand=Products'),
    suppliers: await getJson('Suppliers?$expand=Products'),
  });

  describe('create', () => {
    it('creates from JSON: 201, Location, the entry with defaults filled', async () => {
      const response = await api()
        .post('/odata/Products')
        .set('content-type', JSON_TYPE)
        .set('accept', JSON_TYPE)
        .send({ ID: 42, Name: 'Tea', ReleaseDate: '/Date(946684800000)/', Rating: 2, Price: '4.25' });
      expect(response.status).toBe(201);
      expect(response.headers['location']).toBe(`${demo.url}/odata/Products(42)`);
      expect(response.body.d).toMatchObject({ ID: 42, Name: 'Tea', Description: null, DiscontinuedDate: null, Rating: 2, Price: '4.25' });
      expect(response.body.d.ReleaseDate).toBe('/Date(946684800000)/');
      expect((await getJson('Products(42)')).d.Name).toBe('Tea');
    });

    it('creates from Atom with the title carrying the feed-customized Name', async () => {
      const body = `<?xml version="1.0" encoding="utf-8"?><entry ${ATOM_NS}><title type="text">Coffee</title><category term="ODataDemo.Product" scheme="http://schemas.microsoft.com/ado/2007/08/dataservices/scheme"/><content type="application/xml"><m:properties><d:ID m:type="Edm.Int32">43</d:ID><d:ReleaseDate m:type="Edm.DateTime">2001-01-01T00:00:00</d:ReleaseDate><d:Rating m:type="Edm.Int32">5</d:Rating><d:Price m:type="Edm.Decimal">9.99</d:Price></m:properties></content></entry>`;
      const response = await api().post('/odata/Products').set('content-type', 'application/atom+xml').send(body);
      expect(response.status).toBe(201);
      expect(response.headers['content-type']).toBe('application/atom+xml;charset=utf-8');
      expect(response.text).toContain('<title type="text">Coffee</title>');
      expect((await getJson('Products(43)')).d).toMatchObject({ Name: 'Coffee', Price: '9.99', Rating: 5 });
    });

    it('creates through a navigation property and links the new entry', async () => {
      const response = await api()
        .post('/odata/Categories(0)/Products')
        .set('content-type', JSON_TYPE)
        .send({ ID: 44, Name: 'Rye', ReleaseDate: '/Date(0)/', Rating: 1, Price: '1' });
      expect(response.status).toBe(201);
      expect((await getJson('Products(44)/Category')).d.ID).toBe(0);
    });

    it('binds links in the body to existing entries', async () => {
      const response = await api()
        .post('/odata/Products')
        .set('content-type', JSON_TYPE)
        .send({ ID: 45, Name: 'Juice', ReleaseDate: '/Date(0)/', Rating: 1, Price: '2', Supplier: { __metadata: { uri: `${demo.url}/odata/Suppliers(1)` } } });
      expect(response.status).toBe(201);
      expect((await getJson('Products(45)/Supplier')).d.ID).toBe(1);
    });

    it('deep-inserts a tree atomically', async () => {
      const response = await api()
        .post('/odata/Categories')
        .set('content-type', JSON_TYPE)
        .send({ ID: 10, Name: 'Snacks', Products: [{ ID: 50, Name: 'Chips', ReleaseDate: '/Date(0)/', Rating: 3, Price: '1.5' }] });
      expect(response.status).toBe(201);
      expect((await getJson('Categories(10)/Products')).d.results.map((p: { ID: number }) => p.ID)).toEqual([50]);

      const before = await snapshot();
      const failing = await api()
        .post('/odata/Categories')
        .set('content-type', JSON_TYPE)
        .send({
          ID: 11,
          Name: 'Broken',
          Products: [
            { ID: 51, Name: 'Fine', ReleaseDate: '/Date(0)/', Rating: 3, Price: '1' },
            { ID: 50, Name: 'Duplicate key', ReleaseDate: '/Date(0)/', Rating: 3, Price: '1' },
          ],
        });
      expect(failing.status).toBe(409);
      expect(await snapshot()).toEqual(before);
    });

    it.each([
      ['malformed JSON', JSON_TYPE, '{"ID": 1,', 400, 'BODY_SYNTAX'],
      ['malformed XML', 'application/atom+xml', '<entry><content>', 400, 'BODY_SYNTAX'],
      ['a DOCTYPE', 'application/atom+xml', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><entry/>', 400, 'BODY_DOCTYPE'],
      ['an unknown property', JSON_TYPE, '{"ID":60,"Colour":"red","ReleaseDate":"/Date(0)/","Rating":1,"Price":"1"}', 400, 'BODY_INVALID'],
      ['a wrong type', JSON_TYPE, '{"ID":"sixty","ReleaseDate":"/Date(0)/","Rating":1,"Price":"1"}', 400, 'VALUE_INVALID'],
      ['null for a non-nullable property', JSON_TYPE, '{"ID":60,"ReleaseDate":null,"Rating":1,"Price":"1"}', 400, 'VALUE_INVALID'],
      ['an existing key', JSON_TYPE, '{"ID":1,"ReleaseDate":"/Date(0)/","Rating":1,"Price":"1"}', 409, 'ENTITY_EXISTS'],
      ['an unsupported media type', 'text/csv', 'ID,Name', 415, 'UNSUPPORTED_MEDIA_TYPE'],
      ['no body', JSON_TYPE, '', 400, 'BODY_MISSING'],
    ])('refuses %s and changes nothing', async (_case, contentType, body, status, code) => {
      const before = await snapshot();
      const response = await api().post('/odata/Products').set('content-type', contentType).set('accept', JSON_TYPE).send(body);
      expect([response.status, response.body.error?.code]).toEqual([status, code]);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('update', () => {
    it('PUT replaces: unlisted properties go back to their defaults', async () => {
      const response = await api()
        .put('/odata/Products(1)')
        .set('content-type', JSON_TYPE)
        .send({ ID: 1, Name: 'Oat milk', ReleaseDate: '/Date(0)/', Rating: 4, Price: '2.75' });
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      const after = (await getJson('Products(1)')).d;
      expect(after).toMatchObject({ Name: 'Oat milk', Description: null, Rating: 4, Price: '2.75' });
      expect((await getJson('Products(1)/Category')).d.ID).toBe(1);
    });

    it('MERGE and PATCH change only what is listed', async () => {
      expect((await api().merge('/odata/Products(2)').set('content-type', JSON_TYPE).send({ Rating: 5 })).status).toBe(204);
      expect((await api().patch('/odata/Products(3)').set('content-type', JSON_TYPE).send({ Price: '0.5' })).status).toBe(204);
      expect((await getJson('Products(2)')).d).toMatchObject({ Name: 'Vint soda', Rating: 5 });
      expect((await getJson('Products(3)')).d).toMatchObject({ Name: 'Havina Cola', Price: '0.5' });
    });

    it('MERGE with only a link updates only the link', async () => {
      const response = await api()
        .merge('/odata/Products(0)')
        .set('content-type', JSON_TYPE)
        .send({ Category: { __metadata: { uri: 'Categories(2)' } } });
      expect(response.status).toBe(204);
      expect((await getJson('Products(0)/Category')).d.ID).toBe(2);
      expect((await getJson('Products(0)')).d.Name).toBe('Bread');
    });

    it('tunnels MERGE through POST with X-HTTP-Method', async () => {
      const response = await api().post('/odata/Products(4)').set('x-http-method', 'MERGE').set('content-type', JSON_TYPE).send({ Rating: 1 });
      expect(response.status).toBe(204);
      expect((await getJson('Products(4)')).d.Rating).toBe(1);
    });

    it.each([
      ['an unknown tunneled method', { 'x-http-method': 'GET' }],
      ['disagreeing tunneling headers', { 'x-http-method': 'PUT', 'x-http-method-override': 'DELETE' }],
    ])('refuses %s with 400', async (_case, headers) => {
      const response = await api().post('/odata/Products(4)').set(headers).set('content-type', JSON_TYPE).send({ Rating: 1 });
      expect(response.status).toBe(400);
      expect(response.text).toContain('TUNNELING_INVALID');
    });

    it('refuses a key in the body that differs from the URL', async () => {
      const before = await snapshot();
      const response = await api()
        .put('/odata/Products(1)')
        .set('content-type', JSON_TYPE)
        .set('accept', JSON_TYPE)
        .send({ ID: 2, ReleaseDate: '/Date(0)/', Rating: 1, Price: '1' });
      expect([response.status, response.body.error.code]).toEqual([400, 'KEY_MISMATCH']);
      expect(await snapshot()).toEqual(before);
    });

    it('answers 404 for a missing entity', async () => {
      const response = await api().merge('/odata/Products(99)').set('content-type', JSON_TYPE).send({ Rating: 1 });
      expect(response.status).toBe(404);
    });
  });

  describe('ETags', () => {
    const supplierBody = {
      ID: 0,
      Name: 'Exotic Liquids Ltd',
      Address: { Street: 'NE 228th', City: 'Sammamish', State: 'WA', ZipCode: '98074', Country: 'USA' },
    };

    it('updates with a matching If-Match and returns the new ETag', async () => {
      const response = await api().put('/odata/Suppliers(0)').set('content-type', JSON_TYPE).set('if-match', 'W/"0"').send(supplierBody);
      expect(response.status).toBe(204);
      expect(response.headers['etag']).toBe('W/"1"');
      expect((await api().get('/odata/Suppliers(0)')).headers['etag']).toBe('W/"1"');
    });

    it.each([
      ['a stale ETag', 'W/"5"', 412, 'PRECONDITION_FAILED'],
      ['a malformed ETag', 'nonsense', 412, 'PRECONDITION_FAILED'],
    ])('refuses %s with 412 and changes nothing', async (_case, ifMatch, status, code) => {
      const before = await snapshot();
      const response = await api()
        .put('/odata/Suppliers(0)')
        .set('content-type', JSON_TYPE)
        .set('accept', JSON_TYPE)
        .set('if-match', ifMatch)
        .send(supplierBody);
      expect([response.status, response.body.error.code]).toEqual([status, code]);
      expect(await snapshot()).toEqual(before);
    });

    it('accepts * for any existing entity', async () => {
      expect((await api().merge('/odata/Suppliers(1)').set('content-type', JSON_TYPE).set('if-match', '*').send({ Name: 'TT' })).status).toBe(204);
    });

    it('requires If-Match on ETag-bearing entities (428), and refuses If-None-Match on writes (400)', async () => {
      const missing = await api().merge('/odata/Suppliers(1)').set('content-type', JSON_TYPE).send({ Name: 'TT' });
      expect(missing.status).toBe(428);
      const both = await api()
        .merge('/odata/Suppliers(1)')
        .set('content-type', JSON_TYPE)
        .set('if-match', 'W/"0"')
        .set('if-none-match', 'W/"0"')
        .send({ Name: 'TT' });
      expect(both.status).toBe(400);
    });

    it('lets exactly one of 50 concurrent PUTs with the same If-Match win', async () => {
      const responses = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          api()
            .put('/odata/Suppliers(0)')
            .set('content-type', JSON_TYPE)
            .set('if-match', 'W/"0"')
            .send({ ...supplierBody, Name: `Writer ${i}` }),
        ),
      );
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 204)).toHaveLength(1);
      expect(statuses.filter((s) => s === 412)).toHaveLength(49);
      const winner = responses.findIndex((r) => r.status === 204);
      const final = (await getJson('Suppliers(0)')).d;
      expect(final.Name).toBe(`Writer ${winner}`);
      expect(final.Concurrency).toBe(1);
    });
  });

  describe('properties and $value', () => {
    it('PUTs a property in XML and in JSON, and a raw $value', async () => {
      const xml = await api()
        .put('/odata/Products(1)/Name')
        .set('content-type', 'application/xml')
        .send('<d:Name xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices">Skim milk</d:Name>');
      expect(xml.status).toBe(204);
      expect((await getJson('Products(1)')).d.Name).toBe('Skim milk');
      const json = await api()
        .put('/odata/Products(1)/Rating')
        .set('content-type', JSON_TYPE)
        .send({ d: { Rating: 1 } });
      expect(json.status).toBe(204);
      const raw = await api().put('/odata/Products(1)/Price/$value').set('content-type', 'text/plain').send('7.5');
      expect(raw.status).toBe(204);
      expect((await getJson('Products(1)')).d).toMatchObject({ Rating: 1, Price: '7.5' });
    });

    it('updates a complex member', async () => {
      const response = await api().put('/odata/Suppliers(1)/Address/City').set('content-type', JSON_TYPE).set('if-match', '*').send({ City: 'Kyoto' });
      expect(response.status).toBe(204);
      expect((await getJson('Suppliers(1)/Address')).d.Address).toMatchObject({ City: 'Kyoto', Street: 'NE 40th' });
    });

    it.each(['MERGE', 'PATCH'])('%s on a primitive property updates it as PUT does (MS-ODATA §2.2.7.3.2), JSON and XML', async (method) => {
      const json = await api()[method === 'MERGE' ? 'merge' : 'patch']('/odata/Products(1)/Name').set('content-type', JSON_TYPE).send({ Name: 'Oat milk' });
      expect(json.status).toBe(204);
      expect((await getJson('Products(1)')).d.Name).toBe('Oat milk');
      const xml = await api()
        [method === 'MERGE' ? 'merge' : 'patch']('/odata/Products(1)/Rating')
        .set('content-type', 'application/xml')
        .send(
          '<d:Rating xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata" m:type="Edm.Int32">5</d:Rating>',
        );
      expect(xml.status).toBe(204);
      expect((await getJson('Products(1)')).d).toMatchObject({ Name: 'Oat milk', Rating: 5 });
    });

    it('MERGE of a complex property changes only the listed members (MS-ODATA §2.2.7.3.3); PUT replaces the value', async () => {
      const merge = await api()
        .merge('/odata/Suppliers(1)/Address')
        .set('content-type', JSON_TYPE)
        .set('if-match', '*')
        .send({ Address: { City: 'Kyoto' } });
      expect(merge.status).toBe(204);
      expect(merge.headers['etag']).toBe('W/"1"');
      expect((await getJson('Suppliers(1)/Address')).d.Address).toEqual({
        __metadata: { type: 'ODataDemo.Address' },
        Street: 'NE 40th',
        City: 'Kyoto',
        State: 'WA',
        ZipCode: '98052',
        Country: 'USA',
      });
      const put = await api()
        .put('/odata/Suppliers(1)/Address')
        .set('content-type', JSON_TYPE)
        .set('if-match', '*')
        .send({ Address: { City: 'Osaka' } });
      expect(put.status).toBe(204);
      expect((await getJson('Suppliers(1)/Address')).d.Address).toMatchObject({ Street: null, City: 'Osaka', Country: null });
    });

    it('tunnels MERGE on a property through POST (X-HTTP-Method), as datajs and the .NET client send it', async () => {
      const response = await api()
        .post('/odata/Products(2)/Description')
        .set('x-http-method', 'MERGE')
        .set('content-type', JSON_TYPE)
        .send({ Description: 'Tunnelled' });
      expect(response.status).toBe(204);
      expect((await getJson('Products(2)')).d.Description).toBe('Tunnelled');
    });

    it('lists MERGE and PATCH in the Allow header of a property 405', async () => {
      const response = await api().delete('/odata/Products(1)/Name').set('accept', JSON_TYPE);
      expect(response.status).toBe(405);
      expect(response.headers['allow']).toBe('GET, PUT, MERGE, PATCH');
      expect(response.body.error.code).toBe('METHOD_NOT_ALLOWED');
    });

    it('PUT on $value takes text/plain with a charset, and refuses another Content-Type with 415 (nothing stored)', async () => {
      const text = await api().put('/odata/Products(1)/Name/$value').set('content-type', 'text/plain; charset=utf-8').send(Buffer.from('Grüße', 'utf8'));
      expect(text.status).toBe(204);
      expect((await getJson('Products(1)')).d.Name).toBe('Grüße');
      for (const contentType of ['application/json', 'application/xml', 'application/x-www-form-urlencoded', 'text/plain; charset=iso-8859-1']) {
        const refused = await api()
          .put('/odata/Products(1)/Name/$value')
          .set('content-type', contentType)
          .set('accept', JSON_TYPE)
          .send(Buffer.from('"Quoted"'));
        expect([contentType, refused.status, refused.body.error.code]).toEqual([contentType, 415, 'UNSUPPORTED_MEDIA_TYPE']);
      }
      expect((await getJson('Products(1)')).d.Name).toBe('Grüße');
    });

    it('DELETE on $value nulls a nullable property and refuses a non-nullable one', async () => {
      expect((await api().delete('/odata/Products(1)/Description/$value')).status).toBe(204);
      expect((await getJson('Products(1)')).d.Description).toBeNull();
      const before = await snapshot();
      expect((await api().delete('/odata/Products(1)/Price/$value')).status).toBe(400);
      expect((await api().delete('/odata/Products(1)/ID/$value')).status).toBe(400);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('delete', () => {
    it('deletes an entry with 204 No Content (MS-ODATA §2.2.7.4.1), no body and no Content-Type', async () => {
      const response = await api().delete('/odata/Products(8)');
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expect(response.headers['content-type']).toBeUndefined();
      expect(response.headers['dataserviceversion']).toBe('1.0;');
      expect((await api().get('/odata/Products(8)')).status).toBe(404);
      expect((await getJson('Categories(2)/Products')).d.results.map((p: { ID: number }) => p.ID)).toEqual([7]);
    });

    it('answers 404 for a missing entry', async () => {
      expect((await api().delete('/odata/Products(99)')).status).toBe(404);
    });

    it('answers 204 to a DELETE tunnelled as POST + X-HTTP-Method (WCF clients with UsePostTunneling)', async () => {
      const response = await api().post('/odata/Products(8)').set('x-http-method', 'DELETE').set('content-length', '0');
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expect((await api().get('/odata/Products(8)')).status).toBe(404);
    });

    it('answers 204 to the DELETE of a $value, as to the DELETE of the entry', async () => {
      const response = await api().delete('/odata/Products(1)/Description/$value');
      expect([response.status, response.text]).toEqual([204, '']);
    });
  });

  describe('a single-valued navigation without a related entity', () => {
    /** What the .NET DataServiceContext sends for LoadProperty(product, "Category"). */
    const NET_CLIENT = {
      accept: 'application/atom+xml,application/xml',
      'accept-charset': 'UTF-8',
      dataserviceversion: '1.0;NetFx',
      maxdataserviceversion: '2.0;NetFx',
    };

    beforeEach(async () => {
      expect((await api().delete('/odata/Products(1)/$links/Category')).status).toBe(204);
    });

    it('answers 204 No Content in Atom (the .NET client sets null), not 404', async () => {
      const response = await api().get('/odata/Products(1)/Category').set(NET_CLIENT);
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expect(response.headers['content-type']).toBeUndefined();
      expect(response.headers['dataserviceversion']).toBe('1.0;');
    });

    it('answers 204 No Content in JSON', async () => {
      const response = await api().get('/odata/Products(1)/Category?$format=json');
      expect([response.status, response.text]).toEqual([204, '']);
      expect((await api().get('/odata/Products(1)/Category').set('accept', JSON_TYPE)).status).toBe(204);
    });

    it('keeps 404 for a missing source entity, and for a related entity that $filter drops', async () => {
      const missing = await api().get('/odata/Products(99)/Category').set('accept', JSON_TYPE);
      expect([missing.status, missing.body.error.code]).toEqual([404, 'ENTITY_NOT_FOUND']);
      expect(missing.body.error.message.value).toBe("No entity with the key (99) exists in 'Products'.");
      const filtered = await api().get('/odata/Products(0)/Category?$filter=ID eq 5').set('accept', JSON_TYPE);
      expect(filtered.status).toBe(404);
      expect((await api().get('/odata/Products(0)/Category?$filter=ID eq 0').set('accept', JSON_TYPE)).status).toBe(200);
    });
  });

  describe('$links', () => {
    it('adds, replaces and removes links', async () => {
      const add = await api()
        .post('/odata/Categories(0)/$links/Products')
        .set('content-type', JSON_TYPE)
        .send({ uri: `${demo.url}/odata/Products(1)` });
      expect(add.status).toBe(204);
      expect((await getJson('Products(1)/Category')).d.ID).toBe(0);

      const replace = await api()
        .put('/odata/Products(1)/$links/Category')
        .set('content-type', 'application/xml')
        .send(`<uri xmlns="http://schemas.microsoft.com/ado/2007/08/dataservices">${demo.url}/odata/Categories(2)</uri>`);
      expect(replace.status).toBe(204);
      expect((await getJson('Products(1)/Category')).d.ID).toBe(2);

      const remove = await api().delete('/odata/Categories(2)/$links/Products(1)');
      expect(remove.status).toBe(204);
      expect((await api().get('/odata/Products(1)/$links/Category')).status).toBe(404);
    });

    it('refuses a link to an entry of the wrong set', async () => {
      const before = await snapshot();
      const response = await api().post('/odata/Categories(0)/$links/Products').set('content-type', JSON_TYPE).send({ uri: 'Suppliers(0)' });
      expect(response.status).toBe(400);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('service operations', () => {
    it('invokes GetProductsByRating with a typed parameter, composing query options', async () => {
      const response = await api().get('/odata/GetProductsByRating?rating=3&$orderby=Price desc&$top=2').set('accept', JSON_TYPE);
      expect(response.status).toBe(200);
      expect(response.body.d.results.map((p: { ID: number }) => p.ID)).toEqual([8, 7]);
      const counted = await api().get('/odata/GetProductsByRating?rating=3&$inlinecount=allpages&$top=1').set('accept', JSON_TYPE);
      expect(counted.body.d.__count).toBe('8');
    });

    it('counts a composed result with $count and expands navigation properties of its entities', async () => {
      const counted = await api().get('/odata/GetProductsByRating/$count?rating=3&$filter=Price gt 20m');
      expect([counted.status, counted.headers['content-type'], counted.text]).toEqual([200, 'text/plain;charset=utf-8', '5']);
      const all = await api().get('/odata/GetProductsByRating/$count?rating=3');
      expect(all.text).toBe('8');
      const expanded = await api().get('/odata/GetProductsByRating?rating=3&$orderby=ID&$top=1&$expand=Category').set('accept', JSON_TYPE);
      expect(expanded.body.d.results.map((p: { ID: number; Category: { Name: string } }) => [p.ID, p.Category.Name])).toEqual([[1, 'Beverages']]);
    });

    it('refuses a missing or malformed parameter with 400 and the wrong method with 405', async () => {
      expect((await api().get('/odata/GetProductsByRating')).status).toBe(400);
      expect((await api().get("/odata/GetProductsByRating?rating='x'")).status).toBe(400);
      const post = await api().post('/odata/GetProductsByRating?rating=3');
      expect(post.status).toBe(405);
      expect(post.headers['allow']).toBe('GET');
    });
  });
});
