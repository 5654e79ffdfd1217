/**
 * 405 over HTTP: the dispatch table is derived from the methods the provider implements, and every
 * 405 names what the resource takes in an `Allow` header (RFC 9110 §15.5.6). A missing readMedia
 * is answered like a missing writeMedia. Four services share one MemoryProvider's data: the full
 * provider, one with `query` only, and one each with only readMedia or only writeMedia added.
 */
import express from 'express';
import request from 'supertest';
import { readFileSync } from 'fs';
import { join } from 'path';
import { loadEdmx, MemoryProvider, odata } from '../../lib';
import type { DataProvider } from '../../lib';
import { startServer, type RunningServer } from '../helpers/server';

const MODEL = loadEdmx(readFileSync(join(__dirname, '..', 'fixtures', 'e2e', 'gallery.xml'), 'utf8'));
const JSON_TYPE = 'application/json';

/** `query` and `mediaOf` of the shared provider, plus the media methods named. */
function limited(provider: MemoryProvider, media: readonly ('readMedia' | 'writeMedia')[]): DataProvider {
  return {
    query: (queryRequest, context) => provider.query(queryRequest, context),
    mediaOf: (entity, type) => provider.mediaOf(entity, type),
    ...(media.includes('readMedia') ? { readMedia: (entity, context) => provider.readMedia(entity, context) } : {}),
    ...(media.includes('writeMedia')
      ? { writeMedia: (entity, content, precondition, context) => provider.writeMedia(entity, content, precondition, context) }
      : {}),
  };
}

function app() {
  const provider = new MemoryProvider(MODEL, {
    Albums: [{ ID: 1, Name: 'Holidays' }],
    Photos: [],
    Owners: [{ ID: 1 }],
    Notes: [{ ID: 1, Text: 'first', Owner: 1 }],
  });
  const host = express();
  host.use('/full', odata({ model: MODEL, provider }));
  host.use('/readonly', odata({ model: MODEL, provider: limited(provider, []) }));
  host.use('/read-media', odata({ model: MODEL, provider: limited(provider, ['readMedia']) }));
  host.use('/write-media', odata({ model: MODEL, provider: limited(provider, ['writeMedia']) }));
  return host;
}

describe('405 Method Not Allowed, derived from the provider', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(app());
    const created = await request(server.url).post('/full/Photos').set('content-type', 'image/png').set('accept', JSON_TYPE).send(Buffer.from('PNG'));
    expect(created.status).toBe(201);
  });
  afterAll(() => server.close());

  const send = (method: string, path: string) => {
    const verb = method === 'MERGE' ? 'merge' : (method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head');
    return request(server.url)[verb](path).set('accept', JSON_TYPE).set('if-match', '*');
  };

  it.each([
    // A read-only provider: every write is 405 and Allow lists what reads remain.
    ['POST', '/readonly/Photos', 'GET'],
    ['POST', '/readonly/Albums(1)/Photos', 'GET'],
    ['PUT', '/readonly/Albums(1)', 'GET'],
    ['MERGE', '/readonly/Albums(1)', 'GET'],
    ['PATCH', '/readonly/Albums(1)', 'GET'],
    ['DELETE', '/readonly/Albums(1)', 'GET'],
    ['PUT', '/readonly/Albums(1)/Name', 'GET'],
    ['MERGE', '/readonly/Albums(1)/Name', 'GET'],
    ['PUT', '/readonly/Albums(1)/Name/$value', 'GET'],
    ['DELETE', '/readonly/Albums(1)/Name/$value', 'GET'],
    ['POST', '/readonly/Albums(1)/$links/Photos', 'GET'],
    ['PUT', '/readonly/Notes(1)/$links/Owner', 'GET'],
    ['DELETE', '/readonly/Notes(1)/$links/Owner', 'GET'],
    // Neither readMedia nor writeMedia: the media resource takes no method at all.
    ['GET', '/readonly/Photos(1)/$value', ''],
    ['PUT', '/readonly/Photos(1)/$value', ''],
    // One of the two: the other is 405, the same way round.
    ['PUT', '/read-media/Photos(1)/$value', 'GET'],
    ['GET', '/write-media/Photos(1)/$value', 'PUT'],
    ['HEAD', '/write-media/Photos(1)/$value', 'PUT'],
    // Methods no provider changes.
    ['POST', '/full/$metadata', 'GET'],
    ['GET', '/full/$batch', 'POST'],
    ['DELETE', '/full/Photos', 'GET, POST'],
    ['POST', '/full/Photos/$count', 'GET'],
    ['DELETE', '/full/Albums(1)/Name', 'GET, PUT, MERGE, PATCH'],
    ['PUT', '/full/Albums(1)/$links/Photos', 'GET, POST'],
    ['PUT', '/full/Albums(1)/$links/Photos(1)', 'GET, DELETE'],
    ['POST', '/full/Notes(1)/$links/Owner', 'GET, PUT, DELETE'],
  ])('%s %s is 405 with Allow: %s', async (method, path, allow) => {
    const response = await send(method, path);
    expect([response.status, response.headers['allow']]).toEqual([405, allow]);
    if (method !== 'HEAD') expect(response.body.error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('serves what the limited providers do implement', async () => {
    expect((await send('GET', '/readonly/Photos(1)')).status).toBe(200);
    expect((await send('GET', '/read-media/Photos(1)/$value')).status).toBe(200);
    const replaced = await request(server.url)
      .put('/write-media/Photos(1)/$value')
      .set('content-type', 'image/gif')
      .set('if-match', '*')
      .send(Buffer.from('GIF89a'));
    expect(replaced.status).toBe(204);
  });
});
