/**
 * Pipelined requests (RFC 9112 §9.3.2) behind an answer that closes the connection. Node's http
 * server emits 'request' for every request it parses, at once, and queues the responses in order:
 * a request can reach the service while an earlier one on its connection is still being answered,
 * or after that answer closed the connection. RFC 9112 §9.6: "A server that sends a 'close'
 * connection option MUST NOT process any further requests received on that connection." A client
 * told so retries such a request, which would then run twice.
 *
 * Node keeps the state this needs: a queued response has no socket until every earlier response
 * on the connection has finished, and gets none when one of them closed the connection (it carried
 * `Connection: close`, whichever middleware sent it); a request parsed after such an answer finds
 * the connection's sending side ended (lingering-close.ts keeps reading after it).
 */
import type { IncomingMessage, ServerResponse } from 'http';
import type { Socket } from 'net';

/** The queued requests of one connection, woken together when it closes. */
interface Waiters {
  readonly wakers: Set<() => void>;
  readonly wakeAll: () => void;
}

/** One 'close' listener per connection, however many requests a client pipelines on it. */
const waitersOf = new WeakMap<Socket, Waiters>();

/**
 * Has an answer closed the connection? Node ends its sending side after a `Connection: close`
 * answer (lingering-close.ts goes on reading). A client that went away is not this: its request
 * is served as before.
 */
function isClosing(socket: Socket): boolean {
  return socket.writableEnded;
}

/**
 * Whether the service may process `request`: true at once when its response holds the connection
 * (every request that is not pipelined), else when every earlier response on the connection has
 * finished; false when an earlier answer closed the connection, or it closed before this
 * request's turn (nothing must be read or done for it). A response that is not Node's (no `socket`
 * field) is always its turn.
 */
export function awaitTurn(request: IncomingMessage, response: ServerResponse): boolean | Promise<boolean> {
  if (response.socket === undefined) return true;
  if (response.socket !== null) return !isClosing(response.socket);
  // Null once Node detached it, undefined for a stream that only looks like a request.
  const socket = request.socket as Socket | null | undefined;
  if (socket === null || socket === undefined || socket.destroyed || isClosing(socket)) return false;
  return new Promise((resolve) => {
    const waiters = waitersOn(socket);
    const wake = (): void => {
      response.off('socket', wake);
      waiters.wakers.delete(wake);
      if (waiters.wakers.size === 0) {
        socket.off('close', waiters.wakeAll);
        waitersOf.delete(socket);
      }
      resolve(response.socket !== null && !isClosing(response.socket));
    };
    response.on('socket', wake);
    waiters.wakers.add(wake);
  });
}

function waitersOn(socket: Socket): Waiters {
  const known = waitersOf.get(socket);
  if (known !== undefined) return known;
  const wakers = new Set<() => void>();
  // A copy: each waker removes itself from the set.
  const waiters: Waiters = { wakers, wakeAll: () => [...wakers].forEach((wake) => wake()) };
  waitersOf.set(socket, waiters);
  socket.on('close', waiters.wakeAll);
  return waiters;
}
