/**
 * A plain read (outside a write) that meets a serialization failure or a deadlock (SQLSTATE
 * 40001, 40P01: what distributed PostgreSQL engines answer under contention) runs again, at most
 * three times in all; then 503 TRANSACTION_CONFLICT with Retry-After, as a write transaction
 * answers, without the driver's message. Any other database error is not retried. A PGlite
 * wrapper fails the next SELECTs it is told to with an error carrying the SQLSTATE, as `pg` and
 * PGlite report it.
 */
import express from 'express';
import type { PGlite } from '@electric-sql/pglite';
import { odata } from '../../../lib';
import { SqlProvider } from '../../../lib/sql';
import { pglite, type PGliteLike } from '../../../lib/sql/postgres/pglite';
import { DEMO_LINKS, DEMO_MODEL } from '../../helpers/demo';
import { openTestPGlite } from '../../helpers/pglite';
import { startServer, type RunningServer } from '../../helpers/server';
import { largerDemoData } from './demo-data';
import { loadDatabase } from './support';

let instance: PGlite;
let server: RunningServer;
/** SQLSTATEs the next SELECTs fail with, one each, in order. */
const failures: string[] = [];
let selects = 0;

beforeAll(async () => {
  instance = await openTestPGlite();
  await loadDatabase(pglite(instance), DEMO_MODEL, largerDemoData(), DEMO_LINKS);
  const failing: PGliteLike = {
    waitReady: instance.waitReady,
    get closed() {
      return instance.closed;
    },
    query: async (text, parameters, options) => {
      if (/^\s*(with|select)\b/i.test(text)) {
        selects++;
        const code = failures.shift();
        if (code !== undefined) throw Object.assign(new Error(`could not serialize access (injected ${code})`), { code });
      }
      return instance.query(text, parameters, options);
    },
    close: () => instance.close(),
  };
  const provider = new SqlProvider({ model: DEMO_MODEL, db: pglite(failing), retryAfterSeconds: 4 });
  const app = express();
  app.use('/odata', odata({ model: DEMO_MODEL, provider, logger: () => undefined }));
  server = await startServer(app);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await instance?.close();
});

beforeEach(() => {
  failures.length = 0;
  selects = 0;
});

async function read(path: string): Promise<{ status: number; retryAfter: string | null; body: string }> {
  const answer = await fetch(`${server.url}/odata/${path}`, { headers: { accept: 'application/json' } });
  return { status: answer.status, retryAfter: answer.headers.get('retry-after'), body: await answer.text() };
}

describe('SqlProvider: plain reads after a serialization failure or deadlock', () => {
  it.each([
    ['a key read', 'Products(1)?$select=ID'],
    ['a feed', 'Products?$top=2&$select=ID'],
    ['a count', 'Products/$count'],
  ])('%s runs again after 40001 and 40P01 and answers as if nothing happened', async (_what, path) => {
    const clean = await read(path);
    selects = 0;
    failures.push('40001', '40P01');
    const retried = await read(path);
    expect({ status: retried.status, body: retried.body, selects }).toEqual({ status: 200, body: clean.body, selects: 3 });
  });

  it('answers 503 TRANSACTION_CONFLICT with Retry-After after the third failure, without the driver message', async () => {
    failures.push('40001', '40001', '40001', '40001');
    const answer = await read('Products(1)');
    expect(answer.status).toBe(503);
    expect(answer.retryAfter).toBe('4');
    expect(JSON.parse(answer.body)).toEqual({
      error: {
        code: 'TRANSACTION_CONFLICT',
        message: { lang: 'en-US', value: 'The transaction kept conflicting with concurrent ones (3 attempts); try again later.' },
      },
    });
    expect(selects).toBe(3);
    // The fourth failure was never reached: the next read succeeds after one more.
    expect((await read('Products(1)?$select=ID')).status).toBe(200);
  });

  it('does not run a read again after any other database error', async () => {
    failures.push('42P01');
    const answer = await read('Products(1)');
    expect(answer.status).toBe(500);
    expect(answer.body).not.toContain('could not serialize');
    expect(selects).toBe(1);
  });
});
