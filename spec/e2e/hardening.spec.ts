/**
 * Issue 11, end to end on a real port: the exact requests that poisoned the store or reached the
 * client as something other than an OData answer. Each case names its item.
 */
import express from 'express';
import http from 'http';
import request from 'supertest';
import { readFileSync } from 'fs';
import { join } from 'path';
import { loadEdmx, MemoryProvider, ODataError, odata } from '../../lib';
import type { DataProvider, Entity } from '../../lib';
import { startServer, type RunningServer } from '../helpers/server';
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
    const response = await api()
      .post('/odata/Products')
      .set('content-type', JSON_TYPE)
      .set('accept', JSON_TYPE)
      .send(product(60, { ReleaseDate: '/Date(253402300800000)/' }));
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALUE_INVALID');
    expect(response.body.error.message.value).toMatch(
      /^Invalid value for property 'ReleaseDate' of type Edm\.DateTime: '\/Date\(253402300800000\)\/' is not a valid Edm\.DateTime/,
    );
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
    const response = await api()
      .post('/odata/Products')
      .set('content-type', JSON_TYPE)
      .set('accept', JSON_TYPE)
      .send('{"ID":63,"Name":"\\ud800","ReleaseDate":"/Date(0)/","Rating":1,"Price":"1"}');
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
    const response = await request(server.url).get('/odata/Products?$orderby=Name desc&$format=json');
    expect(response.status).toBe(200);
    expect(response.body.d.results[0].Name).toBe('\ud800 Milk');
    expect(response.body.d.__next).toBe(`${server.url}/odata/Products?$orderby=Name%20desc&$format=json&$skiptoken='%EF%BF%BD%20Milk',1`);
  });
});

describe('provider values are checked before they are written (item 6)', () => {
  let server: RunningServer;
  let patch: Record<string, unknown> = {};
  let count: unknown;
  const logged: string[] = [];
  beforeAll(async () => {
    const inner = new MemoryProvider(DEMO_MODEL, demoData(), { links: DEMO_LINKS });
    // A careless provider: every entity it returns gets `patch`, and every count is `count`.
    const provider: DataProvider = {
      query: async (queryRequest, context) => {
        const result = await inner.query(queryRequest, context);
        const entities = (result.entities as Entity[]).map((entity) => ({ ...entity, ...patch }) as Entity);
        return count === undefined ? { ...result, entities } : { entities, count: count as number };
      },
      count: async () => (count === undefined ? 9 : (count as number)),
    };
    const app = express();
    app.use('/odata', odata({ model: DEMO_MODEL, provider, logger: (event) => logged.push(`${event.status} ${event.message}`) }));
    server = await startServer(app);
  });
  afterAll(() => server.close());
  beforeEach(() => {
    patch = {};
    count = undefined;
    logged.length = 0;
  });

  it.each([
    [
      'NaN for an Int32 property',
      { Rating: Number.NaN },
      'Products(1)?$format=json',
      'A Edm.Int32 value must be an integer from -2147483648 to 2147483647; got number NaN.',
    ],
    [
      'NaN for an Int32 property, in Atom',
      { Rating: Number.NaN },
      'Products(1)',
      'A Edm.Int32 value must be an integer from -2147483648 to 2147483647; got number NaN.',
    ],
    [
      '-Infinity for the key (no Products(-Infinity) link)',
      { ID: Number.NEGATIVE_INFINITY },
      'Products?$format=json',
      'A Edm.Int32 value must be an integer from -2147483648 to 2147483647; got number -Infinity.',
    ],
    [
      'a Decimal string that would break out of its JSON string',
      { Price: '1","Rating":5,"x":"' },
      'Products?$format=json',
      `A Edm.Decimal value must be a decimal string such as -12.50; got the string '1","Rating":5,"x":"'.`,
    ],
    [
      'Infinity for a Decimal property',
      { Price: Number.POSITIVE_INFINITY },
      'Products(1)',
      'A Edm.Decimal value must be a decimal string; got number Infinity.',
    ],
  ])('%s: a logged provider error and a clean 500, never a malformed 200', async (_case, values, path, message) => {
    patch = values;
    const response = await request(server.url).get(`/odata/${path}`);
    expect(response.status).toBe(500);
    expect(response.text).toMatch(/INTERNAL.*An internal error occurred\./s);
    expect(response.text).not.toContain('NaN');
    expect(logged).toEqual([`500 ${message}`]);
  });

  it.each([
    ['a string count in $inlinecount', 'Products?$inlinecount=allpages&$format=json', '12'],
    ['NaN from count() for $count', 'Products/$count', Number.NaN],
    ['a fraction from count() for $count', 'Products/$count', 2.5],
  ])('%s: 500, never "__count":"…" or a bare NaN', async (_case, path, value) => {
    count = value;
    const response = await request(server.url).get(`/odata/${path}`);
    expect(response.status).toBe(500);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^500 The provider returned .* as a count; a count is a non-negative integer\.$/);
  });
});

/** A raw request with exactly the headers given (supertest would fill in Host). */
function rawRequest(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const call = http.request({ host: target.hostname, port: target.port, method, path, headers, agent: false, setHost: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
      response.on('error', reject);
    });
    call.on('error', reject);
    call.end(body);
  });
}

describe('a Host header that cannot form the service root (item 7)', () => {
  let demo: RunningServer;
  beforeAll(async () => {
    demo = await startDemo();
  });
  afterAll(() => demo.close());

  it.each([
    ["POST $links (the issue's case)", 'a b', 'POST', '/odata/Products(1)/$links/Category'],
    ['GET of a feed', 'a b', 'GET', '/odata/Products'],
    ['a slash in the host', 'evil.example/x', 'GET', '/odata/Products'],
    ['an empty Host', '', 'GET', '/odata/Products'],
    ['a bad port', 'localhost:80a', 'GET', '/odata/Products'],
  ])('%s, Host %j: 400 URI_HOST_INVALID, before any work', async (_case, host, method, path) => {
    const body = method === 'POST' ? '{"uri":"Categories(0)"}' : undefined;
    const headers: Record<string, string> = { host, accept: JSON_TYPE, ...(body === undefined ? {} : { 'content-type': JSON_TYPE }) };
    const response = await rawRequest(demo.url, method, path, headers, body);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text).error.code).toBe('URI_HOST_INVALID');
  });

  it.each(['127.0.0.1', 'localhost:4004', '[::1]:8080', 'my-host.example.com'])('serves Host %j', async (host) => {
    const response = await rawRequest(demo.url, 'GET', '/odata/Categories(0)?$format=json', { host });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text).d.__metadata.uri).toBe(`http://${host}/odata/Categories(0)`);
  });
});

describe('nothing reaches the client but an OData answer (item 5)', () => {
  let server: RunningServer;
  let hostErrors: unknown[];
  const logged: string[] = [];
  let behaviour: 'header-error' | 'etag-line-break' | 'etag-quote' | 'stream-fails-first' | 'stream-fails-late' = 'header-error';
  beforeAll(async () => {
    const inner = new MemoryProvider(DEMO_MODEL, demoData(), { links: DEMO_LINKS });
    const provider: DataProvider = {
      query: async (queryRequest, context) => {
        if (behaviour === 'header-error') {
          throw ODataError.fromCode('FORBIDDEN', { detail: 'No.' }, { headers: { 'www-authenticate': 'Bearer\r\nX-Injected: 1' } });
        }
        if (behaviour === 'stream-fails-first' || behaviour === 'stream-fails-late') {
          const failAfter = behaviour === 'stream-fails-first' ? 0 : 5000;
          async function* entities(): AsyncIterable<Entity> {
            for (let i = 0; ; i++) {
              if (i === failAfter) throw new Error('the cursor broke at /secret/path.js');
              yield { ID: i, Name: `P${i}`, Description: 'x'.repeat(100), ReleaseDate: new Date(0), DiscontinuedDate: null, Rating: 1, Price: '1' };
            }
          }
          return { entities: entities() };
        }
        return inner.query(queryRequest, context);
      },
      etag: (entity, type) => {
        if (type.name !== 'Supplier') return undefined;
        return behaviour === 'etag-line-break'
          ? `${String(entity.Concurrency)}\r\nSet-Cookie: x=1`
          : behaviour === 'etag-quote'
            ? 'a"b'
            : String(entity.Concurrency);
      },
    };
    const app = express();
    app.use('/odata', odata({ model: DEMO_MODEL, provider, logger: (event) => logged.push(`${event.level} ${event.status} ${event.message}`) }));
    // The host's own error handler must never see a failure of the service.
    app.use((error: unknown, _request: unknown, response: express.Response, _next: unknown) => {
      hostErrors.push(error);
      response.status(599).send('host error handler');
    });
    server = await startServer(app);
  });
  afterAll(() => server.close());
  beforeEach(() => {
    hostErrors = [];
    logged.length = 0;
  });

  it.each([
    ['a line break in an ODataError header', 'header-error', 'Products?$format=json', 'application/json'],
    ['a line break in the ETag from etag()', 'etag-line-break', 'Suppliers(0)?$format=json', 'application/json'],
    ['a quote in the ETag from etag(), in Atom', 'etag-quote', 'Suppliers(0)', 'application/xml'],
    ['a streamed feed whose provider fails before the first entity', 'stream-fails-first', 'Products?$format=json', 'application/json'],
  ] as const)('%s: an OData 500 without internals, the host handler untouched, the failure logged', async (_case, mode, path, contentType) => {
    behaviour = mode;
    const response = await rawRequest(server.url, 'GET', `/odata/${path}`, { host: 'localhost' });
    expect(response.status).toBe(500);
    expect(response.headers['content-type']).toBe(`${contentType};charset=utf-8`);
    expect(response.headers['x-injected']).toBeUndefined();
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(response.text).toContain('An internal error occurred.');
    expect(response.text).not.toMatch(/at |\/secret|node_modules|Bearer/);
    expect(hostErrors).toEqual([]);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^error 500 /);
  });

  it('closes the connection of a streamed feed that fails after its headers were sent, and logs it', async () => {
    behaviour = 'stream-fails-late';
    const outcome = await new Promise<{ status: number | undefined; error: string | undefined; bytes: number }>((resolve) => {
      const target = new URL(server.url);
      let bytes = 0;
      const call = http.get({ host: target.hostname, port: target.port, path: '/odata/Products?$format=json', agent: false }, (response) => {
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('error', (error) => resolve({ status: response.statusCode, error: error.message, bytes }));
        response.on('end', () => resolve({ status: response.statusCode, error: undefined, bytes }));
      });
      call.on('error', (error) => resolve({ status: undefined, error: error.message, bytes }));
    });
    expect(outcome.status).toBe(200);
    expect(outcome.error).toBe('aborted');
    expect(outcome.bytes).toBeGreaterThan(100_000);
    expect(hostErrors).toEqual([]);
    expect(logged).toEqual(['error 200 The response was cut off after its headers were sent: the cursor broke at /secret/path.js']);
  });
});

describe('an explicit null for a to-one navigation property in an update unlinks (item 4)', () => {
  let demo: RunningServer;
  beforeEach(async () => {
    demo = await startDemo();
  });
  afterEach(() => demo.close());
  const supplierOf = async (id: number) => (await request(demo.url).get(`/odata/Products(${id})?$expand=Supplier&$format=json`)).body.d.Supplier;

  it('MERGE Products(1) with {"Supplier": null}: 204 and the link is gone (docs/request-bodies.md: null is an explicit none)', async () => {
    expect((await supplierOf(1)).ID).toBe(0);
    const response = await request(demo.url).post('/odata/Products(1)').set('x-http-method', 'MERGE').set('content-type', JSON_TYPE).send('{"Supplier":null}');
    expect(response.status).toBe(204);
    expect(await supplierOf(1)).toBeNull();
    // Other links and properties are untouched.
    const product = (await request(demo.url).get('/odata/Products(1)?$expand=Category&$format=json')).body.d;
    expect([product.Name, product.Category.ID]).toEqual(['Milk', 1]);
  });

  it('PUT with an empty m:inline (Atom) unlinks too', async () => {
    const body =
      '<entry xmlns="http://www.w3.org/2005/Atom" xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata">' +
      '<link rel="http://schemas.microsoft.com/ado/2007/08/dataservices/related/Supplier" type="application/atom+xml;type=entry" title="Supplier" href="Products(2)/Supplier"><m:inline/></link>' +
      '<content type="application/xml"><m:properties><d:Name>Soda</d:Name><d:ReleaseDate m:type="Edm.DateTime">2000-10-01T00:00:00</d:ReleaseDate><d:Rating m:type="Edm.Int32">3</d:Rating><d:Price m:type="Edm.Decimal">20.9</d:Price></m:properties></content></entry>';
    const response = await request(demo.url).put('/odata/Products(2)').set('content-type', 'application/atom+xml').send(body);
    expect(response.status).toBe(204);
    expect(await supplierOf(2)).toBeNull();
  });
});

describe('an explicit null for a required to-one navigation property (item 4)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    const model = loadEdmx(readFileSync(join(__dirname, '..', 'fixtures', 'e2e', 'gallery.xml'), 'utf8'));
    const provider = new MemoryProvider(model, { Albums: [], Photos: [], Owners: [{ ID: 1 }], Notes: [{ ID: 1, Text: 'first', Owner: 1 }] });
    const app = express();
    app.use('/odata', odata({ model, provider }));
    server = await startServer(app);
  });
  afterAll(() => server.close());

  it('is a 400 naming the property (multiplicity 1), and the link stays', async () => {
    const response = await request(server.url)
      .post('/odata/Notes(1)')
      .set('x-http-method', 'MERGE')
      .set('content-type', JSON_TYPE)
      .set('accept', JSON_TYPE)
      .send('{"Owner":null}');
    expect([response.status, response.body.error.code]).toEqual([400, 'BODY_INVALID']);
    expect(response.body.error.message.value).toBe(
      "The request body is invalid: the navigation property 'Owner' is required (multiplicity 1): it cannot be set to null; link another entry instead.",
    );
    expect((await request(server.url).get('/odata/Notes(1)?$expand=Owner&$format=json')).body.d.Owner.ID).toBe(1);
  });
});

describe('very expensive bodies within maxBodyBytes are refused by structure (item 11)', () => {
  let demo: RunningServer;
  beforeAll(async () => {
    demo = await startDemo();
  });
  afterAll(() => demo.close());

  it('a 9.9 MB JSON object with 800,000 keys: 400 as soon as the 11th member is seen', async () => {
    const keys: string[] = [];
    for (let i = 0; i < 800_000; i++) keys.push(`"k${i}":1`);
    const body = `{${keys.join(',')}}`;
    expect(body.length).toBeGreaterThan(9_000_000);
    const response = await request(demo.url).post('/odata/Products').set('content-type', JSON_TYPE).set('accept', JSON_TYPE).send(body);
    expect([response.status, response.body.error.code]).toEqual([400, 'BODY_INVALID']);
    expect(response.body.error.message.value).toContain('a JSON object has more than 10 members');
  });

  it('an Atom entry with 420,000 attributes: 400 at the 65th', async () => {
    const attributes = Array.from({ length: 420_000 }, (_, i) => ` a${i}="x"`).join('');
    const body = `<entry xmlns="http://www.w3.org/2005/Atom"${attributes}/>`;
    const response = await request(demo.url).post('/odata/Products').set('content-type', 'application/atom+xml').send(body);
    expect(response.status).toBe(400);
    expect(response.text).toContain('an XML element has more than 64 attributes');
  });
});
