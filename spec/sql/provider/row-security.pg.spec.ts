/**
 * Row-level security through SqlProvider's `session` on a PostgreSQL server (`npm run
 * test:postgres`), logged in as an authenticator role that is no superuser and may switch to the
 * request roles (as PostgREST's is): the shared cases (row-security-cases.ts), a role the
 * authenticator may not switch to, reads from a replica under the session, and 200 concurrent
 * requests alternating two users, a fifth of them failing midway (a statement that divides by
 * zero on a row, a changeset whose second write finds a hidden row), on pools of one and of four
 * connections: no answer ever holds a row of the other user, and afterwards no pooled connection
 * holds a role or a setting of a request. The conformance suite's row visibility groups, with
 * roles and policies of their own (conformance-session.ts).
 */
import { Client, Pool } from 'pg';
import { postgres, type SqlDatabase } from '../../../lib/sql';
import { describeDataProvider } from '../../../lib/testing';
import { batchBody, changeset, operation, readBatchResponse, send } from '../../helpers/batch-http';
import { createTestDatabase } from '../../helpers/postgres-database';
import { dropRealSchemaRole, loadRealSchemaOnServer } from '../../helpers/real-schema';
import { conformanceRoles, createConformanceRoles, dropConformanceRolesSql, sessionConformanceSetup } from './conformance-session';
import { describeRowSecurity, type RowSecurityHarness } from './row-security-cases';
import {
  dropRowSecuritySql,
  entries,
  introspectRowSecurity,
  request,
  rowSecurityRoles,
  rowSecuritySql,
  serveRowSecurity,
  type RowSecurityService,
} from './row-security';

const roles = rowSecurityRoles('rls_pg');
const reader = `${roles.alfki}_reader`;
const authenticator = `${roles.alfki}_login`;
let url: string;
let drop: () => Promise<void>;
let adminClient: Client;
const pools: Pool[] = [];
const services: RowSecurityService[] = [];
let schema: Awaited<ReturnType<typeof introspectRowSecurity>>;
let service: RowSecurityService;
let streamed: RowSecurityService;

/** A pool of `max` connections logged in as the authenticator, closed after the file. */
function authenticatorDb(max: number): { pool: Pool; db: SqlDatabase } {
  const login = new URL(url);
  login.username = authenticator;
  const pool = new Pool({ connectionString: login.toString(), max });
  pool.on('error', () => undefined);
  pools.push(pool);
  return { pool, db: postgres(pool) };
}

async function serve(db: SqlDatabase, options: Parameters<typeof serveRowSecurity>[3] = {}): Promise<RowSecurityService> {
  const served = await serveRowSecurity(db, roles, schema, options);
  services.push(served);
  return served;
}

beforeAll(async () => {
  ({ url, drop } = await createTestDatabase());
  await loadRealSchemaOnServer(url, reader);
  adminClient = new Client({ connectionString: url });
  await adminClient.connect();
  await adminClient.query(rowSecuritySql(roles));
  // The login role of the service: no superuser; it may switch to every request role but the stranger.
  await adminClient.query(
    `create role ${authenticator} login noinherit; grant ${roles.alfki}, ${roles.anatr}, ${roles.bypass}, ${roles.superuser} to ${authenticator}`,
  );
  const admin = postgres(url);
  try {
    schema = await introspectRowSecurity(admin);
  } finally {
    await admin.close();
  }
  service = await serve(authenticatorDb(4).db, { maxPageSize: 4 });
  streamed = await serve(authenticatorDb(4).db, { sql: { chunkSize: 3 } });
});

afterAll(async () => {
  await Promise.all(services.map((each) => each.server.close()));
  await Promise.all(pools.map((pool) => pool.end()));
  await adminClient?.query(`${dropRowSecuritySql(roles)} drop owned by ${authenticator}; drop role if exists ${authenticator};`);
  await adminClient?.end();
  await dropRealSchemaRole(url, reader);
  await drop();
});

const harness = (): RowSecurityHarness => ({
  service,
  streamed,
  admin: async (text) => (await adminClient.query<Record<string, unknown>>(text)).rows,
});

describeRowSecurity(harness);

/** The role, the claims and the role setting of every connection of `pool` (all taken at once). */
async function connectionStates(pool: Pool, size: number): Promise<unknown[]> {
  const clients = await Promise.all(Array.from({ length: size }, () => pool.connect()));
  try {
    return await Promise.all(
      clients.map(
        async (client) =>
          (
            await client.query(
              `select current_user as "user", coalesce(current_setting('request.jwt.claims', true), '') as claims, current_setting('role') as role`,
            )
          ).rows[0] as unknown,
      ),
    );
  } finally {
    clients.forEach((client) => client.release());
  }
}

it('refuses a role the login role may not switch to: 403, logged, also in the start-time check', async () => {
  service.logged.length = 0;
  const answer = await request(service.server, 'stranger', 'GET', 'Orders');
  expect(answer.status).toBe(403);
  expect(service.logged).toEqual([
    `SqlProvider: requests may not run as the role '${roles.stranger}': the login role may not switch to it (grant it to the login role); the request was refused (403).`,
  ]);
  await expect(service.provider.checkRoles([roles.alfki, roles.stranger])).rejects.toThrow(
    `Requests may not run as this role: '${roles.stranger}': the login role may not switch to it (grant it to the login role).`,
  );
});

it('reads from a replica as the request, and leaves the connections of the replica as they were', async () => {
  const primary = authenticatorDb(2);
  const replica = authenticatorDb(2);
  const replicated = await serve(primary.db, { sql: { replica: replica.db } });
  for (const [user, customer] of [
    ['alfki', 'ALFKI'],
    ['anatr', 'ANATR'],
  ] as const) {
    const expected = (await adminClient.query(`select order_id from orders where customer_id = $1 order by order_id`, [customer])).rows.map(
      (row: { order_id: number }) => row.order_id,
    );
    expect(entries(await request(replicated.server, user, 'GET', 'Orders?$select=OrderID&$orderby=OrderID')).map((entry) => entry.OrderID)).toEqual(expected);
  }
  expect(replica.pool.totalCount).toBeGreaterThan(0);
  expect(await connectionStates(replica.pool, replica.pool.totalCount)).toEqual(
    Array.from({ length: replica.pool.totalCount }, () => ({ user: authenticator, claims: '', role: 'none' })),
  );
});

describe.each([1, 4])('200 concurrent requests of two users on a pool of %d', (size) => {
  it('never show one user a row of the other, also when a fifth fail midway, and leave every connection as it was', async () => {
    const { pool, db } = authenticatorDb(size);
    const served = await serve(db);
    const own: Record<'alfki' | 'anatr', Set<number>> = { alfki: new Set(), anatr: new Set() };
    for (const row of (await adminClient.query<{ order_id: number; customer_id: string }>('select order_id, customer_id from orders')).rows)
      (row.customer_id === 'ALFKI' ? own.alfki : own.anatr).add(row.order_id);
    const failing = { alfki: 10250, anatr: 10251 } as const;
    const other = { alfki: 10251, anatr: 10250 } as const;
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const user: 'alfki' | 'anatr' = i % 2 === 0 ? 'alfki' : 'anatr';
        switch (i % 10) {
          case 0:
          case 1: {
            // Divides by zero on a row of its own, after others were read: the statement fails midway.
            const answer = await request(served.server, user, 'GET', `Orders?$filter=1 div (OrderID sub ${failing[user]}) eq 0`);
            return answer.status === 400 ? 'ok' : `${user} #${i}: ${answer.status}`;
          }
          case 2:
          case 3: {
            const json = { 'content-type': 'application/json', accept: 'application/json', 'if-match': '*' };
            const answer = await send(
              `${served.server.url}/odata/$batch`,
              'POST',
              { 'content-type': 'multipart/mixed; boundary=batch_1', 'x-user': user },
              batchBody([
                changeset(
                  'changeset_1',
                  operation('MERGE', `Orders(${failing[user] + 4})`, { headers: json, body: JSON.stringify({ ClientIp: '10.9.9.9' }) }),
                  operation('MERGE', `Orders(${other[user]})`, { headers: json, body: JSON.stringify({ ClientIp: '10.9.9.9' }) }),
                ),
              ]),
            );
            const statuses = readBatchResponse(answer).map((part) => ('changeset' in part ? -1 : part.status));
            return statuses.join() === '404' ? 'ok' : `${user} #${i}: changeset ${statuses.join()}`;
          }
          case 4:
          case 5: {
            const answer = await request(served.server, user, 'GET', 'Orders/$count');
            return answer.body === own[user].size ? 'ok' : `${user} #${i}: counted ${JSON.stringify(answer.body)}`;
          }
          default: {
            const seen = entries(await request(served.server, user, 'GET', 'Orders?$select=OrderID&$expand=Customer&$orderby=OrderID')).map(
              (entry) => [entry.OrderID as number, (entry.Customer as { CustomerID: string }).CustomerID] as const,
            );
            const wrong = seen.filter(([id, customer]) => !own[user].has(id) || customer !== (user === 'alfki' ? 'ALFKI' : 'ANATR'));
            return wrong.length === 0 && seen.length === own[user].size ? 'ok' : `${user} #${i}: saw ${JSON.stringify(seen)}`;
          }
        }
      }),
    );
    expect(outcomes.filter((outcome) => outcome !== 'ok')).toEqual([]);
    expect((await adminClient.query("select count(*)::int as n from orders where client_ip = '10.9.9.9'")).rows).toEqual([{ n: 0 }]);
    expect(await connectionStates(pool, pool.totalCount)).toEqual(
      Array.from({ length: pool.totalCount }, () => ({ user: authenticator, claims: '', role: 'none' })),
    );
    expect(pool.totalCount).toBe(size);
  });
});

describe('the conformance suite', () => {
  const roles = conformanceRoles('conformance_pg');
  let database: { url: string; drop: () => Promise<void> };
  let db: SqlDatabase;
  let units = 0;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = postgres(database.url);
    await createConformanceRoles(db, roles);
  });
  afterAll(async () => {
    await db.close();
    // The database holds the roles' grants and policies: it goes first.
    await database.drop();
    await adminClient.query(dropConformanceRolesSql(roles));
  });

  describeDataProvider('SqlProvider on a server with a database session', (fixture) => sessionConformanceSetup(db, fixture, `session${++units}`, roles), {
    capabilities: { storeDefaults: true, rowVisibility: true },
    groups: ['row visibility', 'row visibility writes', 'changesets', 'media resources'],
  });
});
