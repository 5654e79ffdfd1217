/** The service root is built from the request, behind proxies only when the app trusts them. */
import express from 'express';
import request from 'supertest';
import { checkServiceRoot, headersOf, serviceRootOf, splitUrl } from '../../lib/http';
import { catchODataError } from '../helpers/odata-error';
import type { ExpressLikeRequest } from '../../lib/http';
import { startServer } from '../helpers/server';

describe('splitUrl', () => {
  it.each([
    ['/', { path: '', query: '' }],
    ['/Products', { path: 'Products', query: '' }],
    ["//Products('a%2Fb')?$top=1&x=%27", { path: "Products('a%2Fb')", query: '$top=1&x=%27' }],
    ['/?', { path: '', query: '' }],
  ])('%s', (url, parts) => {
    expect(splitUrl(url)).toEqual(parts);
  });
});

describe('headersOf', () => {
  it('joins repeated headers with commas', () => {
    const fake = { headers: { accept: 'a', 'x-list': ['1', '2'] } } as unknown as ExpressLikeRequest;
    expect(headersOf(fake)).toEqual({ accept: 'a', 'x-list': '1, 2' });
  });
});

describe('serviceRootOf', () => {
  async function rootFrom(trustProxy: boolean, headers: Record<string, string>): Promise<string> {
    const app = express();
    if (trustProxy) app.set('trust proxy', true);
    app.use('/svc/odata', (req, res) => res.send(serviceRootOf(req as unknown as ExpressLikeRequest)));
    const server = await startServer(app);
    try {
      return (await request(server.url).get('/svc/odata/Products').set(headers)).text;
    } finally {
      await server.close();
    }
  }

  it('uses the Host header and the mount path', async () => {
    expect(await rootFrom(false, { host: 'example.test:8080' })).toBe('http://example.test:8080/svc/odata/');
  });

  it('ignores forwarded headers unless the app trusts the proxy', async () => {
    const forwarded = { host: 'internal:3000', 'x-forwarded-host': 'api.example.com', 'x-forwarded-proto': 'https' };
    expect(await rootFrom(false, forwarded)).toBe('http://internal:3000/svc/odata/');
    expect(await rootFrom(true, forwarded)).toBe('https://api.example.com/svc/odata/');
  });

  it('takes the first of several forwarded hosts', async () => {
    expect(await rootFrom(true, { 'x-forwarded-host': 'a.example.com, b.example.com' })).toBe('http://a.example.com/svc/odata/');
  });
});

describe('checkServiceRoot', () => {
  it.each([
    ['http://localhost/odata/', '/odata'],
    ['http://127.0.0.1:4004/odata/', '/odata'],
    ['https://api.example.com/', ''],
    ['http://[::1]:8080/odata/', '/odata'],
    ['http://xn--bcher-kva.example/odata/', '/odata'],
    ['http://my_host.local:/a/b/', '/a/b'],
  ])('accepts %s', (root, mount) => {
    expect(() => checkServiceRoot(root, mount)).not.toThrow();
  });

  it.each([
    ['http://a b/odata/', '/odata', 'a b'],
    ['http://evil.example/x/odata/', '/odata', 'evil.example/x'],
    ['http:///odata/', '/odata', ''],
    ['http://localhost:80a/odata/', '/odata', 'localhost:80a'],
    ['http://a\r\nb/odata/', '/odata', 'a\r\nb'],
    ['http://a@b/odata/', '/odata', 'a@b'],
    ['http://[::1/odata/', '/odata', '[::1'],
    ['ht tp://localhost/odata/', '/odata', 'localhost'],
    ['http://%zz/odata/', '/odata', '%zz'],
  ])('refuses %j with 400 URI_HOST_INVALID', (root, mount, host) => {
    const error = catchODataError(() => checkServiceRoot(root, mount));
    expect([error.status, error.code, error.message]).toEqual([
      400,
      'URI_HOST_INVALID',
      `The host '${host}' (Host or X-Forwarded-Host header) cannot form the service root URI.`,
    ]);
  });
});
