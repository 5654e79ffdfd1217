/**
 * `express-odata-v2/sql`: the SQL foundation of the SQL provider. Connections (`pglite()`,
 * `postgres()`), the PostgreSQL dialect with its EDM type map, value conversion, and the compiler
 * of the typed `$filter`/`$orderby` AST to parameterized SQL with the evaluator's semantics.
 * Needs the optional peer dependencies `kysely`, and `@electric-sql/pglite` or `pg`.
 */
export { pglite } from './pglite';
export type { PGliteDatabaseOptions, PGliteLike, PGliteResultLike } from './pglite';
export { postgres } from './postgres';
export type { PgClientLike, PgPoolLike, PgQueryConfig, PgResultLike, PostgresDatabaseOptions } from './postgres';
export type { SqlConnectionOptions, SqlDatabase, SqlKysely, SqlSchema } from './database';
export { SQLSTATE, SqlAcquireTimeoutError, UntranslatableExpressionError, isRetryableTransactionError, sqlStateOf } from './errors';
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
  SqlLane,
} from './dialect';
export { fromSqlValue, toSqlParameter } from './values';
export type { SqlParameterValue } from './values';
export type { PgTypeParsers } from './type-parsers';
export { compileExpressionSql, compileFilterSql, compileOrderBySql, isTranslatable } from './compile/compile';
export type { SqlColumnRef, SqlCompileContext, SqlMemberPath, SqlPathResolver } from './compile/context';
