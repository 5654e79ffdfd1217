/**
 * PostgreSQL's transaction forms (the engine's `transactions`): a statement timeout that ends with
 * the transaction, and the statements of a request's database session: transaction-local settings through
 * `set_config(name, value, true)` (`role` among them is `SET LOCAL ROLE`), every name and value a
 * bound parameter, and the catalog facts that decide whether requests may run as a role.
 */
import { sql } from 'kysely';
import type { SqlSessionStatements, SqlTransactionForms } from '../engine';

/** PostgreSQL's session statements (PGlite's too). */
const POSTGRES_SESSIONS: SqlSessionStatements = Object.freeze<SqlSessionStatements>({
  settings: (pairs) => sql`select ${sql.join(pairs.map(([name, value]) => sql`set_config(${name}, ${value}, true)`))}`,
  // pg_has_role(.., 'USAGE'): has the privileges of the owner, which exempts it from the owner's
  // policies just as owning the table does (unless the table forces row-level security).
  roleFacts: (role) => sql`select r.rolsuper as "superuser", r.rolbypassrls as "bypassRls",
    pg_has_role(session_user, r.oid, 'MEMBER') as "member",
    exists (select 1 from pg_catalog.pg_class c where c.relrowsecurity and not c.relforcerowsecurity and pg_has_role(r.oid, c.relowner, 'USAGE')) as "ownsPolicedTable"
    from pg_catalog.pg_roles r where r.rolname = ${role}`,
});

/** PostgreSQL's transaction forms. */
export const POSTGRES_TRANSACTIONS: SqlTransactionForms = Object.freeze<SqlTransactionForms>({
  statementTimeout: (milliseconds) => sql`select set_config('statement_timeout', ${sql.val(String(milliseconds))}, true)`,
  sessions: POSTGRES_SESSIONS,
});
