/**
 * The service under test: the provider behind `odata()` twice on one 127.0.0.1 port, at `/odata/`
 * without server-driven paging and at `/paged/` with a small page size, so the paging cases walk
 * next links through the same public service a client sees. 5xx answers are logged here (the
 * client only gets "An internal error occurred."), so a failing case can say what the provider threw.
 */
import { Agent, createServer } from 'http';
import type { IncomingMessage, ServerResponse } from 'http';
import type { AddressInfo } from 'net';
import { describeCaught } from '../util';
import { odata } from '../index';
import type { DataProvider, EdmModel, ExpressLikeRequest, ODataMiddleware, ServiceLogEvent } from '../index';
import { ServiceClient } from './client';

/** The page size of the `/paged/` mount: small, so every ordering spans several pages. */
export const PAGE_SIZE = 3;

/** A running service and its clients. */
export interface ServiceUnderTest {
  /** The mount without server-driven paging. */
  readonly service: ServiceClient;
  /** The mount with `maxPageSize` PAGE_SIZE. */
  readonly paged: ServiceClient;
  /** The 5xx the service logged since the last call (what the provider threw), and forget them. */
  takeLogged(): string[];
  /** Stop the server and close its connections. */
  close(): Promise<void>;
}

function describeLogged(event: ServiceLogEvent): string {
  const error = describeCaught(event.error).summary;
  return `${event.status} ${event.method} ${event.url}: ${error}`;
}

/** Serve `provider` on a free 127.0.0.1 port. */
export async function startService(model: EdmModel, provider: DataProvider): Promise<ServiceUnderTest> {
  let logged: string[] = [];
  const logger = (event: ServiceLogEvent): void => {
    logged.push(describeLogged(event));
  };
  const mounts: [string, ODataMiddleware][] = [
    ['/odata', odata({ model, provider, logger })],
    ['/paged', odata({ model, provider, logger, maxPageSize: PAGE_SIZE })],
  ];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const target = request.url ?? '/';
    const mount = mounts.find(([path]) => target.startsWith(`${path}/`));
    if (mount === undefined) {
      response.writeHead(404).end();
      return;
    }
    // What Express does for a mounted middleware: the mount path moves from url to baseUrl.
    const mounted: ExpressLikeRequest = Object.assign(request, { baseUrl: mount[0], url: target.slice(mount[0].length) });
    mount[1](mounted, response, () => response.writeHead(404).end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const root = `http://127.0.0.1:${port}`;
  return {
    service: new ServiceClient(`${root}/odata/`, agent),
    paged: new ServiceClient(`${root}/paged/`, agent),
    takeLogged: () => {
      const taken = logged;
      logged = [];
      return taken;
    },
    close: async () => {
      agent.destroy();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
