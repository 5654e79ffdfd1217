/**
 * The process survives its database: examples/postgres/server.js in a child process of its own
 * with `--unhandled-rejections=strict`, where one unhandled rejection or one 'error' event nobody
 * listens to would end it, over a throwaway PostgreSQL cluster of this file's own: its connections
 * killed under concurrent reads and writes, a restart, a stop and a start. It never exits, and it
 * has no process-level 'uncaughtException' or 'unhandledRejection' listener (survival must come
 * from handling, not from a global net). The faulty provider's process, which needs no server, is
 * in the package lane (spec/package/survival.spec.ts).
 *
 * A `*.pg.spec.ts` for the PostgreSQL lane (`npm run test:postgres`), which runs child processes.
 */
import { join, resolve } from 'path';
import { adminQuery } from '../helpers/postgres-admin';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server';
import { expectSurvived, ServiceProcess } from '../helpers/service-process';
import { assertBuilt } from '../cli/support';

const ROOT = resolve(__dirname, '..', '..');

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
