/**
 * Shared by the introspection specs on PGlite and on a server: the golden files (the EDMX and the
 * mapping of the fixture, one pair for both engines), and serving an introspected model.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import express from 'express';
import { odata, writeEdmx } from '../../../lib';
import type { EdmModel } from '../../../lib/edm/model';
import { SqlProvider, type IntrospectionResult, type SqlDatabase, type SqlMapping } from '../../../lib/sql';
import { startServer, type RunningServer } from '../../helpers/server';

const GOLDEN = join(__dirname, '..', '..', 'golden', 'introspect');

/** Compare with spec/golden/introspect/<name> byte for byte; `UPDATE_GOLDEN=1` rewrites it. */
function expectGolden(name: string, actual: string): void {
  const file = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, actual);
  }
  if (!existsSync(file)) throw new Error(`golden file ${name} is missing: run with UPDATE_GOLDEN=1 and review it`);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

/** The fixture's result against its golden files: metadata.xml and mapping.json as the CLI writes them. */
export function expectFixtureGolden(result: IntrospectionResult): void {
  expectGolden('fixture.xml', writeEdmx(result.model));
  expectGolden('fixture-mapping.json', `${JSON.stringify(result.mapping, null, 2)}\n`);
}

/** The warnings as `CODE target` lines. */
export function warningLines(result: IntrospectionResult): string[] {
  return result.warnings.map((warning) => `${warning.code} ${warning.target}`);
}

/** Serve a model over `db` with its mapping on 127.0.0.1. */
export function serveModel(model: EdmModel, mapping: SqlMapping, db: SqlDatabase): Promise<RunningServer> {
  const app = express();
  app.use('/odata', odata({ model, provider: new SqlProvider({ model, db, mapping }) }));
  return startServer(app);
}

/** GET a path below /odata/ as JSON: the status and the parsed `d`. */
export async function getJson(server: RunningServer, path: string): Promise<{ status: number; d: unknown }> {
  const response = await fetch(`${server.url}/odata/${path}`, { headers: { accept: 'application/json' } });
  if (response.status === 204) return { status: 204, d: null };
  const body = (await response.json()) as { d?: unknown; error?: unknown };
  return { status: response.status, d: body.d ?? body.error };
}

/** The `results` of a JSON feed (V2 wraps them), with `__metadata` and deferred links dropped. */
export function rows(d: unknown): Record<string, unknown>[] {
  const results = (d as { results?: unknown[] }).results ?? [d];
  return results.map((row) => plain(row as Record<string, unknown>));
}

function plain(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row)) {
    if (name === '__metadata') continue;
    if (typeof value === 'object' && value !== null && '__deferred' in value) continue;
    if (typeof value === 'object' && value !== null && 'results' in value) out[name] = rows(value);
    else if (typeof value === 'object' && value !== null && '__metadata' in value) out[name] = plain(value);
    else out[name] = value;
  }
  return out;
}
