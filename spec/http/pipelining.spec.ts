/**
 * awaitTurn on stand-ins for Node's objects: a request whose response holds the connection is
 * served at once (no promise, so no wait); a queued one waits until its response gets the
 * connection, or is dropped when the connection closes first; a connection whose sending side
 * ended serves nothing more. Listeners are counted: one per connection, none left behind.
 * Node's side of it (queued responses, no socket after `Connection: close`) is spec/e2e/pipelined.spec.ts.
 */
import { EventEmitter } from 'events';
import type { IncomingMessage, ServerResponse } from 'http';
import { awaitTurn } from '../../lib/http';

class StandInSocket extends EventEmitter {
  destroyed = false;
  writableEnded = false;
}

class StandInResponse extends EventEmitter {
  constructor(public socket: StandInSocket | null | undefined) {
    super();
  }
  /** What Node's server does when every earlier response on the connection has finished. */
  assign(socket: StandInSocket): void {
    this.socket = socket;
    this.emit('socket', socket);
  }
}

function turnOf(requestSocket: StandInSocket | null | undefined, response: StandInResponse): boolean | Promise<boolean> {
  const request = { socket: requestSocket } as unknown as IncomingMessage;
  return awaitTurn(request, response as unknown as ServerResponse);
}

const open = (): StandInSocket => new StandInSocket();
const ended = (): StandInSocket => Object.assign(new StandInSocket(), { writableEnded: true });
const destroyed = (): StandInSocket => Object.assign(new StandInSocket(), { destroyed: true });

describe('awaitTurn', () => {
  it.each<[string, () => StandInSocket | null | undefined, () => StandInSocket | null | undefined, boolean]>([
    ['a response that is not Node’s (no socket field): served', open, () => undefined, true],
    ['a response that holds an open connection: served', open, open, true],
    ['a response that holds a connection whose sending side ended: dropped', ended, ended, false],
    ['a response that holds a connection its client destroyed: served, as before', destroyed, destroyed, true],
    ['a queued response on a connection whose sending side ended: dropped', ended, () => null, false],
    ['a queued response on a destroyed connection: dropped', destroyed, () => null, false],
    ['a queued response of a request without a connection: dropped', () => null, () => null, false],
  ])('%s, at once', (_case, requestSocket, responseSocket, served) => {
    const turn = turnOf(requestSocket(), new StandInResponse(responseSocket()));
    expect(turn).toBe(served);
  });

  it('a queued request is served when its response gets the connection, and leaves no listener', async () => {
    const socket = open();
    const response = new StandInResponse(null);
    const turn = turnOf(socket, response);
    expect(turn).toBeInstanceOf(Promise);
    expect(socket.listenerCount('close')).toBe(1);
    response.assign(socket);
    await expect(turn).resolves.toBe(true);
    expect(socket.listenerCount('close')).toBe(0);
    expect(response.listenerCount('socket')).toBe(0);
  });

  it('a queued request is dropped when the connection closes before its turn, and leaves no listener', async () => {
    const socket = open();
    const response = new StandInResponse(null);
    const turn = turnOf(socket, response);
    socket.destroyed = true;
    socket.emit('close');
    await expect(turn).resolves.toBe(false);
    expect(socket.listenerCount('close')).toBe(0);
    expect(response.listenerCount('socket')).toBe(0);
  });

  it('a hundred requests pipelined on one connection: one close listener; each served in turn, the rest dropped at the close', async () => {
    const socket = open();
    const responses = Array.from({ length: 100 }, () => new StandInResponse(null));
    const turns = responses.map((response) => turnOf(socket, response));
    expect(socket.listenerCount('close')).toBe(1);
    responses[0].assign(socket);
    await expect(turns[0]).resolves.toBe(true);
    expect(socket.listenerCount('close')).toBe(1);
    socket.writableEnded = true;
    socket.destroyed = true;
    socket.emit('close');
    expect(await Promise.all(turns.slice(1).map(async (turn) => turn))).toEqual(Array.from({ length: 99 }, () => false));
    expect(socket.listenerCount('close')).toBe(0);
  });

  it('a request queued after the earlier waiters of its connection were served gets a close listener of its own, and leaves none', async () => {
    const socket = open();
    const first = new StandInResponse(null);
    const firstTurn = turnOf(socket, first);
    first.assign(socket);
    await expect(firstTurn).resolves.toBe(true);
    const second = new StandInResponse(null);
    const secondTurn = turnOf(socket, second);
    expect(socket.listenerCount('close')).toBe(1);
    second.assign(socket);
    await expect(secondTurn).resolves.toBe(true);
    expect(socket.listenerCount('close')).toBe(0);
  });
});
