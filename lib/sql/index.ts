/**
 * `express-odata-v2/sql`: the SQL provider and its parts. `SqlProvider` (reads pushed down to the
 * database), the mapping of a model to tables (`resolveMapping`, `validateMapping`),
 * `createSchema` and `seed`, `introspect` (an existing schema as a model and its mapping);
 * connections (`pglite()`, `postgres()`, `sqlite()`), the engine interface by role (`SqlEngine`)
 * with PostgreSQL's engine and value conversion, and the compiler of the typed
 * `$filter`/`$orderby` AST to parameterized SQL with the evaluator's semantics.
 * Needs the optional peer dependencies `kysely`, and `@electric-sql/pglite`, `pg` or `better-sqlite3`.
 */
export { SqlProvider } from './sql-provider';
export type { SqlMediaOf, SqlProviderOptions } from './sql-provider';
export type { SqlIsolationLevel, SqlTransactionAttempt } from './write/begin';
export type { SqlProviderLogEvent, SqlSession, SqlSessionOf } from './session';
export { roleNameProblem } from './role-names';
export { SQL_MAPPING_VERSION } from './mapping/types';
export type {
  SqlAssociationSetMapping,
  SqlDiscriminatorMapping,
  SqlEntitySetMapping,
  SqlEntitySetOverrides,
  SqlForeignKeyMapping,
  SqlForeignKeyOverrides,
  SqlInsertMode,
  SqlJoinTableMapping,
  SqlJoinTableOverrides,
  SqlMapping,
  SqlMappingOverrides,
  SqlMediaMapping,
  SqlStoreGenerated,
} from './mapping/types';
export { resolveMapping, validateMapping } from './mapping/resolve';
export { checkKeys, checkMapping, introspect } from './introspect';
export type {
  AnnotationStyle,
  CheckKeysOptions,
  CheckMappingOptions,
  IntrospectOptions,
  IntrospectionResult,
  IntrospectionWarning,
  IntrospectionWarningCode,
  NamingStyle,
  UncheckedKey,
} from './introspect';
export { createSchema } from './schema/create-schema';
export { seed } from './schema/seed';
export type { SeedOptions } from './schema/seed';
export { pglite, pgliteParsers } from './postgres/pglite';
export type { PGliteDatabaseOptions, PGliteLike, PGliteResultLike } from './postgres/pglite';
export { postgres } from './postgres/server';
export { sqlite } from './sqlite/database';
export type { SqliteDatabaseOptions } from './sqlite/database';
export type { SqliteDatabaseLike } from './sqlite/connection';
export type { PgClientLike, PgPoolLike, PgQueryConfig, PgResultLike, PostgresDatabaseOptions } from './postgres/server';
export type { SqlConnectionOptions, SqlDatabase, SqlKysely, SqlSchema } from './database';
export {
  SQLSTATE,
  SqlAcquireTimeoutError,
  SqlIntrospectionError,
  SqlMappingError,
  SqlSeedError,
  SqlSessionRoleError,
  UntranslatableExpressionError,
  isRetryableTransactionError,
  sqlStateOf,
} from './errors';
// The value a concurrency token takes in a write statement, by the provider kit's rule (tokenRule).
export { concurrencyTokenSql } from './write/tokens';
export { createPostgresEngine } from './postgres/engine';
export type { PostgresEngineOptions } from './postgres/engine';
export type { ArithmeticOperator, ComparisonOperator, DatePart, NanSides, Share, Sql, SqlExpressions } from './dialect';
export type {
  ColumnFacets,
  SqlDdl,
  SqlEngine,
  SqlErrors,
  SqlReadForms,
  SqlSessionStatements,
  SqlTokenForms,
  SqlTransactionForms,
  SqlValueCodec,
  SqlWriteForms,
  SqlWriteTarget,
  TransactionSetting,
  ValueComplaint,
} from './engine';
export { fromSqlPosition, fromSqlValue, toSqlParameter } from './postgres/values';
export type { SqlParameterValue } from './postgres/values';
export type { PgTypeParsers } from './postgres/type-parsers';
export { compileExpressionSql, compileFilterSql, compileOrderBySql, isTranslatable } from './compile/compile';
export type { SqlColumnRef, SqlCompileContext, SqlMemberPath, SqlPathResolver } from './compile/context';
