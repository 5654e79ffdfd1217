/**
 * readOnlyProvider: reads answer exactly as the wrapped provider's, every kind of write is 405
 * METHOD_NOT_ALLOWED (also inside a $batch changeset), and the wrapped provider's data is untouched.
 */
import express from 'express';
import { odata, readOnlyProvider } from '../../lib';
import { batchBody, changeset, operation, send } from '../helpers/batch-http';
import { DEMO_MODEL, demoProvider, FIXED_NOW } from '../helpers/demo';
import { startServer, type RunningServer } from '../helpers/server';

let readOnly: RunningServer;
let writable: RunningServer;
const provider = demoProvider();

beforeAll(async () => {
  const serve = (dataProvider: Parameters<typeof readOnlyProvider>[0]): Promise<RunningServer> => {
    const app = express();
    app.use('/odata', odata({ model: DEMO_MODEL, provider: dataProvider, now: () => FIXED_NOW }));
    return startServer(app);
  };
  readOnly = await serve(readOnlyProvider(provider));
  writable = await serve(demoProvider());
});

afterAll(async () => {
  await readOnly.close();
  await writable.close();
});

const JSON_BODY = { 'content-type': 'application/json', accept: 'application/json' };

it.each([
  ['GET', 'Products?$filter=Price gt 20&$expand=Category&$orderby=Name&$inlinecount=allpages'],
  ['GET', 'Products/$count'],
  ['GET', 'Suppliers(1)'],
  ['GET', 'Categories(1)/$links/Products'],
  ['GET', 'Products(1)/Name/$value'],
])('answers %s %s exactly as the wrapped provider', async (method, path) => {
  const [a, b] = await Promise.all([send(`${readOnly.url}/odata/${path}`, method), send(`${writable.url}/odata/${path}`, method)]);
  expect(a.status).toBe(200);
  expect(a.body.toString().split(readOnly.url).join('ORIGIN')).toBe(b.body.toString().split(writable.url).join('ORIGIN'));
});

it.each([
  ['POST', 'Products', JSON.stringify({ ID: 99, Name: 'New', ReleaseDate: '/Date(0)/', Rating: 1, Price: '1' })],
  ['PUT', 'Categories(1)', JSON.stringify({ ID: 1, Name: 'Renamed' })],
  ['MERGE', 'Categories(1)', JSON.stringify({ Name: 'Renamed' })],
  ['PATCH', 'Categories(1)', JSON.stringify({ Name: 'Renamed' })],
  ['DELETE', 'Products(1)', undefined],
  ['PUT', 'Products(1)/Name', JSON.stringify({ Name: 'Renamed' })],
  ['DELETE', 'Products(1)/Description/$value', undefined],
  ['POST', 'Categories(0)/$links/Products', JSON.stringify({ uri: 'Products(1)' })],
  ['PUT', 'Products(1)/$links/Category', JSON.stringify({ uri: 'Categories(0)' })],
  ['DELETE', 'Products(1)/$links/Category', undefined],
])('refuses %s %s with 405', async (method, path, body) => {
  const response = await send(`${readOnly.url}/odata/${path}`, method, JSON_BODY, body);
  expect(response.status).toBe(405);
  expect(JSON.parse(response.body.toString())).toMatchObject({ error: { code: 'METHOD_NOT_ALLOWED' } });
});

it('refuses a changeset part with 405 and serves the batch reads', async () => {
  const body = batchBody(
    [operation('GET', 'Categories(1)?$select=Name', { headers: { accept: 'application/json' } }), changeset('cs', operation('DELETE', 'Products(2)'))],
    { boundary: 'b' },
  );
  const response = await send(`${readOnly.url}/odata/$batch`, 'POST', { 'content-type': 'multipart/mixed; boundary=b' }, body);
  expect(response.status).toBe(202);
  const text = response.body.toString();
  expect(text).toContain('HTTP/1.1 200 OK');
  expect(text).toContain('"Name":"Beverages"');
  expect(text).toContain('HTTP/1.1 405 Method Not Allowed');
});

it('keeps the read methods only and leaves the wrapped provider as it was', async () => {
  const response = await send(`${readOnly.url}/odata/Products/$count`, 'GET');
  expect(response.body.toString()).toBe('9'); // after the refused DELETEs above
  expect(Object.keys(readOnlyProvider(provider)).sort()).toEqual(['count', 'mediaOf', 'query', 'readMedia']);
  expect([typeof provider.create, typeof provider.update, typeof provider.delete, typeof provider.link, typeof provider.transaction]).toEqual([
    'function',
    'function',
    'function',
    'function',
    'function',
  ]);
});
