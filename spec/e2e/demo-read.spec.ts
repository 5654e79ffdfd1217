/**
 * The read path end to end: the demo app on a real port, on Express 4 and 5, through HTTP.
 */
import request from 'supertest';
import { EXPRESS_VERSIONS, startDemo } from '../helpers/demo';
import type { RunningServer } from '../helpers/server';

describe.each(EXPRESS_VERSIONS)('demo service reads on %s', (_name, expressModule) => {
  let demo: RunningServer;
  beforeAll(async () => {
    demo = await startDemo(expressModule);
  });
  afterAll(() => demo.close());
  const get = (path: string) => request(demo.url).get(`/odata/${path}`);

  it('serves the service document in Atom by default', async () => {
    const response = await get('');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/atomsvc+xml;charset=utf-8');
    expect(response.headers['dataserviceversion']).toBe('1.0;');
    expect(response.text).toContain(`xml:base="${demo.url}/odata/"`);
    expect(response.text).toContain('<collection href="Products"><atom:title>Products</atom:title></collection>');
  });

  it('serves the service document in JSON', async () => {
    const response = await get('?$format=json');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json;charset=utf-8');
    expect(response.body).toEqual({ d: { EntitySets: ['Products', 'Categories', 'Suppliers'] } });
  });

  it('serves $metadata as the EDMX document with a version and an ETag', async () => {
    const response = await get('$metadata');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml;charset=utf-8');
    expect(response.headers['dataserviceversion']).toBe('2.0;');
    expect(response.text).toContain('<EntityType Name="Product">');
    expect(response.text).toContain('m:FC_TargetPath="SyndicationTitle"');
    const again = await get('$metadata').set('if-none-match', response.headers['etag']);
    expect(again.status).toBe(304);
  });

  it('serves an entity set as an Atom feed', async () => {
    const response = await get('Products');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/atom+xml;charset=utf-8');
    expect(response.text.match(/<entry/g)).toHaveLength(9);
    expect(response.text).toContain(`<id>${demo.url}/odata/Products(0)</id>`);
    expect(response.text).toContain('<title type="text">Bread</title>');
    expect(response.text).not.toContain('<d:Name>Bread</d:Name>');
    expect(response.text).not.toContain('CategoryID');
  });

  it('serves an entry in verbose JSON with __metadata and deferred links', async () => {
    const response = await get('Products(1)?$format=json');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json;charset=utf-8');
    expect(response.headers['dataserviceversion']).toBe('1.0;');
    expect(response.body).toEqual({
      d: {
        __metadata: { uri: `${demo.url}/odata/Products(1)`, type: 'ODataDemo.Product' },
        ID: 1,
        Name: 'Milk',
        Description: 'Low fat milk',
        ReleaseDate: '/Date(812505600000)/',
        DiscontinuedDate: null,
        Rating: 3,
        Price: '3.5',
        Category: { __deferred: { uri: `${demo.url}/odata/Products(1)/Category` } },
        Supplier: { __deferred: { uri: `${demo.url}/odata/Products(1)/Supplier` } },
      },
    });
    expect(response.text).toContain('"ReleaseDate":"\\/Date(812505600000)\\/"');
  });

  it('accepts the named key form SAP Cloud SDK sends', async () => {
    const response = await get('Products(ID=1)?$format=json');
    expect(response.status).toBe(200);
    expect(response.body.d.ID).toBe(1);
  });

  it('sends the supplier ETag and answers If-None-Match with 304', async () => {
    const response = await get('Suppliers(0)');
    expect(response.status).toBe(200);
    expect(response.headers['etag']).toBe('W/"0"');
    expect(response.text).toContain('m:etag="W/&quot;0&quot;"');
    const json = await get('Suppliers(0)?$format=json');
    expect(json.body.d.__metadata.etag).toBe('W/"0"');
    const notModified = await get('Suppliers(0)').set('if-none-match', 'W/"0"');
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe('');
    const modified = await get('Suppliers(0)').set('if-none-match', 'W/"7"');
    expect(modified.status).toBe(200);
  });

  it('answers an unknown segment with 404 and an OData error body', async () => {
    const response = await get('Nope');
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toBe('application/xml;charset=utf-8');
    expect(response.text).toContain('<m:code>URI_UNKNOWN_SEGMENT</m:code>');
    expect(response.text).toContain('<m:message xml:lang="en-US">');
    const json = await get('Nope?$format=json');
    expect(json.status).toBe(404);
    expect(json.body.error.code).toBe('URI_UNKNOWN_SEGMENT');
    expect(json.body.error.message.lang).toBe('en-US');
  });

  it.each<[string, string, string | undefined, string]>([
    ['Accept: application/json', 'Nope', 'application/json', 'application/json;charset=utf-8'],
    ['JSON at a lower quality than XML', 'Nope', 'application/json;q=0.5, application/xml', 'application/xml;charset=utf-8'],
    ['$format=atom over a JSON Accept', 'Nope?$format=atom', 'application/json', 'application/xml;charset=utf-8'],
    ['an escaped $format=application/json', 'Nope?%24format=application%2Fjson', undefined, 'application/json;charset=utf-8'],
    ['an unknown $format, passed over for Accept', 'Nope?$format=csv', 'application/json', 'application/json;charset=utf-8'],
  ])('writes an error that comes before negotiation in the format negotiation would choose: %s', async (_name, path, accept, contentType) => {
    const request = get(path);
    const response = await (accept === undefined ? request : request.set('accept', accept));
    expect([response.status, response.headers['content-type']]).toEqual([404, contentType]);
  });

  it('answers a missing key with 404 and a malformed key with 400', async () => {
    expect((await get('Products(99)')).status).toBe(404);
    const bad = await get("Products('x')?$format=json");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('URI_KEY_SYNTAX');
  });

  it('navigates to one and to many', async () => {
    const category = await get('Products(1)/Category?$format=json');
    expect(category.status).toBe(200);
    expect(category.body.d.Name).toBe('Beverages');
    const products = await get('Categories(2)/Products?$format=json');
    expect(products.status).toBe(200);
    expect(products.body.d.results.map((p: { ID: number }) => p.ID)).toEqual([7, 8]);
    const hops = await get('Categories(2)/Products(8)/Supplier?$format=json');
    expect(hops.body.d.Name).toBe('Tokyo Traders');
  });

  it('serves properties, complex properties and raw values', async () => {
    const name = await get('Products(1)/Name');
    expect(name.status).toBe(200);
    expect(name.headers['content-type']).toBe('application/xml;charset=utf-8');
    expect(name.text).toContain('>Milk</d:Name>');
    const json = await get('Products(1)/Name?$format=json');
    expect(json.body).toEqual({ d: { Name: 'Milk' } });
    const city = await get('Suppliers(1)/Address/City?$format=json');
    expect(city.body).toEqual({ d: { City: 'Redmond' } });
    const address = await get('Suppliers(1)/Address?$format=json');
    expect(address.body.d.Address.City).toBe('Redmond');
    const value = await get('Products(1)/Name/$value');
    expect(value.status).toBe(200);
    expect(value.headers['content-type']).toBe('text/plain;charset=utf-8');
    expect(value.text).toBe('Milk');
    const price = await get('Products(8)/Price/$value');
    expect(price.text).toBe('1088.8');
  });

  it('counts collections as text', async () => {
    const response = await get('Products/$count');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain;charset=utf-8');
    expect(response.headers['dataserviceversion']).toBe('2.0;');
    expect(response.text).toBe('9');
    expect((await get('Categories(1)/Products/$count')).text).toBe('6');
  });

  it('serves $links in XML and JSON', async () => {
    const many = await get('Categories(2)/$links/Products');
    expect(many.status).toBe(200);
    expect(many.text).toContain(`<uri>${demo.url}/odata/Products(7)</uri>`);
    const single = await get('Products(1)/$links/Category?$format=json');
    expect(single.body).toEqual({ d: { uri: `${demo.url}/odata/Categories(1)` } });
  });

  it('refuses what it cannot produce with 406', async () => {
    const response = await get('Products').set('accept', 'image/png');
    expect(response.status).toBe(406);
    expect(response.text).toContain('<m:code>NOT_ACCEPTABLE</m:code>');
  });

  it('refuses unsupported methods with 405 and an Allow header', async () => {
    const response = await request(demo.url).post('/odata/$metadata').send('x');
    expect(response.status).toBe(405);
    expect(response.headers['allow']).toBe('GET');
  });

  it('checks DataServiceVersion and MaxDataServiceVersion', async () => {
    const tooNew = await get('Products').set('DataServiceVersion', '3.0');
    expect(tooNew.status).toBe(400);
    expect(tooNew.text).toContain('VERSION_TOO_HIGH');
    const tooLow = await get('Products/$count').set('MaxDataServiceVersion', '1.0');
    expect(tooLow.status).toBe(400);
    expect(tooLow.text).toContain('VERSION_TOO_LOW');
  });
});
