/**
 * A TCP proxy in front of a PostgreSQL server, for the one failure a server cannot be asked for:
 * a connection that closes after the server received a statement and answered it, before the
 * answer reached the client. `loseReplyTo(text)` forwards the next client message that contains
 * `text` (as sent, case and all), waits for the server's first bytes back (the statement has run, and a COMMIT or a
 * statement that commits by itself has committed), drops them and closes both sides. Everything
 * else passes through untouched.
 */
import { connect, createServer, type Server, type Socket } from 'net';

export interface TcpProxy {
  /** The port to connect to instead of the server's. */
  readonly port: number;
  /** Arm the cut (see the module comment); resolves once the reply was dropped and the connection closed. */
  loseReplyTo(text: string): Promise<void>;
  close(): Promise<void>;
}

interface Armed {
  readonly text: string;
  readonly done: () => void;
}

/** A proxy on 127.0.0.1 (a free port) to `upstreamPort` on 127.0.0.1. */
export function startTcpProxy(upstreamPort: number): Promise<TcpProxy> {
  let armed: Armed | undefined;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(upstreamPort, '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    let cutting: Armed | undefined;
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('data', (chunk: Buffer) => {
      const current = armed;
      if (cutting === undefined && current !== undefined && chunk.toString('latin1').includes(current.text)) {
        armed = undefined;
        cutting = current;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (cutting === undefined) {
        client.write(chunk);
        return;
      }
      end();
      cutting.done();
    });
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      resolve({
        port,
        loseReplyTo: (text) => new Promise<void>((done) => (armed = { text, done })),
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
