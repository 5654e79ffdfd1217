/**
 * odataErrorHandler / bodyParserErrorToOData: which host body-parser failures become which OData
 * errors (the types body-parser documents), and that anything else passes to the next handler.
 */
import express from 'express';
import request from 'supertest';
import { bodyParserErrorToOData } from '../../lib/http/error-handler';
import { ODataError, odataErrorHandler } from '../../lib';
import { startServer } from '../helpers/server';

/** An error shaped as body-parser raises it (http-errors: `type`, `status`, `expose`). */
function parserError(type: string, message: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { type, expose: true, status: 400, ...extra });
}

describe('bodyParserErrorToOData', () => {
  it.each([
    [
      'entity.too.large',
      parserError('entity.too.large', 'request entity too large', { limit: 100, status: 413 }),
      413,
      'BODY_TOO_LARGE',
      'The request body exceeds the limit of 100 bytes.',
    ],
    [
      'entity.parse.failed',
      parserError('entity.parse.failed', 'Unexpected end of JSON input'),
      400,
      'BODY_SYNTAX',
      'The request body is not well-formed JSON: Unexpected end of JSON input',
    ],
    [
      'charset.unsupported',
      parserError('charset.unsupported', 'unsupported charset "KOI8-R"', { status: 415 }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'Unsupported content type \'application/json; charset=koi8-r\': unsupported charset "KOI8-R"',
    ],
    [
      'encoding.unsupported',
      parserError('encoding.unsupported', 'unsupported content encoding "br"', { status: 415 }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'Unsupported content type \'application/json; charset=koi8-r\': unsupported content encoding "br"',
    ],
    [
      'request.size.invalid',
      parserError('request.size.invalid', 'request size did not match content length'),
      400,
      'BAD_REQUEST',
      'The request body is not as long as its Content-Length says.',
    ],
    ['request.aborted', parserError('request.aborted', 'request aborted'), 400, 'BAD_REQUEST', 'The request was aborted before its body was read.'],
  ])('%s -> %i %s', (_type, error, status, code, message) => {
    const odata = bodyParserErrorToOData(error, 'application/json; charset=koi8-r');
    expect([odata?.status, odata?.code, odata?.message]).toEqual([status, code, message]);
    expect(odata?.cause).toBe(error);
  });

  it.each([
    ['an error without a type', new Error('boom')],
    [
      'an unexposed body-parser error (a server problem)',
      Object.assign(new Error('stream encoding should not be set'), { type: 'stream.encoding.set', expose: false, status: 500 }),
    ],
    ['an unknown type', parserError('something.else', 'x')],
    ['not an Error', { type: 'entity.parse.failed', expose: true }],
  ])('leaves %s alone', (_what, error) => {
    expect(bodyParserErrorToOData(error, undefined)).toBeUndefined();
  });
});

describe('odataErrorHandler', () => {
  it('is Express error middleware (four parameters) that passes other errors on unchanged', async () => {
    const handler = odataErrorHandler();
    expect(handler.length).toBe(4);
    const app = express();
    const seen: unknown[] = [];
    const thrown = new Error('not a body problem');
    app.get('/odata/x', () => {
      throw thrown;
    });
    app.use('/odata', handler);
    app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      seen.push(error);
      res.status(599).end();
    });
    const server = await startServer(app);
    try {
      expect((await request(server.url).get('/odata/x')).status).toBe(599);
      expect(seen).toEqual([thrown]);
    } finally {
      await server.close();
    }
  });

  it.each([
    ['XML by default', '', 'application/xml;charset=utf-8', '<m:code>FORBIDDEN</m:code>'],
    ['JSON when asked', '?$format=json', 'application/json;charset=utf-8', '"code":"FORBIDDEN"'],
  ])("answers an ODataError the host's middleware passes on as itself, headers included: %s", async (_format, query, contentType, code) => {
    const app = express();
    app.use('/odata', (_req, _res, next) => next(ODataError.fromCode('FORBIDDEN', { detail: 'Not yours.' }, { headers: { 'x-reason': 'policy' } })));
    app.use('/odata', odataErrorHandler());
    const server = await startServer(app);
    try {
      const response = await request(server.url).get(`/odata/Products${query}`);
      expect([response.status, response.headers['content-type'], response.headers['x-reason']]).toEqual([403, contentType, 'policy']);
      expect(response.text).toContain(code);
      expect(response.text).toContain('Not yours.');
    } finally {
      await server.close();
    }
  });
});
