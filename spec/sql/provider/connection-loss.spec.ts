/**
 * SqlProvider when the database goes away, on PGlite in process (the same against a real server,
 * with real kills, restarts and outages: outages.pg.spec.ts). A wrapper makes chosen statements
 * fail as a lost connection does: with the server's answer (SQLSTATE 57P01), or with no answer at
 * all (the `pg` adapter's SqlConnectionLostError for a statement it sent). What must hold: a read
 * runs once more on a fresh connection, then answers 503 DATABASE_UNAVAILABLE with Retry-After; a
 * write is never run again after it reached the database; a COMMIT or a write committing by
 * itself that got no reply is 503 WRITE_OUTCOME_UNKNOWN without Retry-After; a BEGIN that found
 * no connection is tried once more; a closed PGlite answers 503. No driver text reaches a client.
 */
import express from 'express';
import type { PGlite } from '@electric-sql/pglite';
import { odata } from '../../../lib';
import { SqlProvider, type SqlProviderOptions } from '../../../lib/sql';
import { SqlConnectionLostError } from '../../../lib/sql/connection-failure';
import { pglite, type PGliteLike } from '../../../lib/sql/postgres/pglite';
import { DEMO_LINKS, DEMO_MODEL, demoData } from '../../helpers/demo';
import { openTestPGlite } from '../../helpers/pglite';
import { startServer, type RunningServer } from '../../helpers/server';
import { loadDatabase } from './support';

/** How a statement fails: the server's 57P01 answer, no reply to a statement sent, or none sent. */
type Failure = 'answered' | 'lost' | 'unsent';

/** A statement whose text matches `pattern` fails `times` times in the given way. */
interface Fault {
  readonly pattern: RegExp;
  readonly failure: Failure;
  times: number;
}

let instance: PGlite;
const faults: Fault[] = [];
/** Every statement sent, by its first word, `insert` for one that inserts (whether the database ran it or not). */
const sent: string[] = [];

function failureFor(text: string): Error | undefined {
  const fault = faults.find((candidate) => candidate.times > 0 && candidate.pattern.test(text));
  if (fault === undefined) return undefined;
  fault.times--;
  if (fault.failure === 'answered') return Object.assign(new Error('terminating connection due to administrator command (driver text)'), { code: '57P01' });
  return new SqlConnectionLostError(fault.failure === 'lost', new Error('Connection terminated unexpectedly (driver text)'));
}

/** Run `text` unless a fault fails it; a lost reply runs it first (the server did, the client never heard). */
async function guarded<T>(text: string, run: () => Promise<T>): Promise<T> {
  // An INSERT comes wrapped in a WITH (its RETURNING is read back through it).
  sent.push(/\binsert into\b/i.test(text) ? 'insert' : text.trim().split(/\s+/)[0].toLowerCase());
  const failure = failureFor(text);
  if (failure === undefined || (failure instanceof SqlConnectionLostError && failure.sent)) {
    const result = await run();
    if (failure === undefined) return result;
  }
  throw failure;
}

function failing(): PGliteLike {
  return {
    waitReady: instance.waitReady,
    get closed() {
      return instance.closed;
    },
    query: (text, parameters, options) => guarded(text, () => instance.query(text, parameters, options)),
    exec: (text) => guarded(text, () => instance.exec(text)),
    close: () => instance.close(),
  };
}

/** The service over the failing PGlite, with provider options (a non-default isolation level puts every write in a transaction). */
async function serve(options: Partial<SqlProviderOptions> = {}): Promise<RunningServer> {
  const provider = new SqlProvider({ model: DEMO_MODEL, db: pglite(failing()), retryAfterSeconds: 3, ...options });
  const app = express();
  app.use('/odata', odata({ model: DEMO_MODEL, provider, logger: () => undefined }));
  return startServer(app);
}

let alone: RunningServer;
let transactional: RunningServer;

beforeAll(async () => {
  instance = await openTestPGlite();
  await loadDatabase(pglite(instance), DEMO_MODEL, demoData(), DEMO_LINKS);
  alone = await serve();
  transactional = await serve({ isolationLevel: 'repeatable read' });
}, 60_000);

afterAll(async () => {
  await alone?.close();
  await transactional?.close();
  await instance?.close();
});

beforeEach(() => {
  faults.length = 0;
  sent.length = 0;
});

interface Answer {
  readonly status: number;
  readonly retryAfter: string | null;
  readonly code: string | undefined;
  readonly body: string;
}

async function call(server: RunningServer, method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${server.url}/odata/${path}`, {
    method,
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const code = response.status >= 400 ? (JSON.parse(text) as { error: { code: string } }).error.code : undefined;
  return { status: response.status, retryAfter: response.headers.get('retry-after'), code, body: text };
}

async function categoryNames(): Promise<string[]> {
  const { rows } = await instance.query<{ Name: string }>('select "Name" from "Categories" order by "ID"');
  return rows.map((row) => row.Name);
}

const UNAVAILABLE = { status: 503, retryAfter: '3', code: 'DATABASE_UNAVAILABLE' };
const UNKNOWN = { status: 503, retryAfter: null, code: 'WRITE_OUTCOME_UNKNOWN' };

describe('reads', () => {
  it.each<[Failure]>([['answered'], ['lost'], ['unsent']])(
    'a read whose connection failed (%s) runs once more and answers as if nothing happened',
    async (failure) => {
      const clean = await call(alone, 'GET', 'Products?$top=2&$select=ID');
      sent.length = 0;
      faults.push({ pattern: /^select/i, failure, times: 1 });
      const retried = await call(alone, 'GET', 'Products?$top=2&$select=ID');
      expect([retried.status, retried.body, sent]).toEqual([200, clean.body, ['select', 'select']]);
    },
  );

  it('a read that fails twice answers 503 DATABASE_UNAVAILABLE with Retry-After, without the driver text', async () => {
    faults.push({ pattern: /^select/i, failure: 'answered', times: 2 });
    const answer = await call(alone, 'GET', 'Products(1)');
    expect(answer).toMatchObject(UNAVAILABLE);
    expect(answer.body).not.toContain('driver text');
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: 'DATABASE_UNAVAILABLE', message: { lang: 'en-US', value: 'The database is unavailable; try again later.' } },
    });
    // The next request finds the database back.
    expect((await call(alone, 'GET', 'Products(1)?$select=ID')).status).toBe(200);
  });
});

describe('writes', () => {
  const created = (id: number): { ID: number; Name: string } => ({ ID: id, Name: `Category ${id}` });

  it.each<[string, Answer['code'], () => RunningServer, RegExp, Failure, boolean]>([
    ['a write run alone, answered with 57P01', 'DATABASE_UNAVAILABLE', () => alone, /\binsert into\b/i, 'answered', false],
    ['a write run alone whose reply was lost', 'WRITE_OUTCOME_UNKNOWN', () => alone, /\binsert into\b/i, 'lost', true],
    ['a write in a transaction, answered with 57P01', 'DATABASE_UNAVAILABLE', () => transactional, /\binsert into\b/i, 'answered', false],
    [
      'a write in a transaction whose reply was lost (the transaction never commits)',
      'DATABASE_UNAVAILABLE',
      () => transactional,
      /\binsert into\b/i,
      'lost',
      false,
    ],
    ['a COMMIT answered with 57P01', 'DATABASE_UNAVAILABLE', () => transactional, /^commit/i, 'answered', false],
    ['a COMMIT whose reply was lost', 'WRITE_OUTCOME_UNKNOWN', () => transactional, /^commit/i, 'lost', true],
    ['a COMMIT never sent (the connection was gone)', 'DATABASE_UNAVAILABLE', () => transactional, /^commit/i, 'unsent', false],
  ])('%s: 503 %s, sent once, never again', async (_, code, server, pattern, failure, applied) => {
    const before = await categoryNames();
    faults.push({ pattern, failure, times: 1 });
    const answer = await call(server(), 'POST', 'Categories', created(901));
    expect(answer).toMatchObject(code === 'WRITE_OUTCOME_UNKNOWN' ? UNKNOWN : UNAVAILABLE);
    expect(answer.body).not.toContain('driver text');
    if (code === 'WRITE_OUTCOME_UNKNOWN')
      expect(JSON.parse(answer.body)).toEqual({
        error: {
          code,
          message: {
            lang: 'en-US',
            value:
              'The connection to the database was lost before it confirmed the change: the change may or may not have been applied. Read the data before trying again.',
          },
        },
      });
    expect(sent.filter((word) => word === 'insert')).toEqual(['insert']);
    // What the database holds: a lost reply to a statement that ran is the one case where the change is there.
    expect(await categoryNames()).toEqual(applied ? [...before, 'Category 901'] : before);
    // No transaction is left open, no connection held: the next write goes through.
    expect((await call(server(), 'POST', 'Categories', created(902))).status).toBe(201);
    await instance.query('delete from "Categories" where "ID" >= 900');
  });

  it('a BEGIN that found no connection is tried once more: nothing had run', async () => {
    faults.push({ pattern: /^start transaction/i, failure: 'unsent', times: 1 });
    const answer = await call(transactional, 'POST', 'Categories', created(990));
    expect([answer.status, sent.filter((word) => word === 'start')]).toEqual([201, ['start', 'start']]);
    await instance.query('delete from "Categories" where "ID" >= 900');
  });
});

describe('a closed PGlite', () => {
  it('answers every request 503 DATABASE_UNAVAILABLE, reads and writes, and never throws out of the request', async () => {
    const closing = await openTestPGlite();
    await loadDatabase(pglite(closing), DEMO_MODEL, demoData(), DEMO_LINKS);
    const provider = new SqlProvider({ model: DEMO_MODEL, db: pglite(closing), retryAfterSeconds: 3 });
    const app = express();
    app.use('/odata', odata({ model: DEMO_MODEL, provider, logger: () => undefined }));
    const server = await startServer(app);
    try {
      expect((await call(server, 'GET', 'Products(1)?$select=ID')).status).toBe(200);
      await closing.close();
      for (const [method, path, body] of [
        ['GET', 'Products(1)', undefined],
        ['GET', 'Products/$count', undefined],
        ['POST', 'Categories', { ID: 950, Name: 'Late' }],
        ['DELETE', 'Categories(1)', undefined],
      ] as const) {
        expect(await call(server, method, path, body)).toMatchObject(UNAVAILABLE);
      }
    } finally {
      await server.close();
    }
  });
});
