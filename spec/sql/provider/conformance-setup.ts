/**
 * SqlProvider under the conformance suite with everything it can do: the fixture's schema and
 * rows (createSchema, seed), the Moments' microsecond timestamps stored exactly (`storeExact`: an
 * UPDATE with the text, into the timestamp(6) columns the model's Precision 6 gives), the store's
 * own default for the store-generated Customers.Joined (`DEFAULT now()`, so `storeDefaults`), and,
 * when the options carry a `beforeCommit` hook, a serialization failure (SQLSTATE 40001) injected
 * before the commit of the transaction the suite asks to be retried (`retryNextTransaction`).
 * Without one, the provider runs as configured by default (a single write request that is one
 * statement runs without BEGIN and COMMIT) and the suite makes its retries itself.
 */
import { sql } from 'kysely';
import { SqlProvider, createSchema, resolveMapping, seed } from '../../../lib/sql';
import type { SqlDatabase, SqlMappingOverrides, SqlProviderOptions } from '../../../lib/sql';
import type { ConformanceFixture, ExactEntity, ProviderUnderTest } from '../../../lib/testing';

/** The suite's setup over `db`; `options` go to the provider (an isolation level, a beforeCommit of its own). */
export async function conformanceSetup(
  db: SqlDatabase,
  { model, data }: ConformanceFixture,
  overrides: SqlMappingOverrides = {},
  options: Partial<SqlProviderOptions> = {},
): Promise<Omit<ProviderUnderTest, 'close'>> {
  await createSchema(db, model, overrides);
  await seed(db, model, overrides, data);
  const mapping = resolveMapping(model, overrides);
  const tableOf = (entitySet: string) => {
    const set = mapping.entitySets[entitySet];
    return { set, table: set.schema === undefined ? sql.id(set.table) : sql.id(set.schema, set.table) };
  };
  const customers = tableOf('Customers');
  await sql`alter table ${customers.table} alter column ${sql.id(customers.set.columns.Joined)} set default now()`.execute(db.kysely);

  const hook = options.beforeCommit;
  let retryNext = false;
  const beforeCommit: SqlProviderOptions['beforeCommit'] = async (attempt) => {
    await hook?.(attempt);
    if (!retryNext || attempt.attempt > 1) return;
    retryNext = false;
    await sql`do $$ begin raise exception 'injected serialization failure' using errcode = '40001'; end $$`.execute(attempt.executor);
  };
  const retries =
    hook === undefined
      ? {}
      : {
          retryNextTransaction: () => {
            retryNext = true;
          },
        };
  return {
    provider: new SqlProvider({ ...options, model, db, mapping: overrides, ...(hook === undefined ? {} : { beforeCommit }) }),
    storeExact: async (entities: readonly ExactEntity[]) => {
      for (const entity of entities) {
        const { set, table } = tableOf(entity.entitySet);
        const assignments = Object.entries(entity.values).map(([name, text]) => sql`${sql.id(set.columns[name])} = ${text}`);
        const keys = Object.entries(entity.key).map(([name, value]) => sql`${sql.id(set.columns[name])} = ${value}`);
        await sql`update ${table} set ${sql.join(assignments)} where ${sql.join(keys, sql` and `)}`.execute(db.kysely);
      }
    },
    ...retries,
  };
}
