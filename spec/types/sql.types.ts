/** express-odata-v2/sql: SqlProvider and its options, connections, createSchema and seed. */
import { defineModel, odata, type DataProvider, type PrimitiveLane } from 'express-odata-v2';
import {
  createPostgresEngine,
  createSchema,
  pglite,
  postgres,
  seed,
  SqlProvider,
  type SqlDatabase,
  type SqlEngine,
  type SqlExpressions,
  type SqlMapping,
  type SqlMappingOverrides,
  type SqlProviderOptions,
} from 'express-odata-v2/sql';
import { expectType } from './expect.types';

const model = defineModel({ namespace: 'A', entityTypes: [{ name: 'P', key: ['ID'], properties: [{ name: 'ID', type: 'Edm.Int32', nullable: false }] }] });

const embedded = pglite('./data', { acquireTimeoutMs: 1000, retryAfterSeconds: 2 });
const server = postgres('postgres://localhost/app');
expectType<SqlDatabase>()(embedded);
expectType<SqlDatabase>()(server);
pglite();

const mapping: SqlMappingOverrides = { schema: 'app', entitySets: { P: { table: 'products', columns: { ID: 'product_id' } } } };
const options: SqlProviderOptions = { model, db: embedded, mapping, chunkSize: 500, streamSnapshot: false, streamIdleTimeoutMs: 10_000, operations: {} };
const provider = new SqlProvider(options);
const asProvider: DataProvider = provider;
odata({ model, provider });

async function setUp(): Promise<void> {
  expectType<SqlMapping>()(await createSchema(embedded, model, mapping));
  await seed(embedded, model, mapping, { P: [{ ID: 1 }] });
}

// @ts-expect-error: db is required
new SqlProvider({ model });
// @ts-expect-error: db is a connection from pglite() or postgres(), not a URL
new SqlProvider({ model, db: 'postgres://localhost/app' });
// @ts-expect-error: chunkSize is a number
new SqlProvider({ model, db: server, chunkSize: '1000' });
// @ts-expect-error: unknown option
new SqlProvider({ model, db: server, poolSize: 4 });
// @ts-expect-error: unknown entity-set override
const badMapping: SqlMappingOverrides = { entitySets: { P: { tableName: 'products' } } };

// An engine's parts by role; its expression dialect compares and orders in the lanes of the one type classification (PrimitiveLane, from the core package).
const engine: SqlEngine = createPostgresEngine({ caseMappingCollation: null });
expectType<SqlEngine>()(embedded.sqlEngine);
const dialect: SqlExpressions = engine.expressions;
declare const comparedIn: Parameters<SqlExpressions['compare']>[1];
expectType<PrimitiveLane>()(comparedIn);
dialect.orderBy(dialect.literal('Edm.Int32', 1), 'integer', 'asc', false, false);
// @ts-expect-error: the evaluator's old 'number' lane is gone: integers and floats are lanes of their own
dialect.orderBy(dialect.literal('Edm.Int32', 1), 'number', 'asc', false, false);

// @ts-expect-error: the roles are apart: a bind parameter is the value codec's, not the expression dialect's
engine.expressions.parameter('Edm.Int32', 1);
engine.values.parameter('Edm.Int32', 1);

void asProvider;
void setUp;
void badMapping;
