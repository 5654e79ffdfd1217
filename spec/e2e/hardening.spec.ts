/**
 * Issue 11, end to end on a real port: the exact requests that poisoned the store or reached the
 * client as something other than an OData answer. Each case names its item.
 */
import express from 'express';
import request from 'supertest';
import { readFileSync } from 'fs';
import { join } from 'path';
import { loadEdmx, MemoryProvider, odata } from '../../lib';
import { startServer, RunningServer } from '../helpers/server';
import { DEMO_LINKS, DEMO_MODEL, demoData, startDemo } from '../helpers/demo';

const JSON_TYPE = 'application/json';

describe('data that poisons the store (items 1 and 2)', () => {
  let demo: RunningServer;
  beforeEach(async () => {
    demo = await startDemo(undefined, { maxPageSize: 1 });
  });
  afterEach(() => demo.close());
  const api = () => request(demo.url);
  const product = (id: number, extra: Record<string, unknown>) => ({ ID: id, Name: 'x', ReleaseDate: '/Date(0)/', Rating: 1, Price: '1', ...extra });

  it('refuses "ReleaseDate":"/Date(253402300800000)/" (year 10000) with 400 naming the property; nothing is stored and Atom feeds still answer', async () => {
    const response = await api().post('/odata/Products').set('content-type', JSON_TYPE).set('accept', JSON_TYPE).send(product(60, { ReleaseDate: '/Date(253402300800000)/' }));
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALUE_INVALID');
    expect(response.body.error.message.value).toMatch(/^Invalid value for property 'ReleaseDate' of type Edm\.DateTime: '\/Date\(253402300800000\)\/' is not a valid Edm\.DateTime/);
    expect((await api().get('/odata/Products(60)')).status).toBe(404);
    expect((await api().get('/odata/Products')).status).toBe(200);
  });

  it.each([
    ['JSON, ISO form moved past 9999 by its offset', 'post', 'Products', JSON_TYPE, JSON.stringify(product(61, { ReleaseDate: '9999-12-31T23:59:59-01:00' }))],
    [
      'Atom',
      'post',
      'Products',
      'application/atom+xml',
      '<entry xmlns="http://www.w3.org/2005/Atom" xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"><content type="application/xml"><m:properties><d:ID m:type="Edm.Int32">62</d:ID><d:ReleaseDate m:type="Edm.DateTime">0001-01-01T00:00:00+00:30</d:ReleaseDate><d:Rating m:type="Edm.Int32">1</d:Rating><d:Price m:type="Edm.Decimal">1</d:Price></m:properties></content></entry>',
    ],
    ['a $value body', 'put', 'Products(1)/ReleaseDate/$value', 'text/plain', '9999-12-31T23:30:00-00:45'],
  ])('refuses an Edm.DateTime outside years 0001..9999 from %s with 400 VALUE_INVALID naming ReleaseDate', async (_case, method, path, contentType, body) => {
    const before = (await api().get('/odata/Products(1)?$format=json')).body.d.ReleaseDate;
    const call = method === 'post' ? api().post(`/odata/${path}`) : api().put(`/odata/${path}`);
    const response = await call.set('content-type', contentType).set('accept', JSON_TYPE).send(body);
    expect([response.status, response.body.error.code]).toEqual([400, 'VALUE_INVALID']);
    expect(response.body.error.message.value).toContain("property 'ReleaseDate' of type Edm.DateTime");
    expect((await api().get('/odata/Products(1)?$format=json')).body.d.ReleaseDate).toBe(before);
  });

  it('refuses a URI literal outside years 0001..9999 in $filter with 400', async () => {
    const response = await api().get("/odata/Products?$filter=ReleaseDate lt datetime'0001-01-01T00:00:00%2B01:00'&$format=json");
    expect([response.status, response.body.error.code]).toEqual([400, 'FILTER_SYNTAX']);
    expect(response.body.error.message.value).toContain('in the years 0001 to 9999 (UTC)');
  });

  it('refuses {"Name":"\\ud800"} with 400; nothing is stored', async () => {
    const response = await api().post('/odata/Products').set('content-type', JSON_TYPE).set('accept', JSON_TYPE).send('{"ID":63,"Name":"\\ud800","ReleaseDate":"/Date(0)/","Rating":1,"Price":"1"}');
    expect([response.status, response.body.error.code]).toEqual([400, 'BODY_INVALID']);
    expect(response.body.error.message.value).toContain('U+D800');
    expect((await api().get('/odata/Products(63)')).status).toBe(404);
  });

  it('refuses a MERGE that would store a lone surrogate, so a paged $orderby=Name desc keeps answering', async () => {
    const merge = await api().post('/odata/Products(1)').set('x-http-method', 'MERGE').set('content-type', JSON_TYPE).send('{"Name":"\\udfff"}');
    expect(merge.status).toBe(400);
    const page = await api().get('/odata/Products?$orderby=Name desc&$format=json');
    expect(page.status).toBe(200);
    expect(page.body.d.__next).toContain('$skiptoken=');
  });
});

describe('service-operation parameters outside the writable range (item 1)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    const model = loadEdmx(readFileSync(join(__dirname, '..', 'fixtures', 'e2e', 'operations.xml'), 'utf8'));
    const provider = new MemoryProvider(model, { Items: [] }, { operations: { Days: async ({ parameters }) => [parameters.from] } });
    const app = express();
    app.use('/odata', odata({ model, provider }));
    server = await startServer(app);
  });
  afterAll(() => server.close());

  it.each([
    ["datetime'9999-12-31T23:59:59.999'", 200],
    ["datetime'9999-12-31T23:59:59-01:00'", 400],
    ["datetime'0001-01-01T00:00:00%2B00:01'", 400],
  ])('Days?from=%s answers %i', async (literal, status) => {
    const response = await request(server.url).get(`/odata/Days?from=${literal}`);
    expect(response.status).toBe(status);
    if (status === 400) expect(response.text).toContain('<m:code>QUERY_INVALID_VALUE</m:code>');
  });
});

describe('link and skiptoken building is total (item 2)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    // Only a provider's own data can hold an unpaired surrogate now: the readers refuse it.
    const data = demoData();
    (data.Products as { Name: string }[])[1].Name = '\ud800 Milk';
    const app = express();
    app.use('/odata', odata({ model: DEMO_MODEL, provider: new MemoryProvider(DEMO_MODEL, data, { links: DEMO_LINKS }), maxPageSize: 1 }));
    server = await startServer(app);
  });
  afterAll(() => server.close());

  it('writes the next link of a page that ends at such a value with U+FFFD instead of answering 500', async () => {
    const response = await request(server.url).get("/odata/Products?$orderby=Name desc&$format=json");
    expect(response.status).toBe(200);
    expect(response.body.d.results[0].Name).toBe('\ud800 Milk');
    expect(response.body.d.__next).toBe(`${server.url}/odata/Products?$orderby=Name%20desc&$format=json&$skiptoken='%EF%BF%BD%20Milk',1`);
  });
});
