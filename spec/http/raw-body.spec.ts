/** Request bodies are bounded whether or not they announce their length, and in time. */
import express from 'express';
import { request as httpRequest, type IncomingMessage } from 'http';
import { PassThrough } from 'stream';
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

describe('readRawBody within limits.bodyTimeout (jest fake timers)', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  /** A request whose body arrives when the spec writes it. */
  function arriving(headers: Record<string, string>): { request: IncomingMessage; body: PassThrough } {
    const body = new PassThrough();
    return { request: Object.assign(body, { headers }) as unknown as IncomingMessage, body };
  }

  /** The outcome of `promise` so far: pending, the bytes, or the error's status, code and headers. */
  function watch(promise: Promise<Buffer | undefined>): () => unknown {
    let outcome: unknown = 'pending';
    void promise.then(
      (bytes) => (outcome = bytes?.toString('utf8')),
      (error: unknown) => (outcome = isODataError(error) ? [error.status, error.code, error.headers] : error),
    );
    return () => outcome;
  }

  it('refuses a body that has not arrived after exactly the timeout: 408 BODY_TIMEOUT, Connection: close', async () => {
    const { request, body } = arriving({ 'content-length': '1000000' });
    const outcome = watch(readRawBody(request, 1024 * 1024, 300));
    body.write('{"ID":7');
    await jest.advanceTimersByTimeAsync(299);
    expect(outcome()).toBe('pending');
    await jest.advanceTimersByTimeAsync(1);
    expect(outcome()).toEqual([408, 'BODY_TIMEOUT', { connection: 'close' }]);
  });

  it('counts the timeout from the start of the body, not between chunks: a body that trickles is refused', async () => {
    const { request, body } = arriving({ 'transfer-encoding': 'chunked' });
    const outcome = watch(readRawBody(request, 1024, 300));
    for (let elapsed = 0; elapsed < 300; elapsed += 50) {
      body.write(' ');
      expect(outcome()).toBe('pending');
      await jest.advanceTimersByTimeAsync(50);
    }
    expect(outcome()).toEqual([408, 'BODY_TIMEOUT', { connection: 'close' }]);
  });

  it('reads a body that ends just in time, and leaves no timer behind', async () => {
    const { request, body } = arriving({ 'content-length': '7' });
    const outcome = watch(readRawBody(request, 1024, 300));
    body.write('{"ID":');
    await jest.advanceTimersByTimeAsync(299);
    body.end('7');
    await jest.advanceTimersByTimeAsync(0);
    expect(outcome()).toBe('{"ID":7');
    expect(jest.getTimerCount()).toBe(0);
  });
});
