/**
 * Conventions real V2 clients rely on: HEAD, the x-csrf-token handshake, innererror details from
 * provider errors, and the accept / $format combinations SAP and datajs clients send.
 */
import express from 'express';
import request from 'supertest';
import { ODataError, odata } from '../../lib';
import type { DataProvider, QueryRequest } from '../../lib';
import type { RequestContext } from '../../lib/protocol/message';
import { DEMO_MODEL, demoProvider, startDemo } from '../helpers/demo';
import { startServer, type RunningServer } from '../helpers/server';

/** supertest parser that keeps a multipart body as text. */
function asText(res: request.Response, done: (error: Error | null, body: string) => void): void {
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => (text += chunk));
  res.on('end', () => done(null, text));
}

describe('client conventions', () => {
  let demo: RunningServer;
  let guarded: RunningServer;
  beforeAll(async () => {
    demo = await startDemo();
    guarded = await startDemo(undefined, { csrf: true });
  });
  afterAll(async () => {
    await demo.close();
    await guarded.close();
  });

  it('answers HEAD on the service root and on collections without a body', async () => {
    for (const path of ['/odata/', '/odata/Products']) {
      const response = await request(demo.url).head(path);
      expect([path, response.status, response.text]).toEqual([path, 200, undefined]);
      expect(response.headers['dataserviceversion']).toMatch(/^[12]\.0;$/);
    }
  });

  it.each([
    ['application/json;odata=verbose', 'application/json;charset=utf-8'],
    ['application/json', 'application/json;charset=utf-8'],
    ['application/atom+xml,application/atomsvc+xml,application/xml', 'application/atom+xml;charset=utf-8'],
    ['text/html, */*;q=0.1', 'application/atom+xml;charset=utf-8'],
    ['application/json;q=0.9, application/atom+xml;q=0.5', 'application/json;charset=utf-8'],
  ])('negotiates accept: %s', async (accept, contentType) => {
    const response = await request(demo.url).get('/odata/Products(1)').set('accept', accept);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe(contentType);
  });

  it('lets $format=json override an accept header', async () => {
    const response = await request(demo.url).get('/odata/Products(1)?$format=json').set('accept', 'application/atom+xml');
    expect(response.headers['content-type']).toBe('application/json;charset=utf-8');
  });

  it('refuses an unknown $format with 400', async () => {
    const response = await request(demo.url).get('/odata/Products?$format=yaml');
    expect(response.status).toBe(400);
    expect(response.text).toContain('UNSUPPORTED_FORMAT');
  });

  describe('a request declaring DataServiceVersion 1.0 (MS-ODATA §3.2.5.1)', () => {
    it.each([
      ['Products?$inlinecount=allpages', '$inlinecount=allpages'],
      ['Products?$select=Name', '$select'],
      ['Products/$count', 'the $count segment'],
    ])('GET %s with DataServiceVersion: 1.0 is 400 naming the version it needs', async (path, feature) => {
      const response = await request(demo.url)
        .get(`/odata/${path}`)
        .set('accept', 'application/json')
        .set('dataserviceversion', '1.0')
        .set('maxdataserviceversion', '2.0');
      expect(response.status).toBe(400);
      expect(response.body.error).toEqual({
        code: 'VERSION_REQUEST_TOO_LOW',
        message: { lang: 'en-US', value: `The request uses ${feature}, which needs DataServiceVersion 2.0, but it declares DataServiceVersion 1.0.` },
      });
    });

    it('serves the same requests with DataServiceVersion 2.0 (SAPUI5) or none (SAP Cloud SDK, odata2ts, pyodata)', async () => {
      for (const headers of [{ dataserviceversion: '2.0', maxdataserviceversion: '2.0' }, {}]) {
        const response = await request(demo.url)
          .get('/odata/Products?$inlinecount=allpages&$select=Name&$top=1')
          .set('accept', 'application/json')
          .set(headers);
        expect(response.status).toBe(200);
        expect(response.body.d.__count).toBe('9');
      }
    });

    it('serves a datajs batch: POST $batch stamped DataServiceVersion 1.0, a GET part with $inlinecount and no version of its own', async () => {
      // datajs' batch serializer gives the multipart body no version, so handlerWrite sets 1.0 on the
      // outer request; its GET parts carry only MaxDataServiceVersion (datajs odata-handler.js / odata-batch.js).
      const body = [
        '',
        '--batch_36d4-1b0c-b2e8',
        'Content-Type: application/http',
        'Content-Transfer-Encoding: binary',
        '',
        'GET Products?$inlinecount=allpages&$top=1 HTTP/1.1',
        'Accept: application/atomsvc+xml;q=0.8, application/json;odata=verbose;q=0.5, */*;q=0.1',
        'MaxDataServiceVersion: 3.0',
        '',
        '',
        '--batch_36d4-1b0c-b2e8--',
        '',
      ].join('\r\n');
      const response = await request(demo.url)
        .post('/odata/$batch')
        .set({ 'content-type': 'multipart/mixed; boundary=batch_36d4-1b0c-b2e8', dataserviceversion: '1.0', maxdataserviceversion: '3.0' })
        .buffer(true)
        .parse(asText)
        .send(body);
      expect(response.status).toBe(202);
      const text = response.body as string;
      expect(text).toContain('HTTP/1.1 200 OK');
      expect(text).toContain('"__count":"9"');
    });

    it('refuses a batch part that declares DataServiceVersion 1.0 itself, in that part only', async () => {
      const body = [
        '--b',
        'Content-Type: application/http',
        'Content-Transfer-Encoding: binary',
        '',
        'GET Products?$inlinecount=allpages&$top=1 HTTP/1.1',
        'Accept: application/json',
        'DataServiceVersion: 1.0',
        '',
        '',
        '--b',
        'Content-Type: application/http',
        'Content-Transfer-Encoding: binary',
        '',
        'GET Products/$count HTTP/1.1',
        '',
        '',
        '--b--',
        '',
      ].join('\r\n');
      const response = await request(demo.url).post('/odata/$batch').set('content-type', 'multipart/mixed; boundary=b').buffer(true).parse(asText).send(body);
      const text = response.body as string;
      expect([...text.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1]))).toEqual([400, 200]);
      expect(text).toContain('"code":"VERSION_REQUEST_TOO_LOW"');
    });
  });

  describe('methods the service does not implement (RFC 9110 §9.1)', () => {
    const MESSAGE = 'is not implemented by this service; it serves GET, HEAD, POST, PUT, MERGE, PATCH and DELETE.';

    it.each(['PROPFIND', 'OPTIONS', 'PURGE', 'LINK'])(
      'answers %s (which Node parses) 501 with an OData error body, before resolving the path',
      async (method) => {
        for (const path of ['/odata/Products', '/odata/Nope', '/odata/$batch']) {
          const response = await request(demo.url)[method.toLowerCase() as 'options'](path).set('accept', 'application/json');
          expect([method, path, response.status]).toEqual([method, path, 501]);
          expect(response.headers['content-type']).toBe('application/json;charset=utf-8');
          expect(response.body).toEqual({
            error: { code: 'METHOD_NOT_IMPLEMENTED', message: { lang: 'en-US', value: `The HTTP method ${method} ${MESSAGE}` } },
          });
        }
      },
    );

    it('answers an unknown method inside a $batch 501 in its part, and serves the other parts', async () => {
      const body = [
        '--batch_x',
        'Content-Type: application/http',
        'Content-Transfer-Encoding: binary',
        '',
        'FOO Products HTTP/1.1',
        'Accept: application/json',
        '',
        '',
        '--batch_x',
        'Content-Type: application/http',
        'Content-Transfer-Encoding: binary',
        '',
        'GET Products/$count HTTP/1.1',
        '',
        '',
        '--batch_x--',
        '',
      ].join('\r\n');
      const response = await request(demo.url)
        .post('/odata/$batch')
        .set('content-type', 'multipart/mixed; boundary=batch_x')
        .buffer(true)
        .parse(asText)
        .send(body);
      expect(response.status).toBe(202);
      const text = response.body as string;
      expect([...text.matchAll(/^HTTP\/1\.1 (\d{3}) .*$/gm)].map((m) => m[0].trim())).toEqual(['HTTP/1.1 501 Not Implemented', 'HTTP/1.1 200 OK']);
      expect(text).toContain(`{"error":{"code":"METHOD_NOT_IMPLEMENTED","message":{"lang":"en-US","value":"The HTTP method FOO ${MESSAGE}"}}}`);
    });

    it('keeps 405 with Allow for a method the service implements elsewhere', async () => {
      const response = await request(demo.url).delete('/odata/Products').set('accept', 'application/json');
      expect([response.status, response.headers['allow'], response.body.error.code]).toEqual([405, 'GET, POST', 'METHOD_NOT_ALLOWED']);
    });
  });

  describe('x-csrf-token (option csrf: true)', () => {
    it('hands out a token on a fetch and accepts writes that send it with its cookie', async () => {
      const fetched = await request(guarded.url).head('/odata/').set('x-csrf-token', 'Fetch');
      expect(fetched.status).toBe(200);
      const token = fetched.headers['x-csrf-token'];
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const cookie = (fetched.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
      expect(cookie).toBe(`odata_csrf=${token}`);
      const write = await request(guarded.url)
        .merge('/odata/Products(1)')
        .set('x-csrf-token', token)
        .set('cookie', cookie)
        .set('content-type', 'application/json')
        .send({ Rating: 2 });
      expect(write.status).toBe(204);
    });

    it('refuses writes without a valid token: 403 with x-csrf-token: Required', async () => {
      for (const headers of [{}, { 'x-csrf-token': 'forged', cookie: 'odata_csrf=other' }]) {
        const response = await request(guarded.url).delete('/odata/Products(1)').set(headers);
        expect(response.status).toBe(403);
        expect(response.headers['x-csrf-token']).toBe('Required');
        expect(response.text).toContain('CSRF_TOKEN_REQUIRED');
      }
      expect((await request(guarded.url).get('/odata/Products(1)')).status).toBe(200);
    });

    it('is off by default: no token, writes pass', async () => {
      const fetched = await request(demo.url).get('/odata/').set('x-csrf-token', 'Fetch');
      expect(fetched.headers['x-csrf-token']).toBeUndefined();
    });
  });

  describe('provider errors', () => {
    let server: RunningServer;
    const logged: unknown[] = [];
    beforeAll(async () => {
      const model = DEMO_MODEL;
      const memory = demoProvider();
      const provider: DataProvider = {
        query(queryRequest: QueryRequest, context: RequestContext) {
          if (queryRequest.entitySet.name === 'Suppliers') {
            throw ODataError.fromCode(
              'FORBIDDEN',
              { detail: 'Suppliers are confidential.' },
              {
                details: [{ code: 'AUTH/042', message: 'Ask your administrator for the SUPPLIER_READ role.', target: 'Suppliers', severity: 'error' }],
              },
            );
          }
          if (queryRequest.entitySet.name === 'Categories') throw new Error('connection string postgres://secret');
          return memory.query(queryRequest, context);
        },
      };
      const app = express();
      app.use('/odata', odata({ model, provider, logger: (event) => logged.push(event) }));
      server = await startServer(app);
    });
    afterAll(() => server.close());

    it('sends a provider ODataError with innererror.errordetails in JSON and XML', async () => {
      const json = await request(server.url).get('/odata/Suppliers?$format=json');
      expect(json.status).toBe(403);
      expect(json.body.error.code).toBe('FORBIDDEN');
      expect(json.body.error.message).toEqual({ lang: 'en-US', value: 'Suppliers are confidential.' });
      expect(json.body.error.innererror.errordetails).toEqual([
        { code: 'AUTH/042', message: 'Ask your administrator for the SUPPLIER_READ role.', target: 'Suppliers', severity: 'error' },
      ]);
      const xml = await request(server.url).get('/odata/Suppliers');
      expect(xml.text).toContain('<m:innererror>');
      expect(xml.text).toContain('AUTH/042');
    });

    it('masks foreign errors as 500 and gives the details to the logger only', async () => {
      const response = await request(server.url).get('/odata/Categories?$format=json');
      expect(response.status).toBe(500);
      expect(response.body.error).toEqual({ code: 'INTERNAL', message: { lang: 'en-US', value: 'An internal error occurred.' } });
      expect(response.text).not.toContain('secret');
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ status: 500, method: 'GET', message: 'connection string postgres://secret' });
    });
  });
});
