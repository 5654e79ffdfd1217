/**
 * serve's production defaults and limit options, in this process on a PGlite folder: every feed
 * is paged at 1000 entries unless `--max-page-size 0` turns paging off (so `$expand` over a set of
 * 10,001 rows is a page, not a 400), and each limit option sets its limit of `odata({ limits })`:
 * a request just inside it is answered, one just past it refused with the limit's status and code.
 */
import { mkdtempSync, rmSync } from 'fs';
import { connect } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import { serviceBounds } from '../../lib/cli/limits';
import { runCommand } from '../../lib/cli/run';
import type { RunningService } from '../../lib/cli/serve';
import { createTestPGliteFolder } from '../helpers/pglite';

const work = mkdtempSync(join(tmpdir(), 'express-odata-v2-cli-limits-'));
const folder = join(work, 'plant');

const READINGS = 10_001;

beforeAll(
  () =>
    createTestPGliteFolder(
      folder,
      `
      create table sites (id integer primary key, name text not null);
      create table sensors (id integer primary key, site_id integer not null references sites, name text not null);
      create table readings (id integer primary key, sensor_id integer not null references sensors, value integer not null);
      insert into sites values (1, 'North');
      insert into sensors select i, 1, 'sensor ' || i from generate_series(1, 3) i;
      insert into readings select i, 1 + i % 3, i from generate_series(1, ${READINGS}) i;
      `,
    ),
  60_000,
);
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function start(...args: string[]): Promise<RunningService> {
  const err: string[] = [];
  const outcome = await runCommand(['serve', '--db', folder, '--port', '0', ...args], {
    out: () => undefined,
    err: (line) => err.push(line),
    cwd: work,
    env: {},
  });
  if (outcome.kind !== 'serving') throw new Error(err.join('\n'));
  return outcome.service;
}

interface Feed {
  readonly results: readonly { readonly ID: number }[];
  readonly __next?: string;
}

async function feed(url: string): Promise<{ status: number; feed: Feed }> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  const body = (await response.json()) as { d: Feed };
  return { status: response.status, feed: body.d };
}

async function errorOf(response: Response): Promise<[number, string]> {
  const body = (await response.json()) as { error?: { code?: string } };
  return [response.status, body.error?.code ?? '(no OData error)'];
}

describe('paging by default', () => {
  let service: RunningService;
  beforeAll(async () => (service = await start()), 30_000);
  afterAll(() => service.close());

  it('pages a feed at 1000 entries; the next links read the rest, each entry once', async () => {
    const seen: number[] = [];
    const sizes: number[] = [];
    let next: string | undefined = `${service.url}Readings?$select=ID`;
    while (next !== undefined) {
      const { status, feed: page } = await feed(next);
      expect(status).toBe(200);
      sizes.push(page.results.length);
      seen.push(...page.results.map((row) => row.ID));
      next = page.__next;
    }
    expect(sizes).toEqual([...Array<number>(10).fill(1000), 1]);
    expect(seen).toEqual(Array.from({ length: READINGS }, (_, i) => i + 1));
  }, 60_000);

  it('answers $expand over the whole set with its first page', async () => {
    const response = await fetch(`${service.url}Readings?$expand=Sensor&$select=ID,Sensor/Name`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(200);
    const page = ((await response.json()) as { d: { results: { ID: number; Sensor: { Name: string } }[]; __next?: string } }).d;
    expect([page.results.length, page.results[0].Sensor.Name, page.__next]).toEqual([
      1000,
      'sensor 2',
      `${service.url}Readings?$expand=Sensor&$select=ID,Sensor/Name&$skiptoken=1000`,
    ]);
  }, 30_000);
});

describe('--max-page-size 0', () => {
  let service: RunningService;
  beforeAll(async () => (service = await start('--max-page-size', '0')), 30_000);
  afterAll(() => service.close());

  it('serves a feed whole, and refuses $expand over it past maxExpandedEntities', async () => {
    const { status, feed: whole } = await feed(`${service.url}Readings?$select=ID`);
    expect([status, whole.results.length, whole.__next]).toEqual([200, READINGS, undefined]);
    const expanded = await fetch(`${service.url}Readings?$expand=Sensor`, { headers: { accept: 'application/json' } });
    expect(await errorOf(expanded)).toEqual([400, 'QUERY_LIMIT_EXCEEDED']);
  }, 30_000);
});

describe('the limit options', () => {
  let service: RunningService;
  beforeAll(
    async () =>
      (service = await start(
        ...['--max-top', '5', '--max-expand-depth', '2', '--max-expand-breadth', '1', '--max-expanded-entities', '10'],
        ...['--max-filter-length', '40', '--max-filter-depth', '3', '--max-search-terms', '1', '--max-body-size', '1000'],
        ...['--max-batch-parts', '1', '--max-changeset-operations', '1', '--body-timeout', '100'],
      )),
    30_000,
  );
  afterAll(() => service.close());

  const get = (path: string): Promise<Response> => fetch(`${service.url}${path}`, { headers: { accept: 'application/json' } });
  const post = (path: string, body: string, type = 'application/json'): Promise<Response> =>
    fetch(`${service.url}${path}`, { method: 'POST', headers: { accept: 'application/json', 'content-type': type }, body });

  /** A $batch of `parts` (each a list of lines), in one changeset when `changeset`. */
  function batch(parts: readonly string[], changeset: boolean): string {
    const operation = (request: string): string[] => ['Content-Type: application/http', 'Content-Transfer-Encoding: binary', '', request, ''];
    if (!changeset) return [...parts.flatMap((part) => ['--b', ...operation(`${part}\r\n`)]), '--b--', ''].join('\r\n');
    const inner = [...parts.flatMap((part) => ['--c', ...operation(part)]), '--c--'];
    return ['--b', 'Content-Type: multipart/mixed; boundary=c', '', ...inner, '--b--', ''].join('\r\n');
  }
  const site = (id: number): string => `POST Sites HTTP/1.1\r\nContent-Type: application/json\r\n\r\n{"ID":${id},"Name":"S${id}"}`;

  it.each<[string, () => Promise<Response>, () => Promise<Response>, number, string]>([
    ['--max-top', () => get('Readings?$top=5'), () => get('Readings?$top=6'), 400, 'QUERY_LIMIT_EXCEEDED'],
    ['--max-expand-depth', () => get('Readings(1)?$expand=Sensor/Site'), () => get('Readings(1)?$expand=Sensor/Site/Sensors'), 400, 'QUERY_LIMIT_EXCEEDED'],
    ['--max-expand-breadth', () => get('Sensors(1)?$expand=Site'), () => get('Sensors(1)?$expand=Site,Readings'), 400, 'QUERY_LIMIT_EXCEEDED'],
    ['--max-expanded-entities', () => get('Sites(1)?$expand=Sensors'), () => get('Sensors(1)?$expand=Readings'), 400, 'QUERY_LIMIT_EXCEEDED'],
    [
      '--max-filter-length',
      () => get('Readings?$filter=Value eq 1'),
      () => get('Readings?$filter=Value eq 1 or Value eq 2 or Value eq 3 or Value eq 4'),
      400,
      'QUERY_LIMIT_EXCEEDED',
    ],
    [
      '--max-filter-depth',
      () => get('Readings?$filter=not (Value eq 1)&$top=1'),
      () => get('Readings?$filter=not (not (Value eq 1))'),
      400,
      'QUERY_LIMIT_EXCEEDED',
    ],
    ['--max-search-terms', () => get('Sensors?search=sensor'), () => get('Sensors?search=sensor 1'), 400, 'QUERY_LIMIT_EXCEEDED'],
    [
      '--max-body-size',
      () => post('Sites', '{"ID":2,"Name":"South"}'),
      () => post('Sites', JSON.stringify({ ID: 3, Name: 'x'.repeat(1000) })),
      413,
      'BODY_TOO_LARGE',
    ],
    [
      '--max-batch-parts',
      () => post('$batch', batch(['GET Sites(1) HTTP/1.1'], false), 'multipart/mixed; boundary=b'),
      () => post('$batch', batch(['GET Sites(1) HTTP/1.1', 'GET Sites(1) HTTP/1.1'], false), 'multipart/mixed; boundary=b'),
      400,
      'BATCH_PART_LIMIT',
    ],
    [
      '--max-changeset-operations',
      () => post('$batch', batch([site(4)], true), 'multipart/mixed; boundary=b'),
      () => post('$batch', batch([site(5), site(6)], true), 'multipart/mixed; boundary=b'),
      400,
      'BATCH_PART_LIMIT',
    ],
  ])('%s: inside the limit answered, past it refused', async (_, inside, past, status, code) => {
    const answered = await inside();
    const text = await answered.text();
    expect(answered.ok ? 'answered' : `${answered.status} ${text}`).toBe('answered');
    expect(await errorOf(await past())).toEqual([status, code]);
  });

  it('--body-timeout: a body that stops arriving is answered 408 BODY_TIMEOUT', async () => {
    const { port } = new URL(service.url);
    const answer = await new Promise<string>((done, fail) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write('POST /odata/Sites HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: 50\r\n\r\n{"ID":'),
      );
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
      socket.on('close', () => done(received));
      socket.on('error', fail);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('"code":"BODY_TIMEOUT"');
  });
});

it.each([
  ['--max-top', 'maxTop'],
  ['--max-expand-depth', 'maxExpandDepth'],
  ['--max-expand-breadth', 'maxExpandBreadth'],
  ['--max-expanded-entities', 'maxExpandedEntities'],
  ['--max-filter-length', 'maxFilterLength'],
  ['--max-filter-depth', 'maxFilterDepth'],
  ['--max-search-terms', 'maxSearchTerms'],
  ['--max-body-size', 'maxBodyBytes'],
  ['--max-batch-parts', 'maxBatchParts'],
  ['--max-changeset-operations', 'maxChangesetOperations'],
  ['--provider-timeout', 'providerTimeout'],
  ['--body-timeout', 'bodyTimeout'],
])('%s sets limits.%s, and nothing else', (option, limit) => {
  expect(serviceBounds('serve', { [option.slice(2)]: '7' })).toEqual({ maxPageSize: 1000, limits: { [limit]: 7 } });
});

it('takes 0 for none where the library has no default limit, and refuses 0 elsewhere', () => {
  expect(serviceBounds('serve', { 'max-top': '0', 'provider-timeout': '0', 'max-page-size': '0' })).toEqual({ maxPageSize: undefined, limits: {} });
  expect(() => serviceBounds('serve', { 'max-batch-parts': '0' })).toThrow("serve: --max-batch-parts must be an integer from 1 to 100000, got '0'");
});
