/**
 * The service inside apps that already run body parsers: it reads the raw stream when the parser
 * left it unread, and uses what the parser produced when it consumed it.
 */
import express4 from 'express4';
import express5 from 'express';
import request from 'supertest';
import { readFileSync } from 'fs';
import { join } from 'path';
import { loadEdmx, MemoryProvider, odata } from '../../lib';
import { startServer, type RunningServer } from '../helpers/server';

const FIXTURE = join(__dirname, '..', 'fixtures', 'odata-demo');
const ATOM_ENTRY = `<entry xmlns="http://www.w3.org/2005/Atom" xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"><content type="application/xml"><m:properties><d:ID m:type="Edm.Int32">7</d:ID><d:Name>Tools</d:Name></m:properties></content></entry>`;

type Parser = 'json' | 'text' | 'raw' | 'urlencoded';

describe.each([
  ['Express 4', express4],
  ['Express 5', express5],
] as const)('body parsers before the service on %s', (_name, expressModule) => {
  describe.each<[Parser]>([['json'], ['text'], ['raw'], ['urlencoded']])('with express.%s()', (parser) => {
    let server: RunningServer;
    beforeAll(async () => {
      const model = loadEdmx(readFileSync(join(FIXTURE, 'metadata.xml'), 'utf8'));
      const provider = new MemoryProvider(model, { Categories: [{ ID: 0, Name: 'Food' }] });
      const app = expressModule();
      const options = parser === 'text' || parser === 'raw' ? { type: '*/*' } : {};
      app.use(expressModule[parser](options as never));
      app.use('/odata', odata({ model, provider }));
      server = await startServer(app);
    });
    afterAll(() => server.close());

    it('creates from a JSON body', async () => {
      const response = await request(server.url)
        .post('/odata/Categories')
        .set('content-type', 'application/json')
        .set('accept', 'application/json')
        .send('{"ID":5,"Name":"Grüne Waren"}');
      expect(response.status).toBe(201);
      expect(response.body.d.Name).toBe('Grüne Waren');
    });

    it('creates from an Atom body', async () => {
      const response = await request(server.url).post('/odata/Categories').set('content-type', 'application/atom+xml').send(ATOM_ENTRY);
      expect(response.status).toBe(201);
      expect(response.text).toContain('<d:Name>Tools</d:Name>');
    });
  });
});
