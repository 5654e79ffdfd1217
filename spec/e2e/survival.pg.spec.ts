/**
 * The process survives: services run in a child process of their own with
 * `--unhandled-rejections=strict`, where one unhandled rejection or one 'error' event nobody
 * listens to would end them, and they are driven through faults. They never exit, and they have
 * no process-level 'uncaughtException' or 'unhandledRejection' listener (survival must come from
 * handling, not from a global net).
 *
 * - The faulty Gallery service (spec/helpers/faulty-service.ts over MemoryProvider): every hostile
 *   value thrown from every provider method, outside and inside transactions (the store's write
 *   lock included).
 * - examples/postgres/server.js over a throwaway PostgreSQL cluster of this file's own: its
 *   connections killed under concurrent reads and writes, a restart, a stop and a start.
 *
 * A `*.pg.spec.ts` for the PostgreSQL lane (`npm run test:postgres`), which runs child processes.
 */
import { join, resolve } from 'path';
import { FAULT_REQUESTS, sendFault } from '../helpers/faulty-service';
import { HOSTILE_VALUES } from '../helpers/hostile-values';
import { adminQuery } from '../helpers/postgres-admin';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server';
import { ServiceProcess } from '../helpers/service-process';
import { assertBuilt } from '../cli/support';

const ROOT = resolve(__dirname, '..', '..');

/** The process is up (else its stderr says why) and has no process-level handler. */
async function expectSurvived(service: ServiceProcess): Promise<void> {
  expect({ ended: service.ended, stderr: service.ended === undefined ? [] : service.stderr }).toEqual({ ended: undefined, stderr: [] });
  expect(await service.listeners()).toEqual({ uncaughtException: 0, unhandledRejection: 0 });
}

describe('the faulty memory service in a process of its own', () => {
  let service: ServiceProcess;
  let root: string;

  beforeAll(async () => {
    service = new ServiceProcess(join(__dirname, '..', 'helpers', 'faulty-service-process.js'), []);
    root = await service.started(/^Serving at (\S+)$/);
  }, 60_000);

  afterAll(() => service?.kill());

  it.each(FAULT_REQUESTS.map(([label, from, sent]) => [label, from, sent] as const))(
    '%s, every hostile value thrown from %s: answered, and the process lives on',
    async (_, from, sent) => {
      for (const [value] of HOSTILE_VALUES) {
        const answer = await sendFault(root, sent, from, value);
        expect([value, answer.status]).toEqual([value, sent.batch === true ? 202 : 500]);
      }
      await expectSurvived(service);
    },
  );

  it('answers normally afterwards, and ends only when told to (SIGTERM: it has no handler of its own)', async () => {
    const albums = await fetch(`${root}Albums/$count`);
    expect([albums.status, await albums.text()]).toEqual([200, '3']);
    await expectSurvived(service);
    expect(await service.stop()).toEqual({ code: null, signal: 'SIGTERM' });
  });
});

describe('examples/postgres/server.js over a PostgreSQL server that misbehaves', () => {
  /** How the example's connections are told apart in pg_stat_activity. */
  const APPLICATION = 'survival-example';
  let server: PostgresServer;
  let service: ServiceProcess;
  let root: string;

  beforeAll(async () => {
    assertBuilt();
    server = await startPostgres({ settings: { max_connections: '20' } });
    service = new ServiceProcess(join(ROOT, 'examples', 'postgres', 'server.js'), [], {
      DATABASE_URL: `${server.url}?application_name=${APPLICATION}`,
      PORT: '0',
    });
    root = await service.started(/: (http:\/\/\S+\/odata\/)/);
  }, 120_000);

  afterAll(async () => {
    service?.kill();
    await server?.stop();
  });

  /** Kill every connection of the example, whatever it is doing. */
  const killAll = (): Promise<unknown> =>
    adminQuery(server.url, 'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [APPLICATION]);

  /** A mix of reads and writes under way at once; each settles with a status. */
  function traffic(round: number): Promise<number>[] {
    const send = async (method: string, path: string, body?: unknown): Promise<number> => {
      const response = await fetch(root + path, {
        method,
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      await response.arrayBuffer();
      return response.status;
    };
    return [
      send('GET', 'Products?$expand=Category&$orderby=Price desc'),
      send('GET', 'Products(1)'),
      send('GET', 'Categories/$count'),
      send('POST', 'Categories', { ID: 100 + round, Name: `Round ${round}` }),
      send('MERGE', 'Categories(0)', { Name: `Food ${round}` }),
      send('DELETE', `Categories(${100 + round})`),
    ];
  }

  it('lives through connections killed under concurrent reads and writes, round after round', async () => {
    const seen = new Set<number>();
    for (let round = 0; round < 40; round++) {
      const requests = traffic(round);
      await killAll();
      // A request the process could not answer (it died) counts as status 0.
      for (const status of await Promise.all(requests.map((answer) => answer.catch(() => 0)))) seen.add(status);
    }
    await expectSurvived(service);
    // Answers, successful or 503: never a 500, never a request left without one.
    expect([...seen].filter((status) => ![200, 201, 204, 404, 409, 503].includes(status))).toEqual([]);
    expect((await fetch(`${root}Products(1)`)).status).toBe(200);
  });

  it('lives through a restart and a stop, and serves again when the server is back', async () => {
    await server.restart();
    expect((await fetch(`${root}Products(1)`)).status).toBe(200);
    await server.shutdown();
    try {
      const refused = await fetch(`${root}Products(1)`, { headers: { accept: 'application/json' } });
      expect([refused.status, refused.headers.get('retry-after'), ((await refused.json()) as { error: { code: string } }).error.code]).toEqual([
        503,
        '1',
        'DATABASE_UNAVAILABLE',
      ]);
      await expectSurvived(service);
    } finally {
      await server.start();
    }
    expect((await fetch(`${root}Products(1)`)).status).toBe(200);
    await expectSurvived(service);
    // However many connections were killed, the pool holds at most its size (postgres()'s default, 10).
    const [held] = await adminQuery<{ count: string }>(server.url, 'select count(*) from pg_stat_activity where application_name = $1', [APPLICATION]);
    expect(Number(held.count)).toBeLessThanOrEqual(10);
  });
});
