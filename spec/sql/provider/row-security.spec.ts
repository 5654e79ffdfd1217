/**
 * Row-level security through SqlProvider's `session` on PGlite (one session, which PGlite logs in
 * to as a superuser): the shared cases (row-security-cases.ts), the statements a session adds
 * (one `set_config` statement in a transaction per read; none without a session), that nothing of
 * a session outlives its request (also after a statement that failed midway), and the start-time
 * role check.
 */
import express from 'express';
import type { PGlite } from '@electric-sql/pglite';
import { odata } from '../../../lib';
import { pglite, SqlProvider, type SqlDatabase } from '../../../lib/sql';
import { openTestPGlite } from '../../helpers/pglite';
import { loadRealSchema } from '../../helpers/real-schema';
import { startServer, type RunningServer } from '../../helpers/server';
import { describeRowSecurity, type RowSecurityHarness } from './row-security-cases';
import { introspectRowSecurity, request, rowSecurityRoles, rowSecuritySql, serveRowSecurity, type RowSecurityService } from './row-security';
import { ReadLog } from './support';

const roles = rowSecurityRoles('rls_pglite');
const log = new ReadLog();
let instance: PGlite;
let db: SqlDatabase;
let service: RowSecurityService;
let streamed: RowSecurityService;
let sessionless: RunningServer;

beforeAll(async () => {
  instance = await openTestPGlite();
  await loadRealSchema(instance);
  await instance.exec(rowSecuritySql(roles));
  const plain = pglite(instance);
  db = { ...plain, kysely: plain.kysely.withPlugin(log) };
  const schema = await introspectRowSecurity(plain);
  service = await serveRowSecurity(db, roles, schema, { maxPageSize: 4 });
  streamed = await serveRowSecurity(db, roles, schema, { sql: { chunkSize: 3 } });
  const app = express();
  app.use('/odata', odata({ model: schema.model, provider: new SqlProvider({ model: schema.model, db, mapping: schema.mapping }) }));
  sessionless = await startServer(app);
}, 60_000);

afterAll(async () => {
  await Promise.all([service?.server.close(), streamed?.server.close(), sessionless?.close()]);
  await instance.close();
});

const harness = (): RowSecurityHarness => ({
  service,
  streamed,
  admin: async (text) => (await instance.query<Record<string, unknown>>(text)).rows,
});

describeRowSecurity(harness);

/** The login role and the claims setting of PGlite's one session, between requests. */
async function sessionState(): Promise<unknown> {
  return (await instance.query(`select current_user as "user", coalesce(current_setting('request.jwt.claims', true), '') as claims`)).rows[0];
}

describe('the session', () => {
  it('is one set_config statement, all values bound, first in each read; a provider without a session adds none', async () => {
    const statementsOf = async (server: RunningServer): Promise<unknown[]> => {
      log.reads = [];
      expect((await request(server, 'alfki', 'GET', 'Orders(10248)?$select=OrderID')).status).toBe(200);
      return log.reads.map((read) => (read.text.startsWith('select set_config') ? [read.text, read.parameters] : read.text.split(' ')[0]));
    };
    expect(await statementsOf(service.server)).toEqual([
      ['select set_config($1, $2, true), set_config($3, $4, true)', ['role', roles.alfki, 'request.jwt.claims', '{"customer":"ALFKI"}']],
      'select',
    ]);
    expect(await statementsOf(sessionless)).toEqual(['select']);
  });

  it('leaves nothing behind: not after a read, not after a statement that failed midway, not after a refused write', async () => {
    const login = await sessionState();
    expect(login).toEqual({ user: 'postgres', claims: '' });
    // Division by zero on alfki's order 10250 fails the statement after rows were read.
    expect((await request(service.server, 'alfki', 'GET', 'Orders?$filter=1 div (OrderID sub 10250) eq 0')).status).toBe(400);
    expect(await sessionState()).toEqual(login);
    expect((await request(service.server, 'alfki', 'MERGE', 'Orders(10248)', { body: { ClientIp: '10.1.1.1' }, headers: { 'if-match': '*' } })).status).toBe(
      403,
    );
    expect(await sessionState()).toEqual(login);
    // The next user on the same session sees its own orders only.
    expect((await request(service.server, 'anatr', 'GET', 'Orders/$count')).body).toBe(11);
  });

  it('checks the roles known at start, naming each problem', async () => {
    await expect(service.provider.checkRoles([roles.alfki, roles.anatr])).resolves.toBeUndefined();
    await expect(service.provider.checkRoles([roles.alfki, roles.bypass, 'none', `${roles.alfki}_ghost`])).rejects.toThrow(
      `Requests may not run as these roles: '${roles.bypass}': it has BYPASSRLS; 'none': 'none' is not a role requests may run as; '${roles.alfki}_ghost': no such role exists.`,
    );
  });
});
