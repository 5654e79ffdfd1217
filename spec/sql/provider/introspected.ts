/**
 * An introspected schema served by SqlProvider on a 127.0.0.1 port, for the write specs over real
 * schemas: sets, properties and navigations found by table and column through the mapping (so the
 * specs hold for any naming style), and a JSON request with its status, ETag and error.
 */
import express from 'express';
import { odata } from '../../../lib';
import { introspect, SqlProvider, type IntrospectOptions, type IntrospectionResult, type SqlDatabase } from '../../../lib/sql';
import { startServer, type RunningServer } from '../../helpers/server';

/** An answer of the served schema. */
export interface Answer {
  readonly status: number;
  readonly etag: string | null;
  readonly text: string;
  json(): { error?: { code?: string; message?: { value?: string } }; d?: Record<string, unknown> };
}

/** The served schema and how to address it by SQL names. */
export interface IntrospectedService {
  readonly result: IntrospectionResult;
  readonly server: RunningServer;
  /** The entity set of a table. */
  setOf(table: string): string;
  /** The property of a column of a table. */
  propertyOf(table: string, column: string): string;
  /** An entry body from column values. */
  body(table: string, columns: Readonly<Record<string, unknown>>): Record<string, unknown>;
  /** The navigation property from one table's entity type to another's. */
  navigationOf(from: string, to: string): string;
  send(method: string, path: string, payload?: unknown, headers?: Readonly<Record<string, string>>): Promise<Answer>;
}

/** Introspect `db` with `options` and serve it (close `server` when done). */
export async function serveIntrospected(db: SqlDatabase, options: IntrospectOptions): Promise<IntrospectedService> {
  const result = await introspect(db, options);
  const { model, mapping } = result;
  const app = express();
  app.use('/odata', odata({ model, provider: new SqlProvider({ model, db, mapping }), logger: () => undefined }));
  const server = await startServer(app);
  const setOf = (table: string): string => {
    const found = Object.entries(mapping.entitySets).find(([, set]) => set.table === table);
    if (found === undefined) throw new Error(`no entity set for the table ${table}`);
    return found[0];
  };
  const propertyOf = (table: string, column: string): string => {
    const found = Object.entries(mapping.entitySets[setOf(table)].columns).find(([, name]) => name === column);
    if (found === undefined) throw new Error(`no property for ${table}.${column}`);
    return found[0];
  };
  const typeOf = (table: string) => model.defaultContainer.entitySets.find((set) => set.name === setOf(table))?.entityType;
  return {
    result,
    server,
    setOf,
    propertyOf,
    body: (table, columns) => Object.fromEntries(Object.entries(columns).map(([column, value]) => [propertyOf(table, column), value])),
    navigationOf(from, to) {
      const target = typeOf(to);
      const found = typeOf(from)?.navigationProperties.find((property) => property.target === target);
      if (found === undefined) throw new Error(`no navigation from ${from} to ${to}`);
      return found.name;
    },
    async send(method, path, payload, headers = {}) {
      const response = await fetch(`${server.url}/odata/${path}`, {
        method,
        headers: { accept: 'application/json', ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: payload === undefined ? undefined : JSON.stringify(payload),
      });
      const text = await response.text();
      return { status: response.status, etag: response.headers.get('etag'), text, json: () => JSON.parse(text) as ReturnType<Answer['json']> };
    },
  };
}
