/**
 * Media resources (m:HasStream), open types and OnDelete end to end, on a small gallery model.
 */
import express from 'express';
import request from 'supertest';
import { readFileSync } from 'fs';
import { join } from 'path';
import { loadEdmx, MemoryProvider, odata } from '../../lib';
import { startServer, type RunningServer } from '../helpers/server';

const MODEL = loadEdmx(readFileSync(join(__dirname, '..', 'fixtures', 'e2e', 'gallery.xml'), 'utf8'));
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0x10]);

function galleryApp() {
  const provider = new MemoryProvider(MODEL, {
    Albums: [{ ID: 1, Name: 'Holidays' }],
    Photos: [],
    Owners: [{ ID: 1 }, { ID: 2 }],
    Notes: [{ ID: 1, Text: 'first', Owner: 1, Mood: 'happy', Stars: 4 }],
  });
  const app = express();
  app.use('/odata', odata({ model: MODEL, provider }));
  return app;
}

describe('media, open types and OnDelete', () => {
  let server: RunningServer;
  beforeEach(async () => {
    server = await startServer(galleryApp());
  });
  afterEach(() => server.close());
  const api = () => request(server.url);

  describe('media resources', () => {
    it('creates a media link entry from a raw body, serves and replaces its media', async () => {
      const created = await api().post('/odata/Photos').set('content-type', 'image/png').set('slug', 'beach.png').set('accept', 'application/json').send(PNG);
      expect(created.status).toBe(201);
      const location = created.headers['location'];
      expect(location).toMatch(/\/odata\/Photos\(1\)$/);
      const metadata = created.body.d.__metadata;
      expect(metadata).toMatchObject({
        media_src: `${server.url}/odata/Photos(1)/$value`,
        edit_media: `${server.url}/odata/Photos(1)/$value`,
        content_type: 'image/png',
      });

      const media = await api()
        .get('/odata/Photos(1)/$value')
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        });
      expect(media.status).toBe(200);
      expect(media.headers['content-type']).toBe('image/png');
      expect(Buffer.compare(media.body as Buffer, PNG)).toBe(0);

      const atom = await api().get('/odata/Photos(1)');
      expect(atom.text).toContain('<content type="image/png" src="Photos(1)/$value"/>');
      expect(atom.text).toContain('rel="edit-media"');
      expect(atom.text).toMatch(/<m:properties>.*<d:ID m:type="Edm.Int32">1<\/d:ID>/);

      const etag = atom.headers['etag'];
      const replaced = await api().put('/odata/Photos(1)/$value').set('content-type', 'text/plain').set('if-match', etag).send('now text');
      expect(replaced.status).toBe(204);
      const again = await api().get('/odata/Photos(1)/$value');
      expect([again.headers['content-type'], again.text]).toEqual(['text/plain', 'now text']);
    });

    it('creates a media link entry from an HTML form upload', async () => {
      const created = await api()
        .post('/odata/Photos')
        .set('accept', 'application/json')
        .attach('file', PNG, { filename: 'upload.png', contentType: 'image/png' });
      expect(created.status).toBe(201);
      expect(created.body.d.__metadata.content_type).toBe('image/png');
    });

    it("checks If-Match on a media read against the entry's ETag: 412 when stale", async () => {
      await api().post('/odata/Photos').set('content-type', 'image/png').send(PNG);
      const etag = (await api().get('/odata/Photos(1)')).headers['etag'];
      expect(etag).toMatch(/^W\/"\d+"$/);
      const stale = await api().get('/odata/Photos(1)/$value').set('if-match', 'W/"99"').set('accept', 'application/json');
      expect([stale.status, stale.body.error.code]).toEqual([412, 'PRECONDITION_FAILED']);
      expect((await api().get('/odata/Photos(1)/$value').set('if-match', etag)).status).toBe(200);
      expect((await api().get('/odata/Photos(1)/$value').set('if-match', '*')).status).toBe(200);
      expect((await api().get('/odata/Photos(9)/$value').set('if-match', '*')).status).toBe(404);
    });

    it('deletes the media resource with its entry', async () => {
      await api().post('/odata/Photos').set('content-type', 'image/png').send(PNG);
      const etag = (await api().get('/odata/Photos(1)')).headers['etag'];
      expect((await api().delete('/odata/Photos(1)').set('if-match', etag)).status).toBe(204);
      expect((await api().get('/odata/Photos(1)/$value')).status).toBe(404);
    });
  });

  describe('open types', () => {
    it('reads dynamic properties in JSON and Atom', async () => {
      const json = await api().get('/odata/Notes(1)?$format=json');
      expect(json.body.d).toMatchObject({ ID: 1, Text: 'first', Mood: 'happy', Stars: 4 });
      const atom = await api().get('/odata/Notes(1)');
      expect(atom.text).toContain('<d:Mood>happy</d:Mood>');
      expect(atom.text).toContain('<d:Stars m:type="Edm.Int32">4</d:Stars>');
    });

    it('filters on dynamic properties; absent ones are null', async () => {
      const response = await api().get("/odata/Notes?$filter=Mood eq 'happy'&$format=json");
      expect(response.body.d.results.map((n: { ID: number }) => n.ID)).toEqual([1]);
      const none = await api().get('/odata/Notes?$filter=Colour eq null&$format=json');
      expect(none.body.d.results.map((n: { ID: number }) => n.ID)).toEqual([1]);
    });

    it('MERGE adds dynamic properties; PUT removes the ones not mentioned; null stays present', async () => {
      expect((await api().merge('/odata/Notes(1)').set('content-type', 'application/json').send({ Colour: 'blue' })).status).toBe(204);
      expect((await api().get('/odata/Notes(1)?$format=json')).body.d).toMatchObject({ Mood: 'happy', Colour: 'blue' });
      expect((await api().put('/odata/Notes(1)').set('content-type', 'application/json').send({ ID: 1, Text: 'rewritten', Mood: null })).status).toBe(204);
      const after = (await api().get('/odata/Notes(1)?$format=json')).body.d;
      expect(after).toMatchObject({ Text: 'rewritten', Mood: null });
      expect(after).not.toHaveProperty('Colour');
      expect(after).not.toHaveProperty('Stars');
    });

    it('creates an open entry with dynamic properties from Atom', async () => {
      const body = `<entry xmlns="http://www.w3.org/2005/Atom" xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"><link rel="http://schemas.microsoft.com/ado/2007/08/dataservices/related/Owner" href="Owners(2)"/><content type="application/xml"><m:properties><d:ID m:type="Edm.Int32">2</d:ID><d:Weight m:type="Edm.Decimal">1.25</d:Weight></m:properties></content></entry>`;
      const created = await api().post('/odata/Notes').set('content-type', 'application/atom+xml').send(body);
      expect(created.status).toBe(201);
      expect((await api().get('/odata/Notes(2)?$format=json')).body.d.Weight).toBe('1.25');
    });
  });

  describe('OnDelete', () => {
    it('cascades from an album to its photos', async () => {
      await api().post('/odata/Albums(1)/Photos').set('content-type', 'image/png').send(PNG);
      expect((await api().get('/odata/Albums(1)/Photos/$count')).text).toBe('1');
      expect((await api().delete('/odata/Albums(1)')).status).toBe(204);
      expect((await api().get('/odata/Photos/$count')).text).toBe('0');
    });

    it('refuses to delete a required end that still has dependents, and changes nothing', async () => {
      const response = await api().delete('/odata/Owners(1)').set('accept', 'application/json');
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('CONSTRAINT_VIOLATION');
      expect((await api().get('/odata/Notes(1)/Owner?$format=json')).body.d.ID).toBe(1);
      expect((await api().delete('/odata/Owners(2)')).status).toBe(204);
    });
  });
});
