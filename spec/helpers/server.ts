/** Start an app on 127.0.0.1 and a free port; always close it. */
import type { Server } from 'http';
import type { AddressInfo } from 'net';

export interface RunningServer {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

interface Listenable {
  listen(port: number, host: string, callback: () => void): Server;
}

export function startServer(app: Listenable): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = app.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        server,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
    server.on('error', reject);
  });
}
