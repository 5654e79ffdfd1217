/** Request bodies are bounded whether or not they announce their length. */
import express from 'express';
import { request as httpRequest } from 'http';
import { readRawBody } from '../../lib/http';
import type { ExpressLikeRequest } from '../../lib/http';
import { isODataError } from '../../lib/errors';
import { startServer, type RunningServer } from '../helpers/server';

describe('readRawBody', () => {
  let server: RunningServer;
  beforeAll(async () => {
    const app = express();
    app.use((req, res) => {
      readRawBody(req as unknown as ExpressLikeRequest, 16).then(
        (body) => res.send(body === undefined ? '(none)' : `${body.length}:${body.toString('utf8')}`),
        (error: unknown) => res.status(isODataError(error) ? error.status : 500).send(isODataError(error) ? error.code : 'bug'),
      );
    });
    server = await startServer(app);
  });
  afterAll(() => server.close());

  /** Send `chunks` with chunked transfer encoding (no Content-Length). */
  function send(chunks: string[] | undefined, headers: Record<string, string> = {}): Promise<[number, string]> {
    return new Promise((resolve, reject) => {
      const url = new URL(server.url);
      const req = httpRequest({ host: url.hostname, port: url.port, method: 'POST', path: '/', headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve([res.statusCode ?? 0, text]));
      });
      req.on('error', reject);
      for (const chunk of chunks ?? []) req.write(chunk);
      req.end();
    });
  }

  it.each<[string, string[] | undefined, Record<string, string>, [number, string]]>([
    ['no body', undefined, { 'content-length': '0' }, [200, '(none)']],
    ['a body by Content-Length', ['héllo'], { 'content-length': '6' }, [200, '6:héllo']],
    ['a chunked body within the limit', ['abc', 'def'], {}, [200, '6:abcdef']],
    ['a chunked body of exactly the limit', ['0123456789', 'abcdef'], {}, [200, '16:0123456789abcdef']],
    ['a chunked body over the limit', ['0123456789', 'abcdefg'], {}, [413, 'BODY_TOO_LARGE']],
    ['a Content-Length over the limit', ['x'.repeat(17)], { 'content-length': '17' }, [413, 'BODY_TOO_LARGE']],
  ])('%s', async (_case, chunks, headers, expected) => {
    expect(await send(chunks, headers)).toEqual(expected);
  });
});
