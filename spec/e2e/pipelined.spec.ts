/**
 * Pipelined requests on a real port with raw sockets: behind an answer that closes the connection
 * (413, 408, a host body parser's 413) the requests that follow on it are not processed (RFC 9112
 * §9.6: a client told the connection closed retries them, so running them would write twice);
 * without such an answer they are all answered, in order. Whether a create ran is read from the
 * provider (its calls, and the entity on a fresh connection), not from the answers.
 */
import net from 'net';
import { odata, odataErrorHandler } from '../../lib';
import { DEMO_MODEL, EXPRESS_VERSIONS, demoProvider } from '../helpers/demo';
import { startServer, type RunningServer } from '../helpers/server';

interface Service {
  readonly server: RunningServer;
  /** Calls of the provider's `create` and `query`. */
  readonly creates: jest.SpyInstance;
  readonly queries: jest.SpyInstance;
  /** Requests that reached the app (before the service's middleware). */
  readonly seen: string[];
  /** Resolves when every connection the server accepted so far has closed on the server's side. */
  allClosed(): Promise<void>;
}

type ExpressModule = (typeof EXPRESS_VERSIONS)[number][1];

async function startService(expressModule: ExpressModule, options: { readonly hostParser?: boolean } = {}): Promise<Service> {
  const provider = demoProvider();
  const creates = jest.spyOn(provider, 'create');
  const queries = jest.spyOn(provider, 'query');
  const seen: string[] = [];
  const app = expressModule();
  app.use((request, _response, next) => {
    seen.push(`${request.method} ${request.url}`);
    next();
  });
  if (options.hostParser === true) app.use(expressModule.json({ limit: 1000 }));
  app.use('/odata', odata({ model: DEMO_MODEL, provider, limits: { maxBodyBytes: 1000, bodyTimeout: 300 } }));
  app.use('/odata', odataErrorHandler());
  const server = await startServer(app);
  const closed: Promise<void>[] = [];
  server.server.on('connection', (socket: net.Socket) => closed.push(new Promise((resolve) => socket.on('close', () => resolve()))));
  // The service's own work after a close (a dropped request's check) runs in later turns.
  const allClosed = async (): Promise<void> => {
    await Promise.all(closed);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { server, creates, queries, seen, allClosed };
}

/** Write `first` at once (and `rest` once the server ended its side), then read until the connection closes. */
function exchange(url: string, first: string, rest?: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ port: Number(port), host: hostname, allowHalfOpen: true });
    let received = '';
    socket.on('data', (data: Buffer) => (received += data.toString('latin1')));
    socket.on('error', () => undefined); // a reset after the answer: the server cut the connection, as it may
    socket.on('end', () => (rest === undefined ? socket.end() : socket.end(rest)));
    socket.on('close', () => resolve(received));
    socket.write(first);
  });
}

/** The statuses of the answers on the connection (Node dates them; the answers inside a $batch answer are not). */
const statusesOf = (text: string): number[] => [...text.matchAll(/HTTP\/1\.1 (\d{3}) [^\r]*\r\n(?:[^\r]+\r\n)*?Date: /g)].map((match) => Number(match[1]));

const created = (id: number, name = 'Pipelined'): string => {
  const body = JSON.stringify({ ID: id, Name: name });
  return `POST /odata/Categories HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
};

const batchCreating = (id: number): string => {
  const part = JSON.stringify({ ID: id, Name: 'Batched' });
  const body = [
    '--batch_1',
    'Content-Type: multipart/mixed; boundary=changeset_1',
    '',
    '--changeset_1',
    'Content-Type: application/http',
    'Content-Transfer-Encoding: binary',
    '',
    'POST Categories HTTP/1.1',
    'Content-Type: application/json',
    `Content-Length: ${part.length}`,
    '',
    part,
    '--changeset_1--',
    '--batch_1--',
    '',
  ].join('\r\n');
  return `POST /odata/$batch HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/mixed; boundary=batch_1\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
};

const get = (path: string, last = false): string => `GET /odata/${path} HTTP/1.1\r\nHost: localhost\r\n${last ? 'Connection: close\r\n' : ''}\r\n`;

const tooLarge = JSON.stringify({ ID: 99, Name: 'x'.repeat(2000) });
const announcedTooLarge = `POST /odata/Categories HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${tooLarge.length}\r\n\r\n${tooLarge}`;
const arrivedTooLarge = `POST /odata/Categories HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${tooLarge.length.toString(16)}\r\n${tooLarge}\r\n0\r\n\r\n`;

/** Is Categories(id) there, asked on a fresh connection? */
async function exists(service: Service, id: number): Promise<boolean> {
  const answer = await exchange(service.server.url, get(`Categories(${id})`, true));
  return statusesOf(answer)[0] === 200;
}

describe.each(EXPRESS_VERSIONS)('pipelined requests behind an answer that closes the connection, on %s', (_name, expressModule) => {
  const followers: [string, (id: number) => string][] = [
    ['a create', (id) => created(id)],
    ['a $batch with a create', batchCreating],
  ];
  const refusals: [string, string, number, boolean][] = [
    ['a Content-Length over maxBodyBytes: 413', announcedTooLarge, 413, false],
    ['a chunked body that grows past maxBodyBytes: 413', arrivedTooLarge, 413, false],
    ["the host's body parser refusing a Content-Length over its limit: 413", announcedTooLarge, 413, true],
  ];

  describe.each(refusals)('%s', (_refusal, refused, status, hostParser) => {
    it.each(followers)('then %s in the same write: the refusal, the end of the connection, and nothing created', async (_follower, follower) => {
      const service = await startService(expressModule, { hostParser });
      try {
        const answer = await exchange(service.server.url, refused + follower(98) + get('Categories(98)'));
        await service.allClosed();
        expect(statusesOf(answer)).toEqual([status]);
        expect(answer.toLowerCase()).toContain('\r\nconnection: close\r\n');
        // The app saw the requests (Node emits them as it parses them); the service ran none of them.
        expect(service.seen).toHaveLength(3);
        expect(service.creates).not.toHaveBeenCalled();
        expect(service.queries).not.toHaveBeenCalled();
        expect(await exists(service, 98)).toBe(false);
      } finally {
        await service.server.close();
      }
    });
  });

  it.each(followers)('a body that times out (408), then the rest of it and %s after the answer: nothing created', async (_follower, follower) => {
    const service = await startService(expressModule);
    try {
      const head = `POST /odata/Categories HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n`;
      const answer = await exchange(service.server.url, `${head}{"ID":7`, `${' '.repeat(13)}${follower(97)}`);
      await service.allClosed();
      expect(statusesOf(answer)).toEqual([408]);
      expect(answer).toContain('<m:code>BODY_TIMEOUT</m:code>');
      expect(service.seen).toHaveLength(2);
      expect(service.creates).not.toHaveBeenCalled();
      expect(await exists(service, 97)).toBe(false);
    } finally {
      await service.server.close();
    }
  });

  it('requests pipelined without a refusal are all answered, in order, each after the one before', async () => {
    const service = await startService(expressModule);
    try {
      const write = get('Categories(0)') + created(96) + get('Categories(96)/Name/$value') + batchCreating(95) + get('Categories(95)/Name/$value', true);
      const answer = await exchange(service.server.url, write);
      expect(statusesOf(answer)).toEqual([200, 201, 200, 202, 200]);
      // Each GET ran after the create before it had been answered: it finds the new entity.
      expect(answer).toMatch(/\r\n\r\nPipelined[\s\S]*Batched$/);
      expect(service.creates).toHaveBeenCalledTimes(2);
    } finally {
      await service.server.close();
    }
  });
});
