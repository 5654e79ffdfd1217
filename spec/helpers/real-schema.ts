/**
 * The real-schema spec database (spec/fixtures/sql/real-schema.sql; its header lists the cases it
 * holds): its SQL with the reader role named, and loaders for PGlite and for a server. Role names
 * are shared by all databases of a server, so each spec file passes a name of its own (and drops
 * the role afterwards on a server: `dropRealSchemaRole`).
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import type { PGlite } from '@electric-sql/pglite';
import { Client } from 'pg';

const FILE = join(__dirname, '..', 'fixtures', 'sql', 'real-schema.sql');

/** The schema's SQL, with `role` as the reader role (a lower-case SQL identifier). */
export function realSchemaSql(role: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(role)) throw new TypeError(`realSchemaSql: '${role}' is not a plain lower-case role name`);
  return readFileSync(FILE, 'utf8').replace(/__READER_ROLE__/g, role);
}

/** Load the schema into a PGlite instance (the reader role is created in it). */
export async function loadRealSchema(instance: PGlite, role = 'real_schema_reader'): Promise<void> {
  await instance.exec(realSchemaSql(role));
}

/** Run `statements` on the server database at `url`. */
async function onServer(url: string, statements: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statements);
  } finally {
    await client.end();
  }
}

/** Load the schema into the server database at `url`, with `role` as the reader role. */
export function loadRealSchemaOnServer(url: string, role: string): Promise<void> {
  return onServer(url, realSchemaSql(role));
}

/** Drop the reader role (and what it owns or was granted in the database at `url`). */
export function dropRealSchemaRole(url: string, role: string): Promise<void> {
  return onServer(url, `drop owned by ${role}; drop role if exists ${role};`);
}
