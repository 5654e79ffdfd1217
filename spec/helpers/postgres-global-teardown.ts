/** Jest global teardown of `npm run test:postgres`: stop the server the setup started, if any. */
import { SERVER_KEY } from './postgres-global-setup';
import type { PostgresServer } from './postgres-server';

export default async function globalTeardown(): Promise<void> {
  const server = (globalThis as Record<symbol, unknown>)[SERVER_KEY] as PostgresServer | undefined;
  await server?.stop();
}
