/**
 * `express-odata-v2 serve` over a PostgreSQL server that does what servers do in production, on a
 * throwaway cluster of this file's own (small max_connections; DATABASE_URL is not used): a
 * backend killed by pg_terminate_backend while its connection is idle in the pool, while a read,
 * a single write or a changeset waits on it, while a streamed feed holds it between two chunks; a
 * restart between two requests; a stop and a start; every connection slot taken; a table locked
 * past the statement timeout; and, through a proxy that drops the server's reply, a COMMIT and a
 * lone write whose outcome the service cannot know. The service runs as its users run it, in a
 * process of its own (with `--unhandled-rejections=strict`); after each fault it is alive, has no
 * process-level handler, answers with the status and code of the table in docs/sql-provider.md,
 * the database holds exactly what was committed, and the next request succeeds. Synchronization is
 * by the database's state (pg_stat_activity, a lock held by a connection of the spec), never by time.
 */
import { get as httpGet, type IncomingMessage } from 'http';
import { Client } from 'pg';
import { adminQuery, backendsOf, holdTransaction, terminate, waitForBackends } from '../helpers/postgres-admin';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server';
import { ServiceProcess } from '../helpers/service-process';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';
import { assertBuilt, CLI, runCli } from './support';

/** The role the services connect as: not a superuser, so the reserved slots stay the spec's. */
const APP = 'app';
/** The pool size of `serve` (lib/cli/database.ts). */
const POOL_MAX = 10;

let server: PostgresServer;
let adminUrl: string;
let appUrl: string;

beforeAll(async () => {
  assertBuilt();
  // 14 slots, 3 of them the superuser's: the app role can hold 11, one more than a service's pool.
  server = await startPostgres({ settings: { max_connections: '14', superuser_reserved_connections: '3' } });
  adminUrl = server.url;
  appUrl = server.url.replace('postgres://postgres@', `postgres://${APP}@`);
  await adminQuery(
    adminUrl,
    `create role ${APP} login;
     create table items (id integer primary key, name text not null);
     insert into items values (1, 'one'), (2, 'two'), (3, 'three');
     create table big (id integer primary key, payload text not null);
     insert into big select g, repeat('x', 2000) from generate_series(1, 20000) g;
     grant select, insert, update, delete on all tables in schema public to ${APP};`,
  );
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

/** An answer as the checks read it. */
interface Answer {
  readonly status: number;
  readonly retryAfter: string | null;
  readonly code: string | undefined;
  readonly body: string;
}

async function call(root: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(root + path, {
    method,
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const code = response.status >= 400 ? (JSON.parse(text) as { error: { code: string } }).error.code : undefined;
  return { status: response.status, retryAfter: response.headers.get('retry-after'), code, body: text };
}

/** A changeset of `operations` as a `$batch` body, each operation `[method, path, body]` in JSON. */
function changesetBody(operations: readonly (readonly [string, string, unknown])[]): string {
  const parts = operations.map(
    ([method, path, body]) =>
      `--cs\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n${method} ${path} HTTP/1.1\r\n` +
      `Content-Type: application/json\r\nAccept: application/json\r\n\r\n${JSON.stringify(body)}\r\n`,
  );
  return `--batch\r\nContent-Type: multipart/mixed; boundary=cs\r\n\r\n${parts.join('')}--cs--\r\n--batch--\r\n`;
}

/** POST $batch with one changeset; the status line and the error code of the changeset's answer. */
async function changeset(
  root: string,
  operations: readonly (readonly [string, string, unknown])[],
): Promise<{ status: number; inner: string; code: string | undefined; retryAfter: boolean }> {
  const response = await fetch(`${root}$batch`, {
    method: 'POST',
    headers: { 'content-type': 'multipart/mixed; boundary=batch' },
    body: changesetBody(operations),
  });
  const text = await response.text();
  return {
    status: response.status,
    inner: /HTTP\/1\.1 (\d{3} [^\r\n]*)/.exec(text)?.[1] ?? '',
    code: /"code":"([A-Z_]+)"/.exec(text)?.[1],
    retryAfter: /^retry-after: /im.test(text),
  };
}

async function items(): Promise<string[]> {
  const rows = await adminQuery<{ id: number; name: string }>(adminUrl, 'select id, name from items order by id');
  return rows.map((row) => `${row.id}:${row.name}`);
}

const waitingOnLock = (backends: readonly { waitEventType: string | null }[]): boolean => backends.some((backend) => backend.waitEventType === 'Lock');

/** The service is up: no exit, no process-level handler, and it answers. */
async function expectAlive(service: ServiceProcess, root: string): Promise<void> {
  expect(service.ended).toBeUndefined();
  expect(await service.listeners()).toEqual({ uncaughtException: 0, unhandledRejection: 0 });
  expect((await call(root, 'GET', 'items?$top=1')).status).toBe(200);
}

async function startService(db: string, ...args: string[]): Promise<{ service: ServiceProcess; root: string }> {
  // The tables' own names (items, big, id, name): the checks read the database with them too. No
  // paging: the feed of big must stream.
  const service = new ServiceProcess(CLI, ['serve', '--db', db, '--port', '0', '--names', 'sql', '--max-page-size', '0', ...args]);
  const root = await service.started(/ at (http:\/\/127\.0\.0\.1:\d+\/odata\/)$/);
  return { service, root };
}

describe('serve with its default statement timeout, connected straight to the server', () => {
  let service: ServiceProcess;
  let root: string;

  beforeAll(async () => {
    ({ service, root } = await startService(appUrl));
  });

  afterAll(() => service?.kill());

  it('survives the kill of its idle pooled connections; the next read and write open fresh ones', async () => {
    await Promise.all([1, 2, 3].map((id) => call(root, 'GET', `items(${id})`)));
    const idle = await waitForBackends(appUrl, APP, (backends) => backends.length > 0 && backends.every((backend) => backend.state === 'idle'));
    await terminate(
      adminUrl,
      APP,
      idle.map((backend) => backend.pid),
    );
    expect((await call(root, 'GET', 'items(1)')).status).toBe(200);
    expect((await call(root, 'POST', 'items', { id: 10, name: 'after the kill' })).status).toBe(201);
    expect(await items()).toEqual(['1:one', '2:two', '3:three', '10:after the kill']);
    await expectAlive(service, root);
  });

  it('runs a read whose connection was killed under it once more, on a fresh connection: the client sees only the answer', async () => {
    const lock = await holdTransaction(adminUrl, 'lock table items in access exclusive mode');
    const answer = call(root, 'GET', 'items?$orderby=id');
    const [first] = (await waitForBackends(appUrl, APP, waitingOnLock)).filter((backend) => backend.waitEventType === 'Lock');
    await terminate(adminUrl, APP, [first.pid]);
    // The read again, on another connection, waiting for the same lock.
    await waitForBackends(appUrl, APP, (backends) => backends.some((backend) => backend.waitEventType === 'Lock' && backend.pid !== first.pid));
    await lock.release();
    const read = await answer;
    expect(read.status).toBe(200);
    expect((JSON.parse(read.body) as { d: { results: { id: number }[] } }).d.results.map((row) => row.id)).toEqual([1, 2, 3, 10]);
    await expectAlive(service, root);
  });

  it('fails a single write whose connection was killed under it with 503 DATABASE_UNAVAILABLE, and never runs it again', async () => {
    const lock = await holdTransaction(adminUrl, 'select * from items where id = 2 for update');
    const answer = call(root, 'PUT', 'items(2)', { id: 2, name: 'lost' });
    const [waiting] = (await waitForBackends(appUrl, APP, waitingOnLock)).filter((backend) => backend.waitEventType === 'Lock');
    await terminate(adminUrl, APP, [waiting.pid]);
    // Answered while the row is still locked: no second attempt is waiting behind the lock.
    expect(await answer).toMatchObject({ status: 503, code: 'DATABASE_UNAVAILABLE', retryAfter: '1' });
    await lock.release();
    expect(await items()).toEqual(['1:one', '2:two', '3:three', '10:after the kill']);
    await expectAlive(service, root);
  });

  it('rolls back a changeset whose connection was killed under its second operation: 503 DATABASE_UNAVAILABLE, nothing of it stored', async () => {
    const lock = await holdTransaction(adminUrl, 'select * from items where id = 3 for update');
    const answer = changeset(root, [
      ['POST', 'items', { id: 20, name: 'first of the changeset' }],
      ['PUT', 'items(3)', { id: 3, name: 'second of the changeset' }],
    ]);
    const [waiting] = (await waitForBackends(appUrl, APP, waitingOnLock)).filter((backend) => backend.waitEventType === 'Lock');
    await terminate(adminUrl, APP, [waiting.pid]);
    expect(await answer).toEqual({ status: 202, inner: '503 Service Unavailable', code: 'DATABASE_UNAVAILABLE', retryAfter: true });
    await lock.release();
    expect(await items()).toEqual(['1:one', '2:two', '3:three', '10:after the kill']);
    await expectAlive(service, root);
  });

  it('aborts a streamed feed whose connection was killed between two chunks: no closing ]}}, the failure logged', async () => {
    const response = await new Promise<IncomingMessage>((resolve, reject) => httpGet(`${root}big?$format=json`, resolve).on('error', reject));
    expect(response.statusCode).toBe(200);
    const received: Buffer[] = [];
    // After the first chunk, not read on: the service waits for the client, holding the feed's snapshot transaction.
    await new Promise<void>((resolve) =>
      response.on('data', (chunk: Buffer) => {
        received.push(chunk);
        if (received.length > 1) return;
        response.pause();
        resolve();
      }),
    );
    const holding = await waitForBackends(appUrl, APP, (backends) => backends.some((backend) => backend.state === 'idle in transaction'));
    await terminate(
      adminUrl,
      APP,
      holding.filter((backend) => backend.state === 'idle in transaction').map((backend) => backend.pid),
    );
    const ended = new Promise<{ complete: boolean }>((resolve) => response.on('close', () => resolve({ complete: response.complete })));
    response.on('error', () => undefined);
    response.resume();
    expect(await ended).toEqual({ complete: false });
    const text = Buffer.concat(received).toString('utf8');
    expect(text.startsWith('{"d":{"results":[')).toBe(true);
    expect(text.endsWith(']}}')).toBe(false);
    await expectAlive(service, root);
    expect(service.stderr.some((line) => line.includes('GET /odata/big?$format=json: The response was cut off after its headers were sent'))).toBe(true);
  });

  it('goes on through a restart of the server between two requests', async () => {
    expect((await call(root, 'GET', 'items(1)')).status).toBe(200);
    await server.restart();
    expect((await call(root, 'GET', 'items(1)')).status).toBe(200);
    expect((await call(root, 'POST', 'items', { id: 11, name: 'after the restart' })).status).toBe(201);
    expect(await items()).toEqual(['1:one', '2:two', '3:three', '10:after the kill', '11:after the restart']);
    await expectAlive(service, root);
  });

  it('answers 503 DATABASE_UNAVAILABLE with Retry-After while the server is down, and serves again as soon as it is up', async () => {
    await server.shutdown();
    try {
      expect(await call(root, 'GET', 'items(1)')).toMatchObject({ status: 503, code: 'DATABASE_UNAVAILABLE', retryAfter: '1' });
      const refused = await call(root, 'POST', 'items', { id: 12, name: 'during the outage' });
      expect(refused).toMatchObject({ status: 503, code: 'DATABASE_UNAVAILABLE', retryAfter: '1' });
      // The driver's words are for the log only.
      expect(refused.body).not.toMatch(/ECONNREFUSED|connect/);
      expect(service.stderr.some((line) => line.includes('ECONNREFUSED'))).toBe(true);
      expect(service.ended).toBeUndefined();
      // A service started while the server is down is one line and exit code 1.
      const port = new URL(appUrl).port;
      expect(await runCli(['serve', '--db', appUrl], process.cwd())).toEqual({
        code: 1,
        signal: null,
        stdout: [],
        stderr: [
          `express-odata-v2: Cannot connect to the database at 127.0.0.1:${port}/postgres: connection refused (is the server running, on that host and port?).`,
        ],
      });
    } finally {
      await server.start();
    }
    expect((await call(root, 'GET', 'items(1)')).status).toBe(200);
    expect((await call(root, 'POST', 'items', { id: 13, name: 'after the outage' })).status).toBe(201);
    expect(await items()).toEqual(['1:one', '2:two', '3:three', '10:after the kill', '11:after the restart', '13:after the outage']);
    await expectAlive(service, root);
  });

  it('answers 503 DATABASE_UNAVAILABLE with Retry-After while every connection slot is taken, and serves once one is free', async () => {
    const own = await backendsOf(appUrl, APP);
    await terminate(
      adminUrl,
      APP,
      own.map((backend) => backend.pid),
    );
    const fillers: Client[] = [];
    try {
      for (;;) {
        const filler = new Client({ connectionString: appUrl });
        filler.on('error', () => undefined);
        const full = await filler.connect().then(
          () => false,
          (error: unknown) => (error as { code?: string }).code === '53300',
        );
        if (full) break;
        fillers.push(filler);
      }
      expect(fillers.length).toBe(11);
      expect(await call(root, 'GET', 'items(1)')).toMatchObject({ status: 503, code: 'DATABASE_UNAVAILABLE', retryAfter: '1' });
      expect(await call(root, 'POST', 'items', { id: 14, name: 'no slot' })).toMatchObject({ status: 503, code: 'DATABASE_UNAVAILABLE', retryAfter: '1' });
    } finally {
      await Promise.all(fillers.map((filler) => filler.end()));
    }
    expect((await call(root, 'GET', 'items(1)')).status).toBe(200);
    expect(await items()).toEqual(['1:one', '2:two', '3:three', '10:after the kill', '11:after the restart', '13:after the outage']);
    await expectAlive(service, root);
  });

  it('never holds more connections than its pool, after all of it', async () => {
    await Promise.all(Array.from({ length: 30 }, (_, i) => call(root, 'GET', `items(${1 + (i % 3)})`)));
    expect((await backendsOf(appUrl, APP)).length).toBeLessThanOrEqual(POOL_MAX);
    await expectAlive(service, root);
  });

  it('still stops cleanly on SIGTERM: exit code 0', async () => {
    expect(await service.stop()).toEqual({ code: 0, signal: null });
  });
});

describe('serve with a short statement timeout', () => {
  it('answers 503 STATEMENT_TIMEOUT with Retry-After for a locked table, reads and writes, and serves again once the lock is gone', async () => {
    const { service, root } = await startService(appUrl, '--statement-timeout', '300');
    try {
      const lock = await holdTransaction(adminUrl, 'lock table items in access exclusive mode');
      try {
        const read = await call(root, 'GET', 'items(1)');
        expect(read).toMatchObject({ status: 503, code: 'STATEMENT_TIMEOUT', retryAfter: '1' });
        expect((JSON.parse(read.body) as { error: { message: { value: string } } }).error.message.value).toBe(
          'A database statement did not finish within 300 ms; try again later.',
        );
        expect(await call(root, 'POST', 'items', { id: 15, name: 'locked out' })).toMatchObject({ status: 503, code: 'STATEMENT_TIMEOUT', retryAfter: '1' });
      } finally {
        await lock.release();
      }
      expect(await items()).toEqual(['1:one', '2:two', '3:three', '10:after the kill', '11:after the restart', '13:after the outage']);
      await expectAlive(service, root);
    } finally {
      await service.stop();
    }
  });
});

describe('serve through a proxy that drops the reply to a statement (--statement-timeout 0: a lone write runs without BEGIN)', () => {
  let proxy: TcpProxy;
  let service: ServiceProcess;
  let root: string;

  beforeAll(async () => {
    proxy = await startTcpProxy(server.port);
    const proxied = new URL(appUrl);
    proxied.port = String(proxy.port);
    ({ service, root } = await startService(proxied.toString(), '--statement-timeout', '0'));
  });

  afterAll(async () => {
    await service?.stop();
    await proxy?.close();
  });

  it('answers a lone write whose reply was lost 503 WRITE_OUTCOME_UNKNOWN without Retry-After; the write did happen, and is not repeated', async () => {
    const cut = proxy.loseReplyTo('insert into');
    const answer = await call(root, 'POST', 'items', { id: 30, name: 'outcome unknown' });
    await cut;
    expect(answer).toMatchObject({ status: 503, code: 'WRITE_OUTCOME_UNKNOWN', retryAfter: null });
    expect((JSON.parse(answer.body) as { error: { message: { value: string } } }).error.message.value).toContain('may or may not have been applied');
    expect((await items()).filter((item) => item.startsWith('30:'))).toEqual(['30:outcome unknown']);
    await expectAlive(service, root);
  });

  it('answers a changeset whose COMMIT reply was lost 503 WRITE_OUTCOME_UNKNOWN; the commit did happen', async () => {
    // The simple query `commit` and its terminator: BEGIN's `isolation level read committed` must not match.
    const cut = proxy.loseReplyTo('commit\u0000');
    const answer = await changeset(root, [
      ['POST', 'items', { id: 31, name: 'committed, unconfirmed' }],
      ['POST', 'items', { id: 32, name: 'committed, unconfirmed' }],
    ]);
    await cut;
    expect(answer).toEqual({ status: 202, inner: '503 Service Unavailable', code: 'WRITE_OUTCOME_UNKNOWN', retryAfter: false });
    expect((await items()).filter((item) => /^3[12]:/.test(item))).toEqual(['31:committed, unconfirmed', '32:committed, unconfirmed']);
    expect((await call(root, 'POST', 'items', { id: 33, name: 'next' })).status).toBe(201);
    await expectAlive(service, root);
  });
});
