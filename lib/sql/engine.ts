/**
 * What an SQL engine supplies, by role (Kysely's layout: a driver and connection adapter, a query
 * compiler, an adapter, an introspector). `SqlDatabase.sqlEngine` holds one; the engine-neutral
 * reading, writing, compiling, mapping and schema code reaches the engine through it only, never
 * through a module of an engine's folder (`lib/sql/postgres/`, `lib/sql/sqlite/`). Each role is
 * small and typed, so a function can ask for the one role it uses.
 */
import type { PreciseInstant } from '../edm/precise-instant';
import type { EdmPrimitiveTypeName, PrimitiveValue } from '../edm/primitives';
import type { PositionValue } from '../uri/types';
import type { Sql, SqlExpressions } from './dialect';
import type { SqlCatalogReader } from './introspect/catalog';

/** An SQL engine's parts, by role. */
export interface SqlEngine {
  /** The engine's name, for messages. */
  readonly name: string;
  /** The SQL text of `$filter`/`$orderby` expressions (compile/). */
  readonly expressions: SqlExpressions;
  /** Values to parameters and results to values. */
  readonly values: SqlValueCodec;
  /** The forms of read statements that differ between engines. */
  readonly reads: SqlReadForms;
  /** Data-modifying statement forms. */
  readonly writes: SqlWriteForms;
  /** Concurrency tokens and row versions the database maintains. */
  readonly tokens: SqlTokenForms;
  /** Tables and columns: quoting, the EDM type map, keys (createSchema, seed). */
  readonly ddl: SqlDdl;
  /** What bounds a transaction and runs it as a request's database role. */
  readonly transactions: SqlTransactionForms;
  /** What the engine's errors mean. */
  readonly errors: SqlErrors;
  /** How introspection and checkMapping read the engine's catalog. */
  readonly catalog: SqlCatalogReader;
}

/**
 * How an engine's driver takes and gives EDM values: the bind-parameter value of a value in the
 * library's JS form, and the JS form of a result column's value. Every statement of the SQL layer
 * binds and reads through it, so nothing outside the engine's folder knows a storage format.
 */
export interface SqlValueCodec {
  /** The bind-parameter value (a RangeError for a value the engine cannot store, a TypeError for one of the wrong JS type). */
  toParameter(type: EdmPrimitiveTypeName, value: PrimitiveValue | PreciseInstant): unknown;
  /** The JS form of a result value (null stays null). */
  fromValue(type: EdmPrimitiveTypeName, raw: unknown): PrimitiveValue | null;
  /** An order value read for a row's position: as `fromValue`, a timestamp with every stored digit. */
  fromPosition(type: EdmPrimitiveTypeName, raw: unknown): PositionValue | null;
  /** A bound parameter typed as the column type (writes, keys): `$1::numeric`. */
  parameter(type: EdmPrimitiveTypeName, value: PrimitiveValue): Sql;
  /** A bound JSON document (its text) typed as the JSON column type: `$1::jsonb`. */
  jsonParameter(text: string): Sql;
}

/** The forms of read statements that differ between engines. */
export interface SqlReadForms {
  /**
   * A column stored as `storedType` (an SQL type that is not `type`'s own: `date`, `jsonb`, an
   * enum) as a value of `type`: to `read` it (what the value codec takes), or to `compare` it with
   * values of `type` (filters, ordering, keyset conditions).
   */
  storedValue(column: Sql, storedType: string, type: EdmPrimitiveTypeName, use: 'read' | 'compare'): Sql;
  /**
   * True when the tuple of `columns` (of `types`) equals one of `tuples`: `col = any($1::integer[])`
   * for one column, an unnest of one array per column for several (where the engine has arrays),
   * so the statement text does not depend on a page's size.
   */
  inTuples(columns: readonly Sql[], types: readonly EdmPrimitiveTypeName[], tuples: readonly (readonly PrimitiveValue[])[]): Sql;
  /** What stands before an OFFSET when there is no LIMIT, for an engine that requires one (SQLite: `limit -1`); absent otherwise. */
  readonly unboundedLimit?: Sql;
}

/** The forms of data-modifying statements that differ between engines. */
export interface SqlWriteForms {
  /**
   * True when a data-modifying statement may stand in a WITH (`with t as (update … returning *)
   * select … from t`: the written row comes back decoded from the same statement); else the
   * statement's own RETURNING list is the read's projection where it can be (returning.ts), and
   * otherwise the statement returns the row's key and a second statement reads it.
   */
  readonly writableCte: boolean;
  /** `insert into <table> default values … <returning>` for a row of no given column, keeping a taken key from failing where the engine can. */
  insertDefaults(table: Sql, keyColumns: Sql, returning: Sql): Sql;
  /** Every column of the written row in a RETURNING list: `"u".*` for the statement's alias where the engine takes it, else `*`. */
  returningAll(alias: string | undefined): Sql;
  /**
   * The target of an UPDATE or DELETE of `table` (named `name` without its schema): the table as
   * `alias` (`"Items" as "u"`), its columns qualified by the alias; or, on an engine that takes no
   * alias on every target (SQLite takes none for a view), the table itself, its columns
   * qualified by `name`.
   */
  writeTarget(table: Sql, name: string, alias: string): SqlWriteTarget;
  /**
   * What ends an UPDATE or DELETE whose count of changed rows decides the answer, on an engine
   * whose count leaves some out (SQLite counts no row an INSTEAD OF trigger of a view changes:
   * `returning 1`, one row per row the statement matched); absent where the count is exact.
   */
  readonly countedRows?: Sql;
  /** What follows a `select` that must keep the rows it read from being deleted until the transaction ends (`for key share`), or nothing. */
  readonly keyShareLock: Sql;
  /** A JSON object column with the members of a JSON object added or replaced (MERGE of an open type's dynamic properties). */
  jsonMerge(current: Sql, patch: Sql): Sql;
}

/** How an UPDATE or DELETE names the row it writes. */
export interface SqlWriteTarget {
  /** What follows `update` or `delete from`: `"Items" as "u"`, or `"Items"`. */
  readonly clause: Sql;
  /** What qualifies the row's columns in the statement: the alias, or the table's name. */
  readonly qualifier: string;
}

/** Concurrency tokens and row versions, written in the same statement as the write. */
export interface SqlTokenForms {
  /**
   * The value a DateTime or DateTimeOffset concurrency token takes in the same statement as the
   * write (the provider kit's `tokenRule`, kind `instant`): the statement's clock at milliseconds,
   * on insert (`current` undefined) or strictly after `current` on an update. Version counters are
   * neutral SQL (`concurrencyTokenSql`).
   */
  instantToken(type: EdmPrimitiveTypeName, current: Sql | undefined): Sql;
  /**
   * The row version of the row at `alias`, as text: the entity tag of a set mapped with `etag:
   * 'xmin'` (PostgreSQL's system column `xmin`, which every write of the row changes).
   */
  rowVersion(alias: string): Sql;
  /**
   * The row version a row the current statement writes will have, as text, for its RETURNING
   * list (the writing transaction's id: `xmin` itself cannot be returned from a partitioned table).
   */
  writtenRowVersion(): Sql;
}

/** The CSDL facets the column type depends on. */
export interface ColumnFacets {
  /** CSDL `Precision`: Decimal digits, or fractional-second digits of DateTime, DateTimeOffset, Time. */
  readonly precision?: number;
  /** CSDL `Scale`: Decimal digits after the point. */
  readonly scale?: number;
}

/** Tables and columns as the engine declares them. */
export interface SqlDdl {
  /** A quoted identifier (`"Order"`); TypeError for a name the engine cannot hold. */
  quoteIdentifier(name: string): string;
  /** The column type of an EDM type (`numeric(38,18)`, `timestamp(3)`, `text collate "C"`). */
  columnType(type: EdmPrimitiveTypeName, facets?: ColumnFacets): string;
  /** A CHECK condition the column needs (Byte and SByte ranges), over the quoted column name. */
  columnCheck(type: EdmPrimitiveTypeName, quotedColumn: string): string | undefined;
  /** The column type of a JSON document (dynamic properties of open types). */
  readonly jsonColumnType: string;
  /**
   * How `createSchema` declares foreign keys: `alter` adds each to its table after every table
   * exists, when it is missing (tables may refer to each other in a cycle); `inline` declares them
   * in the CREATE TABLE (an engine that checks them only when rows are written, and cannot add one later).
   */
  readonly foreignKeys: 'alter' | 'inline';
  /** True when tables may live in named schemas (`create schema`); else a mapping that names one is refused. */
  readonly schemas: boolean;
  /** The column definition of a single integer key of `type` that an INSERT without it generates (an identity; SQLite's rowid). */
  generatedKeyColumn(type: EdmPrimitiveTypeName): string;
  /**
   * A statement that moves the generator of a generated key column (if it has one) past the
   * largest key in the table, after rows were inserted with explicit keys (`seed`). Does nothing
   * for a column without a generator; undefined when the engine's generator needs no moving.
   */
  advanceGeneratedKey(table: Sql, quotedTable: string, column: string): Sql | undefined;
}

/** What bounds a transaction and runs it as a request's database role. */
export interface SqlTransactionForms {
  /**
   * A statement that bounds every later statement of the current transaction to `milliseconds`
   * (PostgreSQL: `set_config('statement_timeout', ..., true)`, which ends with the transaction).
   * Absent when the engine cannot bound a statement (SqlProvider then refuses the option).
   */
  readonly statementTimeout?: (milliseconds: number) => Sql;
  /**
   * The statements of a request's database session (SqlProvider's `session` option): undefined for
   * an engine without roles and transaction-local settings, on which SqlProvider refuses `session`.
   */
  readonly sessions: SqlSessionStatements | undefined;
}

/** A (name, value) pair a transaction sets for itself only. */
export type TransactionSetting = readonly [name: string, value: string];

/** What an engine with roles writes for a request's database session. */
export interface SqlSessionStatements {
  /**
   * One statement that sets each pair for the current transaction only, names and values bound
   * (PostgreSQL: `select set_config($1, $2, true), ...`; the setting `role` is `SET LOCAL ROLE`).
   */
  settings(pairs: readonly TransactionSetting[]): Sql;
  /**
   * One statement that reads what decides whether requests may run as `role`: no row when no such
   * role exists, else one row with the booleans `superuser`, `bypassRls` (row-level security does
   * not apply to it), `member` (the login role may switch to it) and `ownsPolicedTable` (it owns,
   * or has the privileges of the owner of, a table whose policies do not apply to its owner).
   */
  roleFacts(role: string): Sql;
}

/**
 * What an engine's errors mean, beyond their SQLSTATE (the SQL standard's classes, which an
 * engine's driver adapter gives every error it can classify, and which the neutral refusal table
 * reads): an unreachable database, and a value a column could not read.
 */
export interface SqlErrors {
  /** True when `error` says the database cannot be reached or has dropped the connection (503 DATABASE_UNAVAILABLE). */
  isConnectionFailure(error: unknown): boolean;
  /** What the database says about a value it could not read, when its message says it. */
  valueComplaint(error: unknown): ValueComplaint | undefined;
}

/**
 * A value the database could not read: the kind of type, the type's name when it gives one, the
 * quoted value, and how to say what is wrong in the model's terms.
 */
export interface ValueComplaint {
  /** The type's name as the database spells it (`integer`, `public.mood`), when it gives one. */
  readonly type: string | undefined;
  /** `array`, `range`, another `type`, or a `narrower` integer type than the written value's. */
  readonly kind: 'array' | 'range' | 'type' | 'narrower';
  /** The value the database quotes, when it does. */
  readonly value: string | undefined;
  /** What is wrong, for the client's message (`is not valid JSON`). */
  readonly problem: string;
}

/** The engine's statement bounding `milliseconds`; a TypeError on an engine that has none (options are checked before this runs). */
export function statementTimeoutOf(engine: SqlEngine, milliseconds: number): Sql {
  const { statementTimeout } = engine.transactions;
  if (statementTimeout === undefined) throw new TypeError(`${engine.name} cannot bound the time of a statement (statementTimeoutMs).`);
  return statementTimeout(milliseconds);
}
