/**
 * The conformance setup with SqlProvider's `session` on: every request runs as a database role.
 * Requests of the suite's two visibility contexts (header `x-conformance-context: a` or `b`) run as
 * roles whose row-level security policies on Items and Categories show some rows (a: odd Item IDs,
 * Categories 1 and 2; b: Items whose Rank is at least the `conformance.min_rank` setting of its
 * session, every Category but 2); every other request runs as a role whose policies show every
 * row, so the rest of the suite checks that everything works under a session.
 */
import { sql } from 'kysely';
import { resolveMapping, type SqlDatabase, type SqlSession } from '../../../lib/sql';
import type { ConformanceFixture, ProviderUnderTest } from '../../../lib/testing';
import { conformanceSetup } from './conformance-setup';

/** The three roles of one spec file (roles are shared by the databases of a server). */
export interface ConformanceRoles {
  readonly all: string;
  readonly a: string;
  readonly b: string;
}

/** Roles named with `prefix` and a random suffix. */
export function conformanceRoles(prefix: string): ConformanceRoles {
  const suffix = Math.random().toString(36).slice(2, 8);
  return { all: `${prefix}_all_${suffix}`, a: `${prefix}_a_${suffix}`, b: `${prefix}_b_${suffix}` };
}

const MIN_RANK = 2;

/** The session of a request by its `x-conformance-context` header. */
function sessionOf(roles: ConformanceRoles, context: string | string[] | undefined): SqlSession {
  if (context === 'a') return { role: roles.a };
  if (context === 'b') return { role: roles.b, settings: { 'conformance.min_rank': String(MIN_RANK) } };
  return { role: roles.all };
}

/** Create the roles once (idempotent). */
export async function createConformanceRoles(db: SqlDatabase, roles: ConformanceRoles): Promise<void> {
  for (const role of Object.values(roles)) await sql.raw(`create role ${role}`).execute(db.kysely);
}

/** Drop the roles (after the databases that granted them anything are gone, or with `drop owned`). */
export function dropConformanceRolesSql(roles: ConformanceRoles): string {
  return Object.values(roles)
    .map((role) => `drop owned by ${role}; drop role if exists ${role};`)
    .join('\n');
}

/** The suite's setup over `db` in `schema`, with sessions, policies and the visibility of the two contexts. */
export async function sessionConformanceSetup(
  db: SqlDatabase,
  fixture: ConformanceFixture,
  schema: string,
  roles: ConformanceRoles,
): Promise<Omit<ProviderUnderTest, 'close'>> {
  const overrides = { schema };
  const underTest = await conformanceSetup(db, fixture, overrides, {
    session: (context) => sessionOf(roles, context.request.headers['x-conformance-context']),
  });
  const mapping = resolveMapping(fixture.model, overrides);
  const table = (set: string) => sql.id(schema, mapping.entitySets[set].table);
  const column = (set: string, property: string) => sql.id(mapping.entitySets[set].columns[property]);
  const everyone = sql.raw(`${roles.all}, ${roles.a}, ${roles.b}`);
  const statements = [
    sql`grant usage on schema ${sql.id(schema)} to ${everyone}`,
    sql`grant select, insert, update, delete on all tables in schema ${sql.id(schema)} to ${everyone}`,
    sql`grant usage on all sequences in schema ${sql.id(schema)} to ${everyone}`,
    sql`alter table ${table('Items')} enable row level security`,
    sql`alter table ${table('Categories')} enable row level security`,
    sql`create policy everything on ${table('Items')} to ${sql.id(roles.all)} using (true)`,
    sql`create policy everything on ${table('Categories')} to ${sql.id(roles.all)} using (true)`,
    sql`create policy odd on ${table('Items')} to ${sql.id(roles.a)} using (${column('Items', 'ID')} % 2 = 1)`,
    sql`create policy ranked on ${table('Items')} to ${sql.id(roles.b)} using (${column('Items', 'Rank')} >= nullif(current_setting('conformance.min_rank', true), '')::int)`,
    sql`create policy first on ${table('Categories')} to ${sql.id(roles.a)} using (${column('Categories', 'ID')} in (1, 2))`,
    sql`create policy not_second on ${table('Categories')} to ${sql.id(roles.b)} using (${column('Categories', 'ID')} <> 2)`,
  ];
  for (const statement of statements) await statement.execute(db.kysely);
  const items = fixture.data.Items.map((item) => item as { ID: number; Rank: number | null });
  const categories = fixture.data.Categories.map((category) => (category as { ID: number }).ID);
  return {
    ...underTest,
    visibility: {
      contexts: [
        {
          headers: { 'x-conformance-context': 'a' },
          items: items.filter((item) => item.ID % 2 === 1).map((item) => item.ID),
          categories: categories.filter((id) => id <= 2),
        },
        {
          headers: { 'x-conformance-context': 'b' },
          items: items.filter((item) => item.Rank !== null && item.Rank >= MIN_RANK).map((item) => item.ID),
          categories: categories.filter((id) => id !== 2),
        },
      ],
    },
  };
}
