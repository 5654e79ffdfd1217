/**
 * What a SQL dialect supplies: every piece of engine-specific SQL text the SQL layer writes, as
 * small functions over `sql` fragments. The filter compiler (compile/) decides semantics (types,
 * nulls, promotion) and never writes engine-specific text itself, so SQLite or MySQL can follow by
 * implementing this interface. Each operation must give the shared evaluator's result for non-null
 * operands; the compiler handles null operands.
 */
import type { RawBuilder } from 'kysely';
import type { PreciseInstant } from '../edm/precise-instant';
import type { EdmPrimitiveTypeName, PrimitiveLane, PrimitiveValue } from '../edm/primitives';
import type { PositionValue } from '../uri/types';

/** A SQL fragment (Kysely's `sql` template result). */
export type Sql = RawBuilder<unknown>;

/** The comparison operators. */
export type ComparisonOperator = 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge';

/** The arithmetic operators. */
export type ArithmeticOperator = 'add' | 'sub' | 'mul' | 'div' | 'mod';

/** The date-part functions. */
export type DatePart = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second';

/**
 * Evaluate `values` once and let `body` use them any number of times (the compiler passes plain
 * column references and parameters through, and puts anything else in a derived table).
 */
export type Share = (values: readonly Sql[], body: (refs: readonly Sql[]) => Sql) => Sql;

/** Which sides of a float comparison may be NaN. */
export interface NanSides {
  /** The left operand may be NaN. */
  readonly left: boolean;
  /** The right operand may be NaN. */
  readonly right: boolean;
}

/** The CSDL facets the column type depends on. */
export interface ColumnFacets {
  /** CSDL `Precision`: Decimal digits, or fractional-second digits of DateTime, DateTimeOffset, Time. */
  readonly precision?: number;
  /** CSDL `Scale`: Decimal digits after the point. */
  readonly scale?: number;
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
}

/** The forms of data-modifying statements that differ between engines. */
export interface SqlWriteForms {
  /**
   * True when a data-modifying statement may stand in a WITH (`with t as (update … returning *)
   * select … from t`: the written row comes back decoded from the same statement); else the
   * statement returns the row's key and a second statement reads it.
   */
  readonly writableCte: boolean;
  /** `insert into <table> default values … <returning>` for a row of no given column, keeping a taken key from failing where the engine can. */
  insertDefaults(table: Sql, keyColumns: Sql, returning: Sql): Sql;
  /** Every column of the written row in a RETURNING list: `"u".*` for the statement's alias where the engine takes it, else `*`. */
  returningAll(alias: string | undefined): Sql;
  /** What follows a `select` that must keep the rows it read from being deleted until the transaction ends (`for key share`), or nothing. */
  readonly keyShareLock: Sql;
  /** A JSON object column with the members of a JSON object added or replaced (MERGE of an open type's dynamic properties). */
  jsonMerge(current: Sql, patch: Sql): Sql;
}

/** The engine-specific SQL text, one function per operation. */
export interface SqlDialect {
  /** The engine's name, for messages. */
  readonly name: string;
  /** Values to parameters and results to values. */
  readonly values: SqlValueCodec;
  /** Data-modifying statement forms. */
  readonly writes: SqlWriteForms;

  // --- DDL ---------------------------------------------------------------------------------------
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
  /** What stands before an OFFSET when there is no LIMIT, for an engine that requires one (SQLite: `limit -1`); absent otherwise. */
  readonly unboundedLimit?: Sql;
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
  /**
   * A column stored as `storedType` (an SQL type that is not `type`'s own: `date`, `jsonb`, an
   * enum) as a value of `type`: to `read` it (what fromSqlValue takes), or to `compare` it with
   * values of `type` (filters, ordering, keyset conditions).
   */
  storedValue(column: Sql, storedType: string, type: EdmPrimitiveTypeName, use: 'read' | 'compare'): Sql;

  // --- values ------------------------------------------------------------------------------------
  /** A bound JSON document (its text) typed as the JSON column type: `$1::jsonb`. */
  jsonParameter(text: string): Sql;
  /**
   * True when the tuple of `columns` (of `types`) equals one of `tuples`: `col = any($1::integer[])`
   * for one column, an unnest of one array per column for several. One parameter per column,
   * whatever the number of tuples, so the statement text does not depend on a page's size.
   */
  inTuples(columns: readonly Sql[], types: readonly EdmPrimitiveTypeName[], tuples: readonly (readonly PrimitiveValue[])[]): Sql;
  /** A bound parameter typed as the column type (writes, keys): `$1::numeric`. */
  parameter(type: EdmPrimitiveTypeName, value: PrimitiveValue): Sql;
  /**
   * A bound parameter in the compiler's form of the type (an Edm.Single literal is a double); a
   * PreciseInstant (a keyset bound of `seekCondition`) with all its digits.
   */
  literal(type: EdmPrimitiveTypeName, value: PrimitiveValue | PreciseInstant): Sql;
  /** A typed NULL in the compiler's form of the type. */
  typedNull(type: EdmPrimitiveTypeName): Sql;

  /**
   * `body` (which reads `table.columns[i]`) over `values` evaluated once per row: a scalar subquery
   * over a one-row derived table that the planner must not fold back into `body`.
   */
  evaluateOnce(values: readonly Sql[], table: string, columns: readonly string[], body: Sql): Sql;

  // --- writes ------------------------------------------------------------------------------------
  /**
   * The value a concurrency token takes on insert (`current` undefined) or on an update of a row
   * whose token is `current`, in the same statement as the write: an integer version starts at 0
   * and adds 1 (back to 0 at the type's maximum), a DateTime or DateTimeOffset takes the
   * transaction's clock at milliseconds, strictly after the previous value. Undefined for types
   * the database does not maintain (the value the client wrote is kept).
   */
  concurrencyToken(type: EdmPrimitiveTypeName, current: Sql | undefined): Sql | undefined;
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
  /**
   * A statement that bounds every later statement of the current transaction to `milliseconds`
   * (PostgreSQL: `set_config('statement_timeout', ..., true)`, which ends with the transaction).
   * Absent when the engine cannot bound a statement (SqlProvider then refuses the option).
   */
  readonly statementTimeout?: (milliseconds: number) => Sql;

  // --- sessions ----------------------------------------------------------------------------------
  /**
   * The statements of a request's database session (SqlProvider's `session` option): undefined for
   * an engine without roles and transaction-local settings, on which SqlProvider refuses `session`.
   */
  readonly sessions: SqlSessionDialect | undefined;

  // --- conversions (cheap: the compiler may repeat them) -----------------------------------------
  /** A value of `from` in the form of `to` for comparison or arithmetic (numeric promotion, DateTime -> DateTimeOffset). */
  convert(value: Sql, from: EdmPrimitiveTypeName, to: EdmPrimitiveTypeName): Sql;
  /** An Edm.Single column (stored single precision) as the double the evaluator holds for it. */
  realAsDouble(value: Sql): Sql;
  /** A timestamp or interval truncated to milliseconds (the precision of the evaluator's values). */
  truncateToMilliseconds(value: Sql): Sql;

  // --- operators ---------------------------------------------------------------------------------
  /** `a op b` for two non-null values of the lane (NaN-aware for floats, ordinal for strings). */
  compare(operator: ComparisonOperator, lane: PrimitiveLane, left: Sql, right: Sql, nan: NanSides, share: Share): Sql;
  /** `a op b` in `type` (the promoted operand type); undefined when the engine cannot match the evaluator. */
  arithmetic(operator: ArithmeticOperator, type: EdmPrimitiveTypeName, left: Sql, right: Sql, share: Share): Sql | undefined;
  /** `-a` in `type` (the promoted operand type). */
  negate(type: EdmPrimitiveTypeName, value: Sql): Sql;
  /** `cast(value, 'to')` for primitives: numeric conversions (null when out of range), DateTime <-> DateTimeOffset. */
  cast(value: Sql, from: EdmPrimitiveTypeName, to: EdmPrimitiveTypeName, share: Share): Sql;

  // --- built-in functions (MS-ODATA §2.2.3.6.1.1.1), with the evaluator's semantics ----------------
  /** `substringof(needle, haystack)`; a literal needle comes as its text (a LIKE pattern can use a trigram index). */
  contains(haystack: Sql, needle: Sql | string): Sql;
  /** `startswith(value, prefix)`; a literal prefix comes as its text. */
  startsWith(value: Sql, prefix: Sql | string): Sql;
  /** `endswith(value, suffix)`; a literal suffix comes as its text. */
  endsWith(value: Sql, suffix: Sql | string, share: Share): Sql;
  /** `length(value)` in UTF-16 code units. */
  length(value: Sql): Sql;
  /** `indexof(value, search)`: 0-based UTF-16 offset, -1 when absent. */
  indexOf(value: Sql, search: Sql, share: Share): Sql;
  /** `replace(value, search, replacement)`: every occurrence; an empty search changes nothing. */
  replace(value: Sql, search: Sql, replacement: Sql): Sql;
  /** `substring(value, start[, length])` over UTF-16 offsets, total (clamped) as the evaluator. */
  substring(value: Sql, start: Sql, length: Sql | undefined, share: Share): Sql;
  /**
   * `tolower` / `toupper` (full Unicode case mapping); undefined when the engine cannot. With
   * `approximate` (SAP's `search` only) never undefined: where the full mapping is missing, the
   * database's own under its default collation (which may map fewer letters than JavaScript).
   */
  changeCase(value: Sql, to: 'lower' | 'upper', approximate?: boolean): Sql | undefined;
  /** `trim(value)`: JavaScript's whitespace set. */
  trim(value: Sql): Sql;
  /** `concat(a, b)`. */
  concat(left: Sql, right: Sql): Sql;
  /** `year(value)` ... `second(value)` in UTC (Edm.Time: of the duration). */
  datePart(part: DatePart, type: EdmPrimitiveTypeName, value: Sql): Sql;
  /** `round`/`floor`/`ceiling` in the Decimal or Double overload (doubles: midpoints away from zero). */
  rounding(name: 'round' | 'floor' | 'ceiling', type: 'Edm.Decimal' | 'Edm.Double', value: Sql, share: Share): Sql;

  // --- ordering ----------------------------------------------------------------------------------
  /**
   * The ORDER BY terms of one `$orderby` item: nulls first ascending, last descending; NaN first
   * among doubles. `nullable` false (a required column): no null placement is needed, and the
   * terms must be ones a plain index on the column can serve in either direction.
   */
  orderBy(value: Sql, lane: PrimitiveLane, direction: 'asc' | 'desc', mayBeNaN: boolean, nullable: boolean): readonly Sql[];
}

/** A (name, value) pair a transaction sets for itself only. */
export type TransactionSetting = readonly [name: string, value: string];

/** What an engine with roles writes for a request's database session. */
export interface SqlSessionDialect {
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

/** The dialect's statement bounding `milliseconds`; a TypeError on an engine that has none (options are checked before this runs). */
export function statementTimeoutOf(dialect: SqlDialect, milliseconds: number): Sql {
  if (dialect.statementTimeout === undefined) throw new TypeError(`${dialect.name} cannot bound the time of a statement (statementTimeoutMs).`);
  return dialect.statementTimeout(milliseconds);
}
