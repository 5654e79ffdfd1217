/**
 * A provider that throws anything (a Proxy whose every trap throws, a revoked Proxy, objects with
 * throwing getters, symbols, bigints, null, undefined: spec/helpers/hostile-values.ts) from every
 * method, outside transactions, in a single write's transaction (MemoryProvider runs it under its
 * write lock, whose bookkeeping once inspected the value in an un-awaited `.then` and left the
 * request hanging and the rejection unhandled) and in a `$batch` changeset's. Every request is
 * answered, with a clean 500 INTERNAL that carries none of the value's text; the store is as it
 * was; the service goes on. The same service in a child process with `--unhandled-rejections=strict`:
 * spec/package/survival.spec.ts.
 */
import { HOSTILE_VALUES, SECRET } from '../helpers/hostile-values';
import { storeSnapshot } from '../helpers/faulty-provider';
import { FAULT_REQUESTS, sendFault, startFaultyService, type FaultyService } from '../helpers/faulty-service';

let service: FaultyService;
const unhandled: unknown[] = [];
const recordUnhandled = (reason: unknown): void => void unhandled.push(reason);

beforeAll(async () => {
  process.on('unhandledRejection', recordUnhandled);
  service = await startFaultyService();
});

afterAll(async () => {
  process.off('unhandledRejection', recordUnhandled);
  await service?.close();
});

/** What an answer must never contain: the values' text (a trap's message, a symbol's description, the bigint's digits). */
const LEAKS = [SECRET, 'trap', '98765432109876543210'];

const cases = FAULT_REQUESTS.flatMap(([request, from, sent]) => HOSTILE_VALUES.map(([value]) => [request, from, value, sent] as const));

describe.each(FAULT_REQUESTS.map(([label, from, sent]) => [label, from, sent] as const))('%s, the provider throwing from %s', (_, from, sent) => {
  it.each(HOSTILE_VALUES.map(([value]) => [value]))('%s: a clean 500, the store as it was, the service still answering', async (value) => {
    const before = storeSnapshot(service.provider);
    const logged = service.logged.length;
    const answer = await sendFault(service.root, sent, from, value);
    if (sent.batch === true) {
      expect(answer.status).toBe(202);
      expect(answer.body).toMatch(/^HTTP\/1\.1 500 Internal Server Error\r$/m);
    } else {
      expect(answer.status).toBe(500);
    }
    expect(answer.body).toContain('INTERNAL');
    expect(answer.body).toContain('An internal error occurred.');
    for (const leak of LEAKS) expect(answer.body).not.toContain(leak);
    expect(storeSnapshot(service.provider)).toBe(before);
    // Logged, and the log line was made without the value throwing in its turn.
    expect(service.logged.length).toBeGreaterThan(logged);
    expect(unhandled).toEqual([]);
  });
});

it('answers normally after all of it: nothing is locked, nothing left half-done', async () => {
  expect(cases.length).toBe(FAULT_REQUESTS.length * HOSTILE_VALUES.length);
  const created = await fetch(`${service.root}Albums`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({ ID: 60, Name: 'After' }),
  });
  expect(created.status).toBe(201);
  const albums = (await (await fetch(`${service.root}Albums?$format=json&$select=ID`)).json()) as { d: { results: { ID: number }[] } };
  expect(albums.d.results.map((album) => album.ID)).toEqual([1, 2, 3, 60]);
  expect(unhandled).toEqual([]);
});
