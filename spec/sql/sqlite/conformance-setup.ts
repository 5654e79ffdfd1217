/**
 * SqlProvider on SQLite under the conformance suite: a fresh database per unit (in memory, or a
 * file in a temporary folder), the fixture's schema and rows (createSchema, seed), and the
 * Moments' microsecond timestamps stored exactly (`storeExact`: an UPDATE with the fixed-width
 * text the SQLite codec writes). The store's own defaults are not claimed: SQLite cannot give an
 * existing column a default (`ALTER COLUMN … SET DEFAULT`).
 */
import { sql } from 'kysely';
import { SqlProvider, createSchema, resolveMapping, seed, sqlite } from '../../../lib/sql';
import type { SqlDatabase } from '../../../lib/sql';
import type { ConformanceFixture, ExactEntity, ProviderUnderTest } from '../../../lib/testing';

/** `2000-01-02T03:04:05.123456Z` as SQLite stores it: `2000-01-02 03:04:05.123456` (digits past the third without trailing zeros). */
function storedText(iso: string | null): string | null {
  if (iso === null) return null;
  // The instant at milliseconds (a Date), moved to UTC, then the digits past the millisecond as given.
  const fraction = /\.(\d+)/.exec(iso)?.[1] ?? '';
  const utc = new Date(iso.replace(/\.\d+/, `.${fraction.padEnd(3, '0').slice(0, 3)}`)).toISOString();
  return `${utc.slice(0, 10)} ${utc.slice(11, 23)}${fraction.slice(3).replace(/0+$/, '')}`;
}

/** The suite's setup on a new SQLite database at `file` (`:memory:` by default). */
export async function sqliteConformanceSetup({ model, data }: ConformanceFixture, file = ':memory:'): Promise<ProviderUnderTest> {
  const db: SqlDatabase = sqlite(file);
  await createSchema(db, model);
  await seed(db, model, {}, data);
  const mapping = resolveMapping(model, {});
  return {
    provider: new SqlProvider({ model, db }),
    storeExact: async (entities: readonly ExactEntity[]) => {
      for (const entity of entities) {
        const set = mapping.entitySets[entity.entitySet];
        const assignments = Object.entries(entity.values).map(([name, text]) => sql`${sql.id(set.columns[name])} = ${storedText(text)}`);
        const keys = Object.entries(entity.key).map(([name, value]) => sql`${sql.id(set.columns[name])} = ${value}`);
        await sql`update ${sql.id(set.table)} set ${sql.join(assignments)} where ${sql.join(keys, sql` and `)}`.execute(db.kysely);
      }
    },
    close: () => db.close(),
  };
}
