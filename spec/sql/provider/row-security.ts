/**
 * Row-level security on the real-schema spec database, shared by the PGlite and the server specs:
 * two request roles (each with a customer in its claims), a role that bypasses row-level security
 * and a superuser that requests must never run as, the policies (orders by the customer in the
 * claims, changed only while not shipped, deleted only while new; order lines by their order;
 * customers by the claims; employees for the first role only), twenty more orders, a version
 * column on orders, and the service that runs each request as the user its `x-user` header names.
 */
import express from 'express';
import { odata } from '../../../lib';
import type { EdmModel } from '../../../lib/edm/model';
import { introspect, SqlProvider, type SqlDatabase, type SqlMapping, type SqlProviderOptions, type SqlSession } from '../../../lib/sql';
import { startServer, type RunningServer } from '../../helpers/server';

/** The roles of one spec file (roles are shared by every database of a server: the suffix keeps files apart). */
export interface RowSecurityRoles {
  /** Sees and changes the orders of ALFKI; every privilege on every table. */
  readonly alfki: string;
  /** Sees and changes the orders of ANATR; no DELETE privilege. */
  readonly anatr: string;
  /** Has BYPASSRLS. */
  readonly bypass: string;
  /** A superuser. */
  readonly superuser: string;
  /** A role the login role may not switch to (on a server; PGlite logs in as a superuser, who may switch to any). */
  readonly stranger: string;
}

/** The roles of a spec file, named with `prefix` and a random suffix. */
export function rowSecurityRoles(prefix: string): RowSecurityRoles {
  const suffix = Math.random().toString(36).slice(2, 8);
  return {
    alfki: `${prefix}_alfki_${suffix}`,
    anatr: `${prefix}_anatr_${suffix}`,
    bypass: `${prefix}_bypass_${suffix}`,
    superuser: `${prefix}_super_${suffix}`,
    stranger: `${prefix}_stranger_${suffix}`,
  };
}

/** The claims' customer, as every policy reads it (nullif: a setting set earlier in the session reads '' afterwards). */
const CUSTOMER = "nullif(current_setting('request.jwt.claims', true), '')::json ->> 'customer'";

/** The policies, roles, rows and privileges, run by the login role after the real schema. */
export function rowSecuritySql(roles: RowSecurityRoles): string {
  const { alfki, anatr, bypass, superuser, stranger } = roles;
  return `
alter table orders add column version integer not null default 0;
insert into orders (order_id, customer_id, status, ordered_at)
  select 10250 + i, case when i % 2 = 0 then 'ALFKI' else 'ANATR' end, (case when i % 3 = 0 then 'shipped' else 'new' end)::order_status,
         timestamp '2024-08-01 09:00' + i * interval '1 day'
  from generate_series(0, 19) as i;
insert into order_details (order_id, product_id, unit_price, quantity) select 10250 + i, 1 + i % 3, 10, 1 + i from generate_series(0, 19) as i;

create role ${alfki};
create role ${anatr};
create role ${bypass} bypassrls;
create role ${superuser} superuser;
create role ${stranger};
grant usage on schema public to ${alfki}, ${anatr}, ${bypass}, ${stranger};
grant select, insert, update, delete on all tables in schema public to ${alfki};
grant select, insert, update on all tables in schema public to ${anatr};
grant select on all tables in schema public to ${bypass}, ${stranger};

alter table orders enable row level security;
create policy orders_see on orders for select using (customer_id = ${CUSTOMER});
create policy orders_add on orders for insert with check (customer_id = ${CUSTOMER});
create policy orders_change on orders for update using (customer_id = ${CUSTOMER} and status <> 'shipped');
create policy orders_remove on orders for delete using (customer_id = ${CUSTOMER} and status = 'new');
alter table order_details enable row level security;
create policy details_by_order on order_details using (exists (select 1 from orders o where o.order_id = order_details.order_id));
alter table customers enable row level security;
create policy customers_see on customers for select using (customer_id = ${CUSTOMER});
alter table employees enable row level security;
create policy employees_first on employees for select to ${alfki} using (true);
`;
}

/** Drop what rowSecuritySql made on a server (the database itself is dropped by its spec). */
export function dropRowSecuritySql(roles: RowSecurityRoles): string {
  return Object.values(roles)
    .map((role) => `drop owned by ${role}; drop role if exists ${role};`)
    .join('\n');
}

/** The users a request names in `x-user`, and what each one's session is. */
export type RowSecurityUser = 'alfki' | 'anatr' | 'bypass' | 'superuser' | 'stranger' | 'none' | 'ghost' | 'nobody';

/** The session of each user: a role and the claims (`nobody` gives none). */
function sessionOf(roles: RowSecurityRoles, user: string | undefined): SqlSession | undefined {
  const claims = (customer: string): Readonly<Record<string, string>> => ({ 'request.jwt.claims': JSON.stringify({ customer }) });
  switch (user) {
    case 'alfki':
      return { role: roles.alfki, settings: claims('ALFKI') };
    case 'anatr':
      return { role: roles.anatr, settings: claims('ANATR') };
    case 'bypass':
      return { role: roles.bypass, settings: claims('ALFKI') };
    case 'superuser':
      return { role: roles.superuser, settings: claims('ALFKI') };
    case 'stranger':
      return { role: roles.stranger, settings: claims('ALFKI') };
    case 'none':
      return { role: 'none' };
    case 'ghost':
      return { role: `${roles.alfki}_ghost` };
    default:
      return undefined;
  }
}

/** The model and mapping of the real schema with row-level security (as the login role introspects it). */
export function introspectRowSecurity(db: SqlDatabase): Promise<{ model: EdmModel; mapping: SqlMapping }> {
  return introspect(db, { namespace: 'Shop', names: 'odata' });
}

/** A service that runs each request as its `x-user`, paged by `maxPageSize`; the provider's refusals are kept in `logged`. */
export interface RowSecurityService {
  readonly server: RunningServer;
  readonly provider: SqlProvider;
  readonly logged: string[];
}

/** Serve `db` with a session per request from the `x-user` header. */
export async function serveRowSecurity(
  db: SqlDatabase,
  roles: RowSecurityRoles,
  schema: { model: EdmModel; mapping: SqlMapping },
  options: { readonly maxPageSize?: number; readonly sql?: Partial<SqlProviderOptions> } = {},
): Promise<RowSecurityService> {
  const logged: string[] = [];
  const provider = new SqlProvider({
    model: schema.model,
    db,
    mapping: schema.mapping,
    session: (context) => sessionOf(roles, context.request.headers['x-user'] as string | undefined),
    logger: (event) => logged.push(event.message),
    ...options.sql,
  });
  const app = express();
  app.use('/odata', odata({ model: schema.model, provider, ...(options.maxPageSize === undefined ? {} : { maxPageSize: options.maxPageSize }) }));
  return { server: await startServer(app), provider, logged };
}

/** An answer as JSON: the status, the ETag header and the parsed body (null for none). */
export interface JsonAnswer {
  readonly status: number;
  readonly etag: string | null;
  readonly body: unknown;
}

/** Send a request as `user` (JSON both ways). */
export async function request(
  server: RunningServer,
  user: RowSecurityUser,
  method: string,
  path: string,
  options: { readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> } = {},
): Promise<JsonAnswer> {
  const headers: Record<string, string> = { accept: 'application/json', 'x-user': user, ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${server.url}/odata/${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await response.text();
  return { status: response.status, etag: response.headers.get('etag'), body: text === '' ? null : (JSON.parse(text) as unknown) };
}

/** The error code of an error answer. */
export function errorCode(answer: JsonAnswer): string | undefined {
  return (answer.body as { error?: { code?: string } } | null)?.error?.code;
}

/** The entries of a feed answer (`d.results`). */
export function entries(answer: JsonAnswer): Record<string, unknown>[] {
  if (answer.status !== 200) throw new Error(`expected a feed, got ${answer.status}: ${JSON.stringify(answer.body)}`);
  return (answer.body as { d: { results: Record<string, unknown>[] } }).d.results;
}

/** Follow a feed's next links to the end as `user`: every entry, and the `__count` of each page. */
export async function walkFeed(server: RunningServer, user: RowSecurityUser, path: string): Promise<{ entries: Record<string, unknown>[]; counts: unknown[] }> {
  const all: Record<string, unknown>[] = [];
  const counts: unknown[] = [];
  let next: string | undefined = path;
  for (let pages = 0; next !== undefined; pages++) {
    if (pages > 50) throw new Error(`the next links of ${path} never end`);
    const answer = await request(server, user, 'GET', next);
    all.push(...entries(answer));
    const d = (answer.body as { d: { __next?: string; __count?: unknown } }).d;
    counts.push(d.__count);
    next = d.__next?.replace(`${server.url}/odata/`, '');
  }
  return { entries: all, counts };
}
