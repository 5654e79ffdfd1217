/**
 * `express-odata-v2 serve --db postgres://...` end to end against a PostgreSQL server (npm run
 * test:postgres): the shared cases of serve-e2e.ts (reads and writes) on the same Northwind-like
 * schema, and the refusals only a server gives.
 */
import { Client } from 'pg';
import { createTestDatabase } from '../helpers/postgres-database';
import { describeServe } from './serve-e2e';
import { runCli } from './support';
import { NORTHWIND_SQL } from './northwind';

let url: string;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ url, drop } = await createTestDatabase());
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(NORTHWIND_SQL);
  } finally {
    await client.end();
  }
});

afterAll(() => drop());

describeServe(() => {
  const parsed = new URL(url);
  return { db: url, where: `the database at ${parsed.hostname}:${parsed.port}${parsed.pathname}` };
});

describe('refusals against the server: one line, exit code 1', () => {
  const withUrl = (change: (parsed: URL) => void): string => {
    const parsed = new URL(url);
    change(parsed);
    return parsed.toString();
  };
  const where = (target: string): string => {
    const parsed = new URL(target);
    return `the database at ${parsed.hostname}:${parsed.port}${parsed.pathname}`;
  };

  it('names credentials the server refuses', async () => {
    const target = withUrl((parsed) => {
      parsed.username = 'no_such_role';
      parsed.password = 'secret';
    });
    const result = await runCli(['introspect', '--db', target], process.cwd());
    expect(result).toEqual({
      code: 1,
      signal: null,
      stdout: [],
      stderr: [`express-odata-v2: ${where(target)} refused the credentials: role "no_such_role" does not exist.`],
    });
  });

  it('names a database the server does not have', async () => {
    const target = withUrl((parsed) => (parsed.pathname = '/no_such_database'));
    const result = await runCli(['serve', '--db', target], process.cwd());
    expect(result).toEqual({ code: 1, signal: null, stdout: [], stderr: [`express-odata-v2: ${where(target)}: database "no_such_database" does not exist.`] });
  });

  it('says a schema without tables has nothing to serve', async () => {
    const result = await runCli(['serve', '--db', url, '--schema', 'nothing'], process.cwd());
    expect(result).toEqual({ code: 1, signal: null, stdout: [], stderr: ["express-odata-v2: No table to serve in schema 'nothing'."] });
  });
});
