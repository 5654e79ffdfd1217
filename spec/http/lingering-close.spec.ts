/**
 * A refused body's connection closes in stages (RFC 9112 §9.6): half-closed after the answer, read
 * (and dropped) until the client closes, cut after a byte budget or a time bound. The bounds are
 * pinned with jest fake timers on a stand-in socket; a real server pins that Node's http server
 * still closes a `Connection: close` response through `socket.destroySoon()`, the one call the
 * staged close replaces (without it the connection would close at once, as before).
 */
import { EventEmitter } from 'events';
import express from 'express';
import type { IncomingMessage } from 'http';
import net from 'net';
import { PassThrough } from 'stream';
import { readRawBody } from '../../lib/http';
import type { ExpressLikeRequest } from '../../lib/http';
import { isODataError } from '../../lib/errors';
import { lingerAfterRefusal } from '../../lib/http/lingering-close';
import { startServer } from '../helpers/server';

/** Just what the staged close uses of a socket, recording what was done to it. */
class StandInSocket extends EventEmitter {
  readonly calls: string[] = [];
  destroyed = false;
  end(): void {
    this.calls.push('end');
  }
  destroy(): void {
    this.calls.push('destroy');
    this.destroyed = true;
  }
  destroySoon(): void {
    this.calls.push('destroySoon of Node');
  }
}

function refusedRequest(socket: StandInSocket | null): { request: IncomingMessage; body: PassThrough } {
  const body = new PassThrough();
  return { request: Object.assign(body, { headers: {}, socket }) as unknown as IncomingMessage, body };
}

describe('lingerAfterRefusal (jest fake timers)', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());
  const bounds = { lingerMs: 2000, maxDiscardedBytes: 1000 };

  it('half-closes when Node closes the connection, reads on, and cuts it exactly after lingerMs', async () => {
    const socket = new StandInSocket();
    const { request, body } = refusedRequest(socket);
    lingerAfterRefusal(request, bounds);
    socket.destroySoon();
    expect(socket.calls).toEqual(['end']);
    body.write('x'.repeat(1000));
    await jest.advanceTimersByTimeAsync(1999);
    expect(socket.calls).toEqual(['end']);
    await jest.advanceTimersByTimeAsync(1);
    expect(socket.calls).toEqual(['end', 'destroy']);
  });

  it('leaves no timer once the client closed its side', async () => {
    const socket = new StandInSocket();
    lingerAfterRefusal(refusedRequest(socket).request, bounds);
    socket.destroySoon();
    expect(jest.getTimerCount()).toBe(1);
    socket.emit('close');
    expect(jest.getTimerCount()).toBe(0);
    await jest.advanceTimersByTimeAsync(2000);
    expect(socket.calls).toEqual(['end']);
  });

  it.each<[string, number[], string[]]>([
    ['within the byte budget: read and dropped', [600, 400], []],
    ['past the byte budget: the connection is cut at once', [600, 401], ['destroy']],
  ])('a body that keeps arriving, %s', async (_case, chunks, calls) => {
    const socket = new StandInSocket();
    const { request, body } = refusedRequest(socket);
    lingerAfterRefusal(request, bounds);
    for (const size of chunks) body.write(Buffer.alloc(size));
    await jest.advanceTimersByTimeAsync(0);
    expect(socket.calls).toEqual(calls);
    expect(body.readableFlowing).toBe(true);
  });

  it('a socket that is already gone is left alone', () => {
    const socket = new StandInSocket();
    socket.destroyed = true;
    lingerAfterRefusal(refusedRequest(socket).request, bounds);
    socket.destroySoon();
    expect(socket.calls).toEqual(['destroySoon of Node']);
  });
});

describe('a refused body on a real server: the answer, the end of the stream, then the client closes', () => {
  // The linger's own timer is faked, so only the client's close can end the connection here.
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] }));
  afterEach(() => jest.useRealTimers());

  it('Node closes a Connection: close answer through destroySoon, so the server still reads after the 413', async () => {
    // What the server read of the refused body, counted when its side of the connection closed.
    let serverRead: (bytes: number) => void = () => undefined;
    const readByServer = new Promise<number>((resolve) => (serverRead = resolve));
    const app = express();
    app.use((req, res) => {
      readRawBody(req as unknown as ExpressLikeRequest, 16).catch((error: unknown) => {
        res.status(isODataError(error) ? error.status : 500).set(isODataError(error) ? error.headers : {});
        res.send(isODataError(error) ? error.code : 'bug');
      });
      let bytes = 0;
      req.on('data', (chunk: Buffer) => (bytes += chunk.length));
      req.socket.on('close', () => serverRead(bytes));
    });
    const server = await startServer(app);
    try {
      const { hostname, port } = new URL(server.url);
      // A client that reads what the server sends, and writes once more after the server's end.
      const socket = net.connect({ port: Number(port), host: hostname, allowHalfOpen: true });
      let response = '';
      const errors: string[] = [];
      socket.on('data', (data: Buffer) => (response += data.toString('latin1')));
      socket.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message));
      socket.on('end', () => {
        socket.write('y'.repeat(64 * 1024));
        socket.end();
      });
      socket.write(`POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${1024 * 1024}\r\n\r\n${'x'.repeat(64 * 1024)}`);
      const hadError = await new Promise<boolean>((resolve) => socket.on('close', resolve));
      expect(response).toMatch(/^HTTP\/1\.1 413 /);
      expect(response.toLowerCase()).toContain('\r\nconnection: close\r\n');
      expect(response.endsWith('BODY_TOO_LARGE')).toBe(true);
      expect(errors).toEqual([]);
      expect(hadError).toBe(false);
      // Both chunks, the one after the answer too: the server read until the client closed.
      expect(await readByServer).toBe(2 * 64 * 1024);
    } finally {
      await server.close();
    }
  });
});
