/**
 * How a model is stored in SQL tables: the resolved mapping (every table and column named, a plain
 * JSON-serializable object that can be saved beside `metadata.xml` and served from without the
 * database catalog) and the partial overrides a user gives, which `resolveMapping` completes with
 * the conventions (docs/sql-provider.md "Mapping").
 */

/** The mapping format's version, so a saved mapping.json can be recognised and migrated. */
export const SQL_MAPPING_VERSION = 1;

/** The table of an entity set (or of its media resources), and the column of every structural property. */
export interface SqlEntitySetMapping {
  /** The schema of the table; absent: the connection's `search_path` decides (usually `public`). */
  readonly schema?: string;
  /** The table holding the set's entities. */
  readonly table: string;
  /**
   * The column of each primitive property by its path: `Name`, `Address/City` for a member of a
   * complex property. A nullable complex property also has a column under its own path
   * (`Address`): TRUE when the value is present, NULL when the property is null. Properties of
   * derived entity types are in the same table (one table per set), nullable there.
   */
  readonly columns: Readonly<Record<string, string>>;
  /**
   * Present when the set's entity type has derived types: the column holding each row's entity
   * type, and the value that stands for each type (by qualified name).
   */
  readonly discriminator?: SqlDiscriminatorMapping;
  /** Present for an open type: the `jsonb` column holding the dynamic properties with their EDM types. */
  readonly dynamicProperties?: string;
  /** Present for a media link entry type (`m:HasStream`): the side table of the media resources. */
  readonly media?: SqlMediaMapping;
  /**
   * The columns whose values the database makes, by property path (absent: none). A provider's
   * create and update follow it (docs/sql-provider.md "Store-generated columns").
   */
  readonly storeGenerated?: Readonly<Record<string, SqlStoreGenerated>>;
  /**
   * The columns stored in an SQL type other than the one their property's EDM type maps to, by
   * property path (absent: none): `date` for an Edm.DateTime, `jsonb`, an enum or an array for an
   * Edm.String. The provider reads and compares such a column converted to the EDM type
   * (`cast(col as text)`) and writes a value converted back to this type. The text is an SQL type
   * name, quoted and qualified as the database needs it (`public.mood`, `integer[]`).
   * `createSchema` does not use it: it creates the EDM types' own columns.
   */
  readonly columnTypes?: Readonly<Record<string, string>>;
  /** How a create inserts a row (absent: `onConflict`); see SqlInsertMode. Introspection decides it from the catalog. */
  readonly insert?: SqlInsertMode;
  /**
   * `xmin`: the entity tag of a row is its PostgreSQL row version (the system column `xmin`, which
   * every write of the row changes): ETags without a `ConcurrencyMode="Fixed"` property, the
   * If-Match check in the write statement. PostgreSQL and PGlite tables only (a view has no
   * `xmin`). Absent: the model's concurrency properties, if any, make the ETag.
   */
  readonly etag?: 'xmin';
}

/**
 * How a create inserts a row:
 * - `onConflict`: `INSERT ... ON CONFLICT (key) DO NOTHING RETURNING *`, a taken key answered 409
 *   without an error in the transaction. Needs a unique index on exactly the key columns and no
 *   rule on the table.
 * - `checked`: `INSERT ... SELECT ... WHERE NOT EXISTS (a row with the key) RETURNING *`: a view
 *   (INSTEAD OF triggers, or updatable by itself), a partitioned table whose key is unique only
 *   on its partitions, a key no unique index backs. A key taken between the check and the
 *   insert is still 409 (the unique violation).
 * - `readBack`: a table (or view) with INSERT rules, which keep `INSERT` out of `WITH` and off
 *   `ON CONFLICT`: the key checked, the row inserted, then read by the key the client gave (or
 *   the key `INSERT ... RETURNING` gives, where no DO INSTEAD rule returns nothing). Three
 *   statements, always in a transaction.
 */
export type SqlInsertMode = 'onConflict' | 'checked' | 'readBack';

/**
 * How the database makes a column's value:
 * - `identity`: when a row is inserted (an identity or serial column, or a key whose default is not
 *   a constant). A create leaves the column out, whatever the client sent, and reads the value
 *   back; an update never sets it.
 * - `computed`: on every write (a generated column, `GENERATED ALWAYS AS (...) STORED`). Creates
 *   and updates leave it out and read it back.
 * - `default`: a column default the model cannot state as a `DefaultValue` (`now()`, a sequence, a
 *   function, a value no EDM literal spells). A create leaves the column out when the client did
 *   not send it. A replace (PUT) that does not send it resets it as it resets any property: to null
 *   when nullable; a NOT NULL one is `StoreGeneratedPattern` in the model (introspection marks it
 *   so) and keeps its value.
 */
export type SqlStoreGenerated = 'identity' | 'computed' | 'default';

/** The type discriminator of a set with derived entity types. */
export interface SqlDiscriminatorMapping {
  /** The column. */
  readonly column: string;
  /** The value stored for each entity type of the hierarchy, by qualified name. */
  readonly values: Readonly<Record<string, string>>;
}

/**
 * The side table of media resources: one row per media link entry that has its media resource,
 * keyed like the entity's table (the same key column names) and deleted with its entity.
 */
export interface SqlMediaMapping {
  /** The schema of the side table; absent: the `search_path`. */
  readonly schema?: string;
  /** The side table. */
  readonly table: string;
  /** The column of the media type (`image/png`). */
  readonly contentType: string;
  /** The column of the bytes. */
  readonly body: string;
}

/**
 * An association set stored as a foreign key: the table of the dependent end's entity set holds
 * the principal's key. The principal end must be single-valued (`0..1` or `1`).
 */
export interface SqlForeignKeyMapping {
  /** Discriminant. */
  readonly kind: 'foreignKey';
  /** The role of the end whose table holds the key columns. */
  readonly dependent: string;
  /**
   * The column in the dependent's table for each key property of the principal. When a column is
   * also a property's column (a ReferentialConstraint), the property and the link are one value.
   */
  readonly columns: Readonly<Record<string, string>>;
}

/** An association set stored in a table of its own: one row per link (many-to-many, or by choice). */
export interface SqlJoinTableMapping {
  /** Discriminant. */
  readonly kind: 'joinTable';
  /** The schema of the join table; absent: the `search_path`. */
  readonly schema?: string;
  /** The join table. */
  readonly table: string;
  /** By role: the column for each key property of that end's entity type. */
  readonly columns: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** How an association set is stored. */
export type SqlAssociationSetMapping = SqlForeignKeyMapping | SqlJoinTableMapping;

/** The complete mapping of a model's default container: every table and column named. */
export interface SqlMapping {
  /** SQL_MAPPING_VERSION. */
  readonly version: typeof SQL_MAPPING_VERSION;
  /** By entity set name. */
  readonly entitySets: Readonly<Record<string, SqlEntitySetMapping>>;
  /** By association set name. */
  readonly associationSets: Readonly<Record<string, SqlAssociationSetMapping>>;
}

/** Overrides of one entity set's mapping; anything left out follows the conventions. */
export interface SqlEntitySetOverrides {
  /** The table's schema (default: the mapping's `schema`, else the `search_path`). */
  readonly schema?: string;
  /** The table (default: the set's name). */
  readonly table?: string;
  /** Columns by property path (`Name`, `Address/City`); default: the path with `_` for `/`. */
  readonly columns?: Readonly<Record<string, string>>;
  /** The type column (default `$type`) and the value of each type by qualified name (default: the qualified name). */
  readonly discriminator?: Partial<SqlDiscriminatorMapping>;
  /** The jsonb column of dynamic properties (default `$dynamic`). */
  readonly dynamicProperties?: string;
  /** The media side table (default: the table's name with `_media`; columns `ContentType`, `Body`). */
  readonly media?: Partial<SqlMediaMapping>;
  /** Store-generated columns by property path (SqlEntitySetMapping.storeGenerated). */
  readonly storeGenerated?: Readonly<Record<string, SqlStoreGenerated>>;
  /** SQL types of converted columns by property path (SqlEntitySetMapping.columnTypes). */
  readonly columnTypes?: Readonly<Record<string, string>>;
  /** How a create inserts a row (SqlEntitySetMapping.insert; default `onConflict`). */
  readonly insert?: SqlInsertMode;
  /** `xmin`: ETags from the row version (SqlEntitySetMapping.etag). */
  readonly etag?: 'xmin';
}

/** Overrides of a foreign-key association set (the conventional kind for all but many-to-many). */
export interface SqlForeignKeyOverrides {
  /** A foreign key (the default unless the association is many-to-many). */
  readonly kind?: 'foreignKey';
  /** The role of the end whose table holds the key columns. */
  readonly dependent?: string;
  /** Columns by principal key property. */
  readonly columns?: Readonly<Record<string, string>>;
}

/** Overrides of a join-table association set (the conventional kind for many-to-many). */
export interface SqlJoinTableOverrides {
  /** A join table (the default for many-to-many). */
  readonly kind?: 'joinTable';
  /** The join table's schema (default: the mapping's `schema`, else the `search_path`). */
  readonly schema?: string;
  /** The join table (default: the association set's name). */
  readonly table?: string;
  /** By role, columns by key property. */
  readonly columns?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/**
 * What a user gives `resolveMapping` (or `SqlProvider`'s `mapping` option): names that differ from
 * the conventions. A complete SqlMapping is valid overrides too (and resolves to itself).
 */
export interface SqlMappingOverrides {
  /** SQL_MAPPING_VERSION, when given (a saved mapping carries it). */
  readonly version?: typeof SQL_MAPPING_VERSION;
  /** The schema of every table that names none. */
  readonly schema?: string;
  /** By entity set name. */
  readonly entitySets?: Readonly<Record<string, SqlEntitySetOverrides>>;
  /**
   * By association set name. `kind` switches between a foreign key and a join table; without it
   * the conventional kind applies (a join table for many-to-many, else a foreign key).
   */
  readonly associationSets?: Readonly<Record<string, SqlForeignKeyOverrides | SqlJoinTableOverrides>>;
}
