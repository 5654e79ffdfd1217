/**
 * `express-odata-v2/sql`: the SQL provider and its parts. `SqlProvider` (reads pushed down to
 * PostgreSQL), the mapping of a model to tables (`resolveMapping`, `validateMapping`),
 * `createSchema` and `seed`, `introspect` (an existing schema as a model and its mapping);
 * connections (`pglite()`, `postgres()`), the PostgreSQL dialect with its EDM type map, value
 * conversion, and the compiler of the typed `$filter`/`$orderby` AST to parameterized SQL with the
 * evaluator's semantics.
 * Needs the optional peer dependencies `kysely`, and `@electric-sql/pglite` or `pg`.
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
export { pglite, pgliteParsers } from './pglite';
export type { PGliteDatabaseOptions, PGliteLike, PGliteResultLike } from './pglite';
export { postgres } from './postgres';
export { sqlite } from './sqlite/database';
export type { SqliteDatabaseOptions } from './sqlite/database';
export type { SqliteDatabaseLike } from './sqlite/connection';
export type { PgClientLike, PgPoolLike, PgQueryConfig, PgResultLike, PostgresDatabaseOptions } from './postgres';
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
export { createPostgresDialect } from './postgres-dialect';
export type { PostgresDialectOptions } from './postgres-dialect';
export type {
  ArithmeticOperator,
  ColumnFacets,
  ComparisonOperator,
  DatePart,
  NanSides,
  Share,
  Sql,
  SqlDialect,
  SqlSessionDialect,
  SqlValueCodec,
  SqlWriteForms,
  TransactionSetting,
} from './dialect';
export { fromSqlPosition, fromSqlValue, toSqlParameter } from './values';
export type { SqlParameterValue } from './values';
export type { PgTypeParsers } from './type-parsers';
export { compileExpressionSql, compileFilterSql, compileOrderBySql, isTranslatable } from './compile/compile';
export type { SqlColumnRef, SqlCompileContext, SqlMemberPath, SqlPathResolver } from './compile/context';
