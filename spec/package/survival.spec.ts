/**
 * The process survives its provider: the faulty Gallery service (spec/helpers/faulty-service.ts
 * over MemoryProvider, run from lib/'s sources by spec/helpers/faulty-service-process.js) in a
 * child process of its own with `--unhandled-rejections=strict`, where one unhandled rejection or
 * one 'error' event nobody listens to would end it. Every hostile value is thrown from every
 * provider method, outside and inside transactions (the store's write lock included); the process
 * never exits and has no process-level 'uncaughtException' or 'unhandledRejection' listener
 * (survival must come from handling, not from a global net). The same requests in process, with
 * coverage: spec/e2e/hostile-provider.spec.ts; the PostgreSQL example through a misbehaving
 * server: spec/e2e/survival.pg.spec.ts.
 */
import { join } from 'path';
import { FAULT_REQUESTS, sendFault } from '../helpers/faulty-service';
import { HOSTILE_VALUES } from '../helpers/hostile-values';
import { expectSurvived, ServiceProcess } from '../helpers/service-process';

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
