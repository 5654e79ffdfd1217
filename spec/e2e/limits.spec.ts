/** Every service limit ends in a clear 4xx before any work: body size, URI length, $top, $filter, $expand. */
import request from 'supertest';
import { startDemo } from '../helpers/demo';
import type { RunningServer } from '../helpers/server';

describe('limits', () => {
  let demo: RunningServer;
  beforeAll(async () => {
    demo = await startDemo(undefined, {
      limits: { maxBodyBytes: 1024, maxUriLength: 300, maxTop: 5, maxFilterLength: 60, maxFilterDepth: 3, maxExpandDepth: 1, maxExpandBreadth: 1 },
    });
  });
  afterAll(() => demo.close());
  const get = (path: string) => request(demo.url).get(`/odata/${path}`).set('accept', 'application/json');

  it('refuses a body over maxBodyBytes with 413 and creates nothing', async () => {
    const response = await request(demo.url)
      .post('/odata/Categories')
      .set('content-type', 'application/json')
      .set('accept', 'application/json')
      .send({ ID: 9, Name: 'x'.repeat(2000) });
    expect([response.status, response.body.error.code]).toEqual([413, 'BODY_TOO_LARGE']);
    expect((await get('Categories(9)')).status).toBe(404);
  });

  it('refuses a URI over maxUriLength with 414', async () => {
    const response = await get(`Products?$filter=Name eq '${'a'.repeat(300)}'`);
    expect([response.status, response.body.error.code]).toEqual([414, 'URI_TOO_LONG']);
  });

  it.each([
    ['$top above maxTop', 'Products?$top=6'],
    ['$filter longer than maxFilterLength', `Products?$filter=Name eq '${'b'.repeat(60)}'`],
    ['$filter nested deeper than maxFilterDepth', 'Products?$filter=not (not (not (not (Rating eq 1))))'],
    ['$expand deeper than maxExpandDepth', 'Categories?$expand=Products/Supplier'],
    ['$expand wider than maxExpandBreadth', 'Products?$expand=Category,Supplier'],
  ])('refuses %s with 400', async (_case, path) => {
    const response = await get(path);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('QUERY_LIMIT_EXCEEDED');
  });

  it('serves what stays within the limits', async () => {
    expect((await get('Products?$top=5&$expand=Category&$filter=Rating eq 3')).status).toBe(200);
  });
});
