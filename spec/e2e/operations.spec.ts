/**
 * Service operations of every result kind, end to end: entity, complex value(s), primitive
 * value(s) with `$value`, nothing; typed parameters; the declared HTTP method.
 */
import express from 'express';
import request from 'supertest';
import { readFileSync } from 'fs';
import { join } from 'path';
import { loadEdmx, MemoryProvider, odata } from '../../lib';
import type { OperationResult } from '../../lib';
import { startServer, type RunningServer } from '../helpers/server';

const MODEL = loadEdmx(readFileSync(join(__dirname, '..', 'fixtures', 'e2e', 'operations.xml'), 'utf8'));

describe('service operations of every kind', () => {
  let server: RunningServer;
  const resets: unknown[] = [];
  beforeAll(async () => {
    const provider = new MemoryProvider(
      MODEL,
      {
        Items: [
          { ID: 1, Name: 'pen' },
          { ID: 2, Name: 'ink' },
        ],
      },
      {
        operations: {
          ItemByName: async ({ parameters }) => ({ ID: parameters.name === 'ink' ? 2 : 1, Name: parameters.name }),
          Origin: async () => ({ X: 0, Y: 0 }),
          Corners: async () => [
            { X: 0, Y: 0 },
            { X: 1, Y: 1 },
          ],
          Add: async ({ parameters }) => (BigInt(parameters.a as string) + BigInt(parameters.b as string)).toString(),
          Days: async ({ parameters }) => [parameters.from, new Date((parameters.from as Date).getTime() + 86_400_000)],
          Reset: async ({ parameters }) => {
            resets.push(parameters.id);
            return undefined;
          },
        },
      },
    );
    const app = express();
    app.use('/odata', odata({ model: MODEL, provider }));
    server = await startServer(app);
  });
  afterAll(() => server.close());
  const get = (path: string) => request(server.url).get(`/odata/${path}`);

  it('returns one entity', async () => {
    const response = await get("ItemByName?name='ink'&$format=json");
    expect(response.status).toBe(200);
    expect(response.body.d).toMatchObject({ __metadata: { uri: `${server.url}/odata/Items(2)`, type: 'Ops.Item' }, ID: 2, Name: 'ink' });
    const atom = await get("ItemByName?name='ink'");
    expect(atom.headers['content-type']).toBe('application/atom+xml;charset=utf-8');
    expect(atom.text).toContain('<d:Name>ink</d:Name>');
  });

  it('returns a complex value and a collection of them, in JSON and XML', async () => {
    expect((await get('Origin?$format=json')).body).toEqual({ d: { Origin: { __metadata: { type: 'Ops.Point' }, X: 0, Y: 0 } } });
    const corners = await get('Corners?$format=json');
    expect(corners.body.d.results).toEqual([
      { __metadata: { type: 'Ops.Point' }, X: 0, Y: 0 },
      { __metadata: { type: 'Ops.Point' }, X: 1, Y: 1 },
    ]);
    const xml = await get('Corners');
    expect(xml.headers['content-type']).toBe('application/xml;charset=utf-8');
    expect(xml.text).toContain('<d:element m:type="Ops.Point"><d:X m:type="Edm.Int32">1</d:X>');
  });

  it('returns a primitive value exactly, and its $value', async () => {
    const sum = await get('Add?a=9007199254740993L&b=1L&$format=json');
    expect(sum.body).toEqual({ d: { Add: '9007199254740994' } });
    const raw = await get('Add/$value?a=2L&b=3L');
    expect([raw.status, raw.headers['content-type'], raw.text]).toEqual([200, 'text/plain;charset=utf-8', '5']);
  });

  it('returns a collection of primitives', async () => {
    const days = await get("Days?from=datetime'2024-02-28T00:00'&$format=json");
    expect(days.body.d.results).toEqual(['/Date(1709078400000)/', '/Date(1709164800000)/']);
  });

  it('runs an operation without a result as 204, by its declared method only', async () => {
    const id = '0d9c1f9e-8d6a-4b61-9b39-5a0e8d3f4a11';
    const done = await request(server.url).post(`/odata/Reset?id=guid'${id}'`);
    expect(done.status).toBe(204);
    expect(resets).toEqual([id]);
    const wrong = await get(`Reset?id=guid'${id}'`);
    expect([wrong.status, wrong.headers['allow']]).toEqual([405, 'POST']);
  });

  it.each([
    ['a missing parameter', 'Add?a=1L'],
    ['a parameter of the wrong type', "Add?a=1L&b='x'"],
    ['a malformed literal', "Days?from=datetime'2024-13-01T00:00'"],
  ])('refuses %s with 400', async (_case, path) => {
    const response = await get(`${path}&$format=json`);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('QUERY_INVALID_VALUE');
  });
});

describe('service operations whose provider returns the wrong shape', () => {
  let server: RunningServer;
  const logged: string[] = [];
  beforeAll(async () => {
    const provider = new MemoryProvider(
      MODEL,
      { Items: [] },
      {
        operations: {
          ItemByName: async () => new Date(0),
          // A JavaScript provider can return anything; TypeScript would refuse this one.
          Days: async () => [new Date(0), [new Date(1)]] as unknown as OperationResult,
        },
      },
    );
    const app = express();
    app.use('/odata', odata({ model: MODEL, provider, logger: (event) => logged.push(event.message) }));
    server = await startServer(app);
  });
  afterAll(() => server.close());

  it.each([
    ["ItemByName?name='x'", 'The service operation ItemByName returned a value that is not an entity.'],
    ["Days?from=datetime'2024-02-28T00:00'", 'The service operation Days returned a collection item that is not a value.'],
  ])('answers %s with a logged 500, not a malformed payload', async (path, message) => {
    const response = await request(server.url).get(`/odata/${path}&$format=json`);
    expect([response.status, response.body.error.code]).toEqual([500, 'INTERNAL']);
    expect(logged).toContain(message);
  });
});
