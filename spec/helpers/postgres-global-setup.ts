/**
 * Jest global setup of `npm run test:postgres`: use DATABASE_URL when it is set, else start a
 * throwaway server and publish its URL to the workers (they inherit process.env).
 */
import { startPostgres, type PostgresServer } from './postgres-server';

/** Where the teardown finds the server this setup started (same process, same global). */
export const SERVER_KEY = Symbol.for('express-odata-v2.postgres-server');

export default async function globalSetup(): Promise<void> {
  if (process.env.DATABASE_URL !== undefined && process.env.DATABASE_URL !== '') return;
  const server: PostgresServer = await startPostgres();
  (globalThis as Record<symbol, unknown>)[SERVER_KEY] = server;
  process.env.DATABASE_URL = server.url;
}
