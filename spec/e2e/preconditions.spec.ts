/**
 * Conditional requests end to end on the demo (RFC 7232 §3.1, §3.2, §6; MS-ODATA §2.2.5.5, §3.2.5.1):
 * If-Match on reads of an entity, a property or a `$value` gives 412 when stale; If-None-Match on
 * them gives 304 when it matches. A specific entity tag where no ETag can exist (Products and
 * Categories have no ConcurrencyMode="Fixed" property; a feed is not one entity) is 400; `*` is
 * accepted wherever the entity exists, on reads and writes alike.
 */
import request from 'supertest';
import { EXPRESS_VERSIONS, startDemo } from '../helpers/demo';
import type { RunningServer } from '../helpers/server';

const JSON_TYPE = 'application/json';

describe.each(EXPRESS_VERSIONS)('preconditions on %s', (_name, expressModule) => {
  let demo: RunningServer;
  beforeEach(async () => {
    demo = await startDemo(expressModule);
  });
  afterEach(() => demo.close());
  const api = () => request(demo.url);

  /** Suppliers(0) has Concurrency 0: its ETag is W/"0". */
  const CURRENT = 'W/"0"';
  const STALE = 'W/"7"';

  describe('If-Match on reads of an entity with a concurrency token', () => {
    it.each([
      'Suppliers(0)',
      'Suppliers(0)/Name',
      'Suppliers(0)/Name/$value',
      'Suppliers(0)/Address',
      'Suppliers(0)/Address/City/$value',
      'Products(0)/Supplier',
    ])('GET %s with a stale If-Match is 412, with the current tag or * it is 200', async (path) => {
      const stale = await api().get(`/odata/${path}`).set('accept', JSON_TYPE).set('if-match', STALE);
      expect([stale.status, stale.body.error?.code]).toEqual([412, 'PRECONDITION_FAILED']);
      expect(stale.body.error.message.value).toBe('The entity tag given in If-Match does not match the current entity tag.');
      for (const tag of [CURRENT, '*', `${STALE}, ${CURRENT}`, '"0"']) {
        const current = await api().get(`/odata/${path}`).set('accept', JSON_TYPE).set('if-match', tag);
        expect([tag, current.status]).toEqual([tag, 200]);
        expect(current.headers['etag']).toBe(CURRENT);
      }
    });

    it('HEAD follows GET: 412 for a stale If-Match', async () => {
      expect((await api().head('/odata/Suppliers(0)').set('if-match', STALE)).status).toBe(412);
    });

    it('checks If-Match before If-None-Match (RFC 7232 §6)', async () => {
      const response = await api().get('/odata/Suppliers(0)').set('if-match', STALE).set('if-none-match', CURRENT);
      expect(response.status).toBe(412);
    });
  });

  describe('If-None-Match on property and $value reads', () => {
    it.each(['Suppliers(0)/Name', 'Suppliers(0)/Name/$value', 'Suppliers(0)/Address', 'Suppliers(0)/Address/City'])(
      'GET %s answers 304 with the ETag when it matches, 200 when it does not',
      async (path) => {
        const notModified = await api().get(`/odata/${path}`).set('accept', JSON_TYPE).set('if-none-match', CURRENT);
        expect(notModified.status).toBe(304);
        expect(notModified.headers['etag']).toBe(CURRENT);
        expect(notModified.text).toBe('');
        expect((await api().get(`/odata/${path}`).set('accept', JSON_TYPE).set('if-none-match', STALE)).status).toBe(200);
        expect((await api().get(`/odata/${path}`).set('accept', JSON_TYPE).set('if-none-match', '*')).status).toBe(304);
      },
    );

    it('refuses a malformed If-None-Match with 400', async () => {
      const response = await api().get('/odata/Suppliers(0)/Name').set('accept', JSON_TYPE).set('if-none-match', 'W/unquoted');
      expect([response.status, response.body.error.code]).toEqual([400, 'PRECONDITION_INVALID']);
    });
  });

  describe('a specific entity tag where no ETag can exist', () => {
    const NO_TOKEN = 'The entity type \'ODataDemo.Product\' has no concurrency token (no property with ConcurrencyMode="Fixed"), so its entities have no ETag;';

    it.each([
      ['GET', 'Products(1)', 'if-match'],
      ['GET', 'Products(1)', 'if-none-match'],
      ['GET', 'Products(1)/Name', 'if-match'],
      ['GET', 'Products(1)/Name/$value', 'if-none-match'],
      ['PUT', 'Products(1)/Name', 'if-match'],
      ['MERGE', 'Products(1)', 'if-match'],
      ['DELETE', 'Products(1)', 'if-match'],
    ])('%s %s with a specific %s is 400 PRECONDITION_INVALID, and nothing changes', async (method, path, header) => {
      const before = (await api().get('/odata/Products(1)').set('accept', JSON_TYPE)).body;
      const name = header === 'if-match' ? 'If-Match' : 'If-None-Match';
      const verb = method === 'MERGE' ? 'merge' : method === 'PUT' ? 'put' : method === 'DELETE' ? 'delete' : 'get';
      const response = await api()
        [verb](`/odata/${path}`)
        .set('accept', JSON_TYPE)
        .set('content-type', JSON_TYPE)
        .set(header, 'W/"1"')
        .send(method === 'GET' || method === 'DELETE' ? undefined : { Name: 'Changed' });
      expect([response.status, response.body.error.code]).toEqual([400, 'PRECONDITION_INVALID']);
      expect(response.body.error.message.value).toBe(`${NO_TOKEN} ${name} can only be '*'.`);
      expect((await api().get('/odata/Products(1)').set('accept', JSON_TYPE)).body).toEqual(before);
    });

    it.each([
      ['Products', 'if-match', 'If-Match', 'Products'],
      ['Products', 'if-none-match', 'If-None-Match', 'Products'],
      ['Suppliers', 'if-match', 'If-Match', 'Suppliers'],
      ['Categories(1)/Products', 'if-none-match', 'If-None-Match', 'Categories(1)/Products'],
      ['Products/$count', 'if-match', 'If-Match', 'Products/$count'],
      ['Categories(1)/$links/Products', 'if-match', 'If-Match', '$links/Products'],
    ])('GET %s (a collection) with a specific %s is 400', async (path, header, name, resource) => {
      const response = await api().get(`/odata/${path}`).set('accept', JSON_TYPE).set(header, CURRENT);
      expect([response.status, response.body.error.code]).toEqual([400, 'PRECONDITION_INVALID']);
      expect(response.body.error.message.value).toBe(`${name} applies to a single entity; '${resource}' is a collection, so ${name} can only be '*' here.`);
    });

    it('POST to a collection with a specific If-Match is 400 and creates nothing', async () => {
      const response = await api()
        .post('/odata/Categories')
        .set('content-type', JSON_TYPE)
        .set('accept', JSON_TYPE)
        .set('if-match', 'W/"1"')
        .send({ ID: 7, Name: 'Tagged' });
      expect([response.status, response.body.error.code]).toEqual([400, 'PRECONDITION_INVALID']);
      expect((await api().get('/odata/Categories(7)')).status).toBe(404);
    });
  });

  describe('If-Match: * (what @sap_oss/odata-library sends on every write) wherever the entity exists', () => {
    it('is accepted on reads and writes of a type without a concurrency token', async () => {
      expect((await api().get('/odata/Products(1)').set('if-match', '*')).status).toBe(200);
      expect((await api().get('/odata/Products').set('if-match', '*')).status).toBe(200);
      expect((await api().merge('/odata/Products(1)').set('content-type', JSON_TYPE).set('if-match', '*').send({ Rating: 5 })).status).toBe(204);
      expect((await api().put('/odata/Products(1)/Name').set('content-type', JSON_TYPE).set('if-match', '*').send({ Name: 'Star' })).status).toBe(204);
      const created = await api().post('/odata/Categories').set('content-type', JSON_TYPE).set('if-match', '*').send({ ID: 7, Name: 'Starred' });
      expect(created.status).toBe(201);
      expect((await api().delete('/odata/Categories(7)').set('if-match', '*')).status).toBe(204);
    });

    it('is accepted on an entity with a token, and a missing entity stays 404', async () => {
      expect((await api().merge('/odata/Suppliers(0)').set('content-type', JSON_TYPE).set('if-match', '*').send({ Name: 'Any' })).status).toBe(204);
      expect((await api().get('/odata/Suppliers(9)').set('if-match', '*')).status).toBe(404);
    });
  });
});
