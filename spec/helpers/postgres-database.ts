/**
 * A database of its own for one spec file of `npm run test:postgres`, created on the server at
 * DATABASE_URL (which needs CREATEDB) and dropped afterwards, so spec files run in parallel.
 */
import { Client } from 'pg';

/** A fresh database: its URL, and a way to drop it (connections are closed by force). */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl === undefined || serverUrl === '') throw new Error('DATABASE_URL is not set: run these specs with `npm run test:postgres`.');
  const name = `eov2_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = async (statement: string): Promise<void> => {
    const client = new Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists "${name}" with (force)`) };
}
