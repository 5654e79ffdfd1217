/**
 * examples/existing-app end to end: an Express app with its own routes, logger and Bearer auth,
 * serving OData at /api/odata through a custom DataProvider over its own store. Per-user
 * authorisation holds for single requests and for every part of a $batch; writes honour If-Match.
 */
import { type IncomingHttpHeaders, request as httpRequest } from 'http';
import request from 'supertest';
import { gunzipSync } from 'zlib';
import { EXPRESS_VERSIONS } from '../helpers/demo';
import { startServer, type RunningServer } from '../helpers/server';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createApp } = require('../../examples/existing-app/app') as {
  createApp(options: {
    express?: unknown;
    log?: (line: string) => void;
    service?: Record<string, unknown>;
    corsOrigins?: string[];
  }): Parameters<typeof startServer>[0];
};

/** The UI origin the spec's app allows (option corsOrigins). */
const UI_ORIGIN = 'https://ui.example.com';

/** One request over a raw Node client, without decompressing: status, headers and the body bytes. */
function rawRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

const ALICE = 'Bearer alice-token'; // roles sales, finance
const BOB = 'Bearer bob-token'; // role sales only
const JSON_TYPE = 'application/json';

/** The entities of a verbose JSON feed, in either version's shape. */
function feed(value: unknown): { ID: number }[] {
  return (Array.isArray(value) ? value : (value as { results: { ID: number }[] }).results) as { ID: number }[];
}

/** The status line of every embedded response of a $batch answer, in order. */
function batchStatuses(text: string): number[] {
  return [...text.matchAll(/^HTTP\/1\.1 (\d{3}) /gm)].map((match) => Number(match[1]));
}

/** A $batch body (CRLF line ends) from parts; a part is a request text or an array of them (a changeset). */
function batchBody(parts: (string | string[])[]): string {
  const lines: string[] = [];
  parts.forEach((part, index) => {
    lines.push('--batch_1');
    if (typeof part === 'string') {
      lines.push('Content-Type: application/http', 'Content-Transfer-Encoding: binary', '', part);
      return;
    }
    lines.push(`Content-Type: multipart/mixed; boundary=changeset_${index}`, '');
    part.forEach((operation, id) => {
      lines.push(`--changeset_${index}`, 'Content-Type: application/http', 'Content-Transfer-Encoding: binary', `Content-ID: ${id + 1}`, '', operation);
    });
    lines.push(`--changeset_${index}--`);
  });
  lines.push('--batch_1--', '');
  return lines.join('\r\n');
}

function get(path: string): string {
  return `GET ${path} HTTP/1.1\r\nAccept: application/json\r\n`;
}

function post(path: string, body: unknown): string {
  const text = JSON.stringify(body);
  return `POST ${path} HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
}

describe.each(EXPRESS_VERSIONS)('examples/existing-app on %s', (_name, expressModule) => {
  let app: RunningServer;
  let logLines: string[];
  const start = async (service: Record<string, unknown> = {}) => {
    logLines = [];
    app = await startServer(createApp({ express: expressModule, log: (line) => logLines.push(line), service, corsOrigins: [UI_ORIGIN] }));
  };
  beforeEach(() => start());
  afterEach(() => app.close());

  const api = () => request(app.url);
  const odata = (path: string, user = ALICE) => api().get(`/api/odata/${path}`).set('authorization', user).set('accept', JSON_TYPE);
  /** IDs of a JSON feed: `{"d": [...]}` in a 1.0 response, `{"d": {"results": [...]}}` in a 2.0 one. */
  /** POST $batch as `user`; the multipart answer is read as text. */
  const sendBatch = async (user: string, body: string) => {
    const response = await api()
      .post('/api/odata/$batch')
      .set('authorization', user)
      .set('content-type', 'multipart/mixed; boundary=batch_1')
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => done(null, text));
      })
      .send(body);
    return { status: response.status, text: response.body as string };
  };
  const ids = (body: { d: unknown }) => feed(body.d).map((entity) => entity.ID);

  describe("the app's own routes", () => {
    it('still serve /health and the HTML home page without authentication', async () => {
      const health = await api().get('/health');
      expect(health.status).toBe(200);
      expect(health.body).toEqual({ status: 'ok' });
      const home = await api().get('/');
      expect(home.status).toBe(200);
      expect(home.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(home.text).toContain('<a href="/api/odata/">');
    });

    it('keep their own JSON routes behind the same authentication', async () => {
      expect((await api().get('/api/me')).status).toBe(401);
      const me = await api().get('/api/me').set('authorization', BOB);
      expect(me.body).toEqual({ name: 'bob', roles: ['sales'] });
      const summary = await api().get('/api/customers/1/summary').set('authorization', BOB);
      expect(summary.body).toEqual({ name: 'Alfreds Futterkiste', orders: 2 });
    });

    it('log every request, OData ones included, through the app logger', async () => {
      await api().get('/health');
      await odata('Customers/$count');
      await api().get('/api/odata/');
      expect(logLines.map((line) => line.replace(/ [\d.]+ms$/, ''))).toEqual(['GET /health 200', 'GET /api/odata/Customers/$count 200', 'GET /api/odata/ 401']);
    });
  });

  describe("the host's express.json() and odataErrorHandler()", () => {
    it('answers malformed JSON on the service routes with an OData error in the format asked for, not an HTML page', async () => {
      const json = await api()
        .post('/api/odata/Orders')
        .set('authorization', ALICE)
        .set('content-type', JSON_TYPE)
        .set('accept', JSON_TYPE)
        .send('{"CustomerID": 1,');
      expect(json.status).toBe(400);
      expect(json.headers['content-type']).toBe('application/json;charset=utf-8');
      expect(json.headers['dataserviceversion']).toBe('1.0;');
      expect(json.body.error.code).toBe('BODY_SYNTAX');
      expect(json.body.error.message.value).toMatch(/^The request body is not well-formed JSON: /);
      expect(json.text).not.toContain('    at ');
      const xml = await api().post('/api/odata/Orders').set('authorization', ALICE).set('content-type', JSON_TYPE).send('{"CustomerID": 1,');
      expect(xml.status).toBe(400);
      expect(xml.headers['content-type']).toBe('application/xml;charset=utf-8');
      expect(xml.text).toContain('<m:code>BODY_SYNTAX</m:code>');
    });

    it("answers a body over the host parser's limit with 413 BODY_TOO_LARGE", async () => {
      const big = JSON.stringify({ Item: 'x'.repeat(200 * 1024) });
      const response = await api().post('/api/odata/Orders').set('authorization', ALICE).set('content-type', JSON_TYPE).set('accept', JSON_TYPE).send(big);
      expect(response.status).toBe(413);
      expect(response.body.error).toEqual({ code: 'BODY_TOO_LARGE', message: { lang: 'en-US', value: 'The request body exceeds the limit of 102400 bytes.' } });
    });

    it("leaves errors on the app's own routes to the app (Express's own handler)", async () => {
      const response = await api().post('/api/customers/1/summary').set('authorization', ALICE).set('content-type', JSON_TYPE).send('{"broken":');
      expect(response.status).toBe(400);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
    });

    it('still serves well-formed JSON bodies that express.json() parsed first', async () => {
      const created = await api()
        .post('/api/odata/Customers')
        .set('authorization', ALICE)
        .set('content-type', JSON_TYPE)
        .set('accept', JSON_TYPE)
        .send({ ID: 50, Name: 'Parsed' });
      expect(created.status).toBe(201);
      expect(created.body.d).toMatchObject({ ID: 50, Name: 'Parsed' });
    });
  });

  describe('compression() and cors() in front of the service', () => {
    it('compresses $batch answers (multipart/mixed) with the filter the app adds, and feeds as usual', async () => {
      const parts = Array.from({ length: 6 }, () => get('Orders'));
      const batch = await rawRequest(
        `${app.url}/api/odata/$batch`,
        'POST',
        { authorization: ALICE, 'content-type': 'multipart/mixed; boundary=batch_1', 'accept-encoding': 'gzip' },
        batchBody(parts),
      );
      expect(batch.status).toBe(202);
      expect(batch.headers['content-encoding']).toBe('gzip');
      expect(batch.headers['content-type']).toMatch(/^multipart\/mixed; boundary=batch_/);
      const text = gunzipSync(batch.body).toString('utf8');
      expect(batchStatuses(text)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(batch.body.length).toBeLessThan(Buffer.byteLength(text) / 2);
      const feed = await rawRequest(`${app.url}/api/odata/Orders?$format=json`, 'GET', { authorization: ALICE, 'accept-encoding': 'gzip' });
      expect(feed.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(gunzipSync(feed.body).toString('utf8')).d).toBeDefined();
    });

    it('answers a CORS preflight for MERGE with the methods and credentials a browser UI needs, before authentication', async () => {
      const preflight = await api()
        .options('/api/odata/Orders(1)')
        .set('origin', UI_ORIGIN)
        .set('access-control-request-method', 'MERGE')
        .set('access-control-request-headers', 'content-type, if-match, x-csrf-token, dataserviceversion, maxdataserviceversion');
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe(UI_ORIGIN);
      expect(preflight.headers['access-control-allow-credentials']).toBe('true');
      expect(preflight.headers['access-control-allow-methods']).toBe('GET,HEAD,POST,PUT,MERGE,PATCH,DELETE');
      expect(preflight.headers['access-control-allow-headers']).toBe('content-type, if-match, x-csrf-token, dataserviceversion, maxdataserviceversion');
    });

    it('exposes x-csrf-token, ETag, DataServiceVersion and Location to the allowed origin only', async () => {
      const read = await odata('Orders(1)').set('origin', UI_ORIGIN);
      expect(read.headers['access-control-allow-origin']).toBe(UI_ORIGIN);
      expect(read.headers['access-control-expose-headers']).toBe('x-csrf-token,ETag,DataServiceVersion,Location');
      expect(read.headers['etag']).toBeDefined();
      const other = await odata('Orders(1)').set('origin', 'https://evil.example.com');
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('authentication', () => {
    it.each([
      ['no Authorization header', undefined],
      ['an unknown token', 'Bearer mallory-token'],
      ['a token that names an Object.prototype member', 'Bearer __proto__'],
      ['another scheme', 'Basic YWxpY2U6c2VjcmV0'],
    ])('answers 401 from the app itself for %s, before the OData service runs', async (_case, authorization) => {
      const call = api().get('/api/odata/Customers');
      const response = await (authorization === undefined ? call : call.set('authorization', authorization));
      expect(response.status).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="acme"');
      expect(response.body).toEqual({ error: 'Sign in with an Authorization: Bearer token.' });
    });

    it('answers 401 to a $batch without a token, whatever its parts', async () => {
      const response = await api()
        .post('/api/odata/$batch')
        .set('content-type', 'multipart/mixed; boundary=batch_1')
        .send(batchBody([get('Invoices')]));
      expect(response.status).toBe(401);
    });
  });

  describe('reads by an authorised user (custom provider + applyQuery)', () => {
    it('lists every entity set in the service document and serves $metadata', async () => {
      expect((await odata('')).body).toEqual({ d: { EntitySets: ['Customers', 'Orders', 'Invoices'] } });
      const metadata = await api().get('/api/odata/$metadata').set('authorization', BOB);
      expect(metadata.status).toBe(200);
      expect(metadata.text).toContain('<Property Name="Version" Type="Edm.Int32" Nullable="false" ConcurrencyMode="Fixed" />');
      expect(metadata.text).toContain('<FunctionImport Name="OrdersByStatus"');
    });

    it('filters, orders, pages and counts through applyQuery', async () => {
      const response = await odata(
        "Orders?$filter=Status eq 'open' or Quantity gt 9&$orderby=Total desc&$top=2&$skip=1&$inlinecount=allpages&$select=ID,Total",
      );
      expect(response.status).toBe(200);
      expect(response.body.d.__count).toBe('3');
      expect(response.body.d.results.map((o: { ID: number; Total: string }) => [o.ID, o.Total])).toEqual([
        [3, '120'],
        [2, '95'],
      ]);
    });

    it('keeps Edm.Decimal exact and reads entries with their ETag', async () => {
      const response = await odata('Orders(4)');
      expect(response.status).toBe(200);
      expect(response.headers['etag']).toBe('W/"3"');
      expect(response.body.d).toMatchObject({ ID: 4, CustomerID: 3, Item: 'Ikura', Total: '62', Version: 3 });
      expect(response.body.d.__metadata).toEqual({ uri: `${app.url}/api/odata/Orders(4)`, type: 'Acme.Order', etag: 'W/"3"' });
    });

    it('answers 404 for a key that matches nothing', async () => {
      const response = await odata('Orders(99)');
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('RESOURCE_NOT_FOUND');
    });

    it('follows navigation, expands, and filters across navigation', async () => {
      expect(ids((await odata('Customers(1)/Orders')).body)).toEqual([1, 2]);
      expect((await odata('Orders(3)/Customer')).body.d.Name).toBe('Ana Trujillo Emparedados');
      expect(ids((await odata("Orders?$filter=Customer/City eq 'London'")).body)).toEqual([4]);
      const expanded = await odata('Customers(3)?$expand=Orders,Invoices');
      expect(feed(expanded.body.d.Orders).map((o) => o.ID)).toEqual([4]);
      expect(feed(expanded.body.d.Invoices).map((i) => i.ID)).toEqual([2]);
      expect((await odata('Orders/$count')).text).toBe('4');
      expect((await odata('Customers(1)/Orders/$count')).text).toBe('2');
    });

    it('pages with a $skiptoken next link that needs no server memory', async () => {
      await app.close();
      await start({ maxPageSize: 3 });
      const first = await odata('Orders?$orderby=Item');
      expect(ids(first.body)).toEqual([3, 1, 2]);
      const next: string = first.body.d.__next;
      expect(next).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/odata\/Orders\?\$orderby=Item&\$skiptoken=/);
      const second = await api()
        .get(new URL(next).pathname + new URL(next).search)
        .set('authorization', ALICE)
        .set('accept', JSON_TYPE);
      expect(ids(second.body)).toEqual([4]);
      expect(second.body.d.__next).toBeUndefined();
    });

    it('runs the service operation, with query options composed on its result', async () => {
      const response = await odata("OrdersByStatus?status='open'&$orderby=ID desc&$select=ID", BOB);
      expect(response.status).toBe(200);
      expect(ids(response.body)).toEqual([3, 2]);
    });

    it("uses the provider's ETag override for invoices (a column the model does not show)", async () => {
      const response = await odata('Invoices(2)');
      expect(response.headers['etag']).toBe('W/"r1"');
      expect(response.body.d.Revision).toBeUndefined();
      expect(response.body.d.__metadata.etag).toBe('W/"r1"');
    });
  });

  describe('writes by an authorised user', () => {
    it('creates, with a generated key, Version 1 and the store shared with the app routes', async () => {
      const created = await api()
        .post('/api/odata/Customers(2)/Orders')
        .set('authorization', BOB)
        .set('content-type', JSON_TYPE)
        .set('accept', JSON_TYPE)
        .send({ Item: 'Tofu', Total: '23.25' });
      expect(created.status).toBe(201);
      expect(created.headers['location']).toBe(`${app.url}/api/odata/Orders(5)`);
      expect(created.headers['etag']).toBe('W/"1"');
      expect(created.body.d).toMatchObject({ ID: 5, CustomerID: 2, Item: 'Tofu', Quantity: 1, Total: '23.25', Status: 'open', Version: 1 });
      expect((await api().get('/api/customers/2/summary').set('authorization', BOB)).body).toEqual({ name: 'Ana Trujillo Emparedados', orders: 2 });
    });

    it('refuses an order for a customer that does not exist (409) and a taken key (409)', async () => {
      const orphan = await api()
        .post('/api/odata/Orders')
        .set('authorization', ALICE)
        .set('content-type', JSON_TYPE)
        .set('accept', JSON_TYPE)
        .send({ CustomerID: 99, Item: 'X', Total: '1' });
      expect(orphan.status).toBe(409);
      expect(orphan.body.error).toEqual({ code: 'CONSTRAINT_VIOLATION', message: { lang: 'en-US', value: 'Customer 99 does not exist.' } });
      const taken = await api()
        .post('/api/odata/Customers')
        .set('authorization', ALICE)
        .set('content-type', JSON_TYPE)
        .set('accept', JSON_TYPE)
        .send({ ID: 1, Name: 'Again' });
      expect(taken.status).toBe(409);
      expect(taken.body.error.code).toBe('ENTITY_EXISTS');
    });

    it('updates with If-Match: 428 without it, 412 when stale, 204 and a new ETag when current', async () => {
      const merge = () => api().patch('/api/odata/Orders(2)').set('authorization', ALICE).set('content-type', JSON_TYPE).set('accept', JSON_TYPE);
      const missing = await merge().send({ Status: 'shipped' });
      expect(missing.status).toBe(428);
      expect(missing.body.error.code).toBe('PRECONDITION_REQUIRED');
      const stale = await merge().set('if-match', 'W/"0"').send({ Status: 'shipped' });
      expect(stale.status).toBe(412);
      expect(stale.body.error.code).toBe('PRECONDITION_FAILED');
      const ok = await merge().set('if-match', 'W/"1"').send({ Status: 'shipped' });
      expect(ok.status).toBe(204);
      expect(ok.headers['etag']).toBe('W/"2"');
      expect((await odata('Orders(2)')).body.d).toMatchObject({ Status: 'shipped', Quantity: 5, Version: 2 });
      const again = await merge().set('if-match', 'W/"1"').send({ Status: 'open' });
      expect(again.status).toBe(412);
    });

    it('replaces with PUT (unlisted properties back to their defaults) and deletes with If-Match', async () => {
      const put = await api()
        .put('/api/odata/Orders(1)')
        .set('authorization', ALICE)
        .set('content-type', JSON_TYPE)
        .set('if-match', 'W/"1"')
        .send({ CustomerID: 1, Item: 'Chai', Total: '18.00' });
      expect(put.status).toBe(204);
      expect((await odata('Orders(1)')).body.d).toMatchObject({ Item: 'Chai', Quantity: 1, Total: '18', Status: 'open', Version: 2 });
      const staleDelete = await api().delete('/api/odata/Orders(1)').set('authorization', ALICE).set('if-match', 'W/"1"');
      expect(staleDelete.status).toBe(412);
      const removed = await api().delete('/api/odata/Orders(1)').set('authorization', ALICE).set('if-match', 'W/"2"');
      expect(removed.status).toBe(204);
      expect(removed.text).toBe('');
      expect((await odata('Orders(1)')).status).toBe(404);
    });

    it('checks If-Match against the overridden invoice ETag', async () => {
      const merge = (etag: string) =>
        api().merge('/api/odata/Invoices(2)').set('authorization', ALICE).set('content-type', JSON_TYPE).set('if-match', etag).send({ Paid: true });
      expect((await merge('W/"r0"')).status).toBe(412);
      const ok = await merge('W/"r1"');
      expect(ok.status).toBe(204);
      expect(ok.headers['etag']).toBe('W/"r2"');
      expect((await odata('Invoices(2)')).body.d.Paid).toBe(true);
    });
  });

  describe('per-user authorisation', () => {
    it.each([
      ['the forbidden set', 'Invoices'],
      ['an entity of it', 'Invoices(1)'],
      ['navigation into it', 'Customers(1)/Invoices'],
      ['$expand of it', 'Customers(1)?$expand=Invoices'],
    ])('answers 403 FORBIDDEN to a user without the role for %s', async (_case, path) => {
      const response = await odata(path, BOB);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ error: { code: 'FORBIDDEN', message: { lang: 'en-US', value: 'You may not access Invoices.' } } });
    });

    it('answers 403 FORBIDDEN to its $count, as JSON for a client that accepts JSON', async () => {
      const response = await odata('Invoices/$count', BOB);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ error: { code: 'FORBIDDEN', message: { lang: 'en-US', value: 'You may not access Invoices.' } } });
      const xml = await api().get('/api/odata/Invoices/$count').set('authorization', BOB);
      expect(xml.text).toContain('<m:code>FORBIDDEN</m:code><m:message xml:lang="en-US">You may not access Invoices.</m:message>');
    });

    it('answers 403 to writes of the forbidden set and leaves it unchanged', async () => {
      const created = await api().post('/api/odata/Invoices').set('authorization', BOB).set('content-type', JSON_TYPE).send({ CustomerID: 1, Amount: '5' });
      expect(created.status).toBe(403);
      const removed = await api().delete('/api/odata/Invoices(1)').set('authorization', BOB);
      expect(removed.status).toBe(403);
      expect((await odata('Invoices/$count')).text).toBe('2');
    });

    it('lets the same user read and write the sets their role allows', async () => {
      expect((await odata('Customers', BOB)).status).toBe(200);
      expect((await odata('Orders(1)?$expand=Customer', BOB)).body.d.Customer.ID).toBe(1);
    });

    it('holds inside $batch: the forbidden part answers 403, the others are served', async () => {
      const response = await sendBatch(
        BOB,
        batchBody([get('Customers(1)'), get('Invoices'), [post('Orders', { CustomerID: 1, Item: 'Konbu', Total: '6.00' })]]),
      );
      expect(response.status).toBe(202);
      expect(batchStatuses(response.text)).toEqual([200, 403, 201]);
      expect(response.text).toContain('{"error":{"code":"FORBIDDEN","message":{"lang":"en-US","value":"You may not access Invoices."}}}');
      expect((await odata('Orders/$count')).text).toBe('5');
    });

    it('rolls back a changeset with a forbidden write: the allowed write before it is undone', async () => {
      const response = await sendBatch(
        BOB,
        batchBody([
          [post('Orders', { CustomerID: 1, Item: 'Konbu', Total: '6.00' }), post('Invoices', { CustomerID: 1, Amount: '6.00' })],
          get('Orders/$count'),
        ]),
      );
      expect(response.status).toBe(202);
      expect(batchStatuses(response.text)).toEqual([403, 200]);
      expect(response.text).toMatch(/\r\n\r\n4\r\n--batch_/);
      expect((await odata('Orders/$count')).text).toBe('4');
    });

    it('undoes updates and deletes of a failed changeset too', async () => {
      const patch = 'PATCH Orders(2) HTTP/1.1\r\nContent-Type: application/json\r\nIf-Match: W/"1"\r\n\r\n{"Status":"shipped"}';
      const remove = 'DELETE Orders(3) HTTP/1.1\r\nIf-Match: W/"1"\r\n';
      const response = await sendBatch(BOB, batchBody([[patch, remove, post('Invoices', { CustomerID: 1, Amount: '6.00' })]]));
      expect(batchStatuses(response.text)).toEqual([403]);
      expect((await odata('Orders(2)')).body.d).toMatchObject({ Status: 'open', Version: 1 });
      expect((await odata('Orders(3)')).body.d).toMatchObject({ Item: 'Aniseed Syrup', Version: 1 });
      const committed = await sendBatch(BOB, batchBody([[patch, remove]]));
      expect(batchStatuses(committed.text)).toEqual([204, 204]);
      expect((await odata('Orders(2)')).body.d).toMatchObject({ Status: 'shipped', Version: 2 });
      expect((await odata('Orders(3)')).status).toBe(404);
    });

    it('lets a user with the role do the same batch', async () => {
      const response = await sendBatch(
        ALICE,
        batchBody([get('Invoices'), [post('Orders', { CustomerID: 1, Item: 'Konbu', Total: '6.00' }), post('Invoices', { CustomerID: 1, Amount: '6.00' })]]),
      );
      expect(batchStatuses(response.text)).toEqual([200, 201, 201]);
      expect((await odata('Invoices(3)')).headers['etag']).toBe('W/"r1"');
    });
  });
});
