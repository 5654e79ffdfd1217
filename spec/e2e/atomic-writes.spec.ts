/**
 * A failed write leaves nothing behind (issue 11, item 3). A fault-injecting provider (wrapping
 * MemoryProvider) fails every kind of single write after the store took it: the provider throws
 * after writing, `etag()` throws or returns a header-breaking value, the written entity cannot be
 * written as an answer, `mediaOf()` throws, the commit is refused. A few thousand randomized
 * requests of every write kind run through the service; every one that fails must leave the store
 * exactly as it was. Before single writes ran in the provider's transaction, this run left 265
 * writes behind.
 */
import express from 'express';
import request from 'supertest';
import { odata } from '../../lib';
import type { ODataRequest, RequestContext } from '../../lib/protocol/message';
import { createService } from '../../lib/service';
import { FAULTS, GALLERY_MODEL as MODEL, galleryProvider as freshProvider, storeSnapshot as snapshot } from '../helpers/faulty-provider';
import type { Fault } from '../helpers/faulty-provider';
import { seededRandom } from '../helpers/random';
import { startServer } from '../helpers/server';

const ROOT = 'http://localhost/odata/';
const JSON_TYPE = 'application/json';

type RequestSpec = Omit<ODataRequest, 'serviceRoot' | 'context' | 'body' | 'headers'> & { headers?: Record<string, string>; body?: string | Buffer };

/** The write kinds of issue 11 item 3, each a generator of a random request of that kind. */
function writeKinds(random: () => number): Record<string, () => RequestSpec> {
  const album = () => 1 + Math.floor(random() * 5);
  const photo = () => 1 + Math.floor(random() * 7);
  const fresh = () => 10 + Math.floor(random() * 90);
  const json = (method: string, path: string, body: unknown, query = ''): RequestSpec => ({
    method,
    path,
    query,
    headers: { 'content-type': JSON_TYPE, accept: JSON_TYPE },
    body: JSON.stringify(body),
  });
  return {
    create: () => json('POST', 'Albums', { ID: fresh(), Name: 'New' }),
    'create with deep insert': () => json('POST', 'Albums', { ID: fresh(), Name: 'Deep', Photos: [{ ID: fresh(), Title: 'inline', Version: 0 }] }),
    'create through navigation': () => json('POST', `Albums(${album()})/Photos`, { ID: fresh(), Title: 'nav', Version: 0 }),
    'create with a binding to a required end': () =>
      json('POST', 'Notes', { ID: fresh(), Text: 'n', Mood: 'open', Owner: { __metadata: { uri: `Owners(${1 + Math.floor(random() * 3)})` } } }),
    'create a media link entry': () => ({
      method: 'POST',
      path: 'Photos',
      query: '',
      headers: { 'content-type': 'image/png', slug: 'x.png', accept: JSON_TYPE },
      body: Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    }),
    'update (PUT)': () => json('PUT', `Albums(${album()})`, { Name: 'Put' }),
    'update (MERGE)': () => json('MERGE', `Albums(${album()})`, { Name: 'Merged' }),
    'update (tunnelled PATCH)': () => ({
      ...json('POST', `Photos(${photo()})`, { Title: 'Patched' }),
      headers: { 'content-type': JSON_TYPE, 'x-http-method': 'PATCH' },
    }),
    delete: () => ({ method: 'DELETE', path: random() < 0.5 ? `Albums(${album()})` : `Photos(${photo()})`, query: '' }),
    '$links add': () => json('POST', `Albums(${album()})/$links/Photos`, { uri: `Photos(${photo()})` }),
    '$links replace': () => json('PUT', `Photos(${photo()})/$links/Album`, { uri: `Albums(${album()})` }),
    '$links remove': () => ({
      method: 'DELETE',
      path: random() < 0.5 ? `Albums(${album()})/$links/Photos(${photo()})` : `Photos(${photo()})/$links/Album`,
      query: '',
    }),
    property: () => json('PUT', `Albums(${album()})/Name`, { Name: 'Prop' }),
    $value: () => ({ method: 'PUT', path: `Albums(${album()})/Name/$value`, query: '', headers: { 'content-type': 'text/plain' }, body: 'Raw' }),
    '$value delete': () => ({ method: 'DELETE', path: `Albums(${album()})/Name/$value`, query: '' }),
    'media resource': () => ({ method: 'PUT', path: `Photos(${photo()})/$value`, query: '', headers: { 'content-type': 'text/plain' }, body: 'new bytes' }),
    'service operation (POST)': () => ({ method: 'POST', path: 'AddAlbum', query: `ID=${fresh()}&Name='Op'`, headers: { accept: JSON_TYPE } }),
  };
}

function toRequest(spec: RequestSpec, context: RequestContext): ODataRequest {
  return { ...spec, headers: spec.headers ?? {}, body: spec.body === undefined ? undefined : Buffer.from(spec.body), serviceRoot: ROOT, context };
}

describe('a failed single write leaves nothing behind (fault-injecting provider)', () => {
  it('runs 3,000 randomized writes of every kind with every fault: no failed request leaves a write behind', async () => {
    const provider = freshProvider();
    const service = createService({ model: MODEL, provider, requireIfMatch: false, logger: () => undefined });
    const random = seededRandom(20261111);
    const kinds = Object.entries(writeKinds(random));
    const faults: readonly Fault[] = [...FAULTS, 'none'];
    const leftBehind: string[] = [];
    const failedByFault = new Map<Fault, number>();
    const kindsSeen = new Set<string>();
    let failed = 0;
    let succeeded = 0;
    for (let i = 0; i < 3000; i++) {
      const [kind, make] = kinds[Math.floor(random() * kinds.length)];
      const fault = faults[Math.floor(random() * faults.length)];
      provider.fault = fault;
      const before = snapshot(provider);
      const context: RequestContext = { request: {} as RequestContext['request'], state: new Map() };
      const response = await service.handle(toRequest(make(), context));
      provider.fault = 'none';
      if (response.status < 400) {
        succeeded++;
        continue;
      }
      failed++;
      kindsSeen.add(kind);
      failedByFault.set(fault, (failedByFault.get(fault) ?? 0) + 1);
      if (snapshot(provider) !== before) leftBehind.push(`#${i} ${kind} with fault ${fault}: ${response.status}`);
    }
    expect(leftBehind).toEqual([]);
    // The run was not vacuous: every kind failed at least once, every fault made requests fail, and writes without a fault succeeded.
    expect([...kindsSeen].sort()).toEqual(kinds.map(([kind]) => kind).sort());
    for (const fault of FAULTS) expect(failedByFault.get(fault) ?? 0).toBeGreaterThan(50);
    expect(failed).toBeGreaterThan(2000);
    expect(succeeded).toBeGreaterThan(100);
  });

  it.each(FAULTS)('over HTTP, fault %s: an OData error, and the create is not stored', async (fault) => {
    const provider = freshProvider();
    const app = express();
    app.use('/odata', odata({ model: MODEL, provider, requireIfMatch: false, logger: () => undefined }));
    const server = await startServer(app);
    try {
      const before = snapshot(provider);
      provider.fault = fault;
      const response = await request(server.url)
        .post('/odata/Photos')
        .set('content-type', 'image/png')
        .set('slug', 'y.png')
        .set('accept', JSON_TYPE)
        .send(Buffer.from([1, 2, 3]));
      provider.fault = 'none';
      expect(response.status).toBe(500);
      expect(response.body.error).toEqual({ code: 'INTERNAL', message: { lang: 'en-US', value: 'An internal error occurred.' } });
      expect(response.headers['x-injected']).toBeUndefined();
      expect(snapshot(provider)).toBe(before);
      expect((await request(server.url).get('/odata/Photos/$count')).text).toBe('4');
    } finally {
      await server.close();
    }
  });
});
