/**
 * Closing a connection whose request body was refused while it was still arriving (413, 408),
 * in stages, as RFC 9112 §9.6 describes. Closing a socket that still has unread bytes of the
 * body makes the kernel send a reset, and a client that is still uploading then loses the answer
 * waiting in its own buffer ("connection reset" instead of the 413). So, after the answer:
 *
 * 1. the write side is half-closed (the client reads the answer, then the end of the stream);
 * 2. what still arrives is read and dropped, until the client closes its side (a client that
 *    reads what the server sends does so at once), and
 * 3. the connection is cut, with the reset, when the client keeps sending past a byte budget (a
 *    flood is not read: no core spent on it) or keeps the connection past a time bound.
 *
 * Node's http server ends a `Connection: close` response's socket with `socket.destroySoon()`
 * (end, then destroy as soon as the end is written): that one call is replaced on the refused
 * request's socket. Where Node does not call it (or the socket has none), the connection closes
 * as Node closes it, at once; spec/http/lingering-close.spec.ts pins that Node still calls it.
 */
import type { IncomingMessage } from 'http';
import type { Socket } from 'net';

interface LingerBounds {
  /** How long the read side stays open after the answer is out, waiting for the client to close. */
  readonly lingerMs: number;
  /** How many bytes of the refused body are read and dropped, at most, before the connection is cut. */
  readonly maxDiscardedBytes: number;
}

/** Apache lingers 2 s; 4 MiB is a few chunks of a fast upload, and milliseconds of CPU. */
const DEFAULT_BOUNDS: LingerBounds = { lingerMs: 2000, maxDiscardedBytes: 4 * 1024 * 1024 };

type NodeSocket = Socket & { destroySoon?: unknown };

/**
 * Stop collecting the body of `request` (refused), drop what still arrives within the budget, and
 * close its connection in stages once the answer is out.
 */
export function lingerAfterRefusal(request: IncomingMessage, bounds: LingerBounds = DEFAULT_BOUNDS): void {
  // Null once Node detached it, undefined for a stream that only looks like a request.
  const socket = request.socket as NodeSocket | null | undefined;
  let discarded = 0;
  request.removeAllListeners('data');
  request.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > bounds.maxDiscardedBytes) socket?.destroy();
  });
  request.resume();
  if (!socket || socket.destroyed || typeof socket.destroySoon !== 'function') return;
  socket.destroySoon = () => closeInStages(socket, bounds.lingerMs);
}

function closeInStages(socket: Socket, lingerMs: number): void {
  if (socket.destroyed) return;
  // The http server's sockets allow half-open connections: the client's end then closes this one.
  socket.end();
  const cut = setTimeout(() => socket.destroy(), lingerMs);
  cut.unref();
  socket.once('close', () => clearTimeout(cut));
}
