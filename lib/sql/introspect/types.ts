/** What `introspect(db, options)` takes and returns. */
import type { EdmModel } from '../../edm/model';
import type { SqlMapping } from '../mapping/types';
import type { NamingStyle } from './naming';

/** Options of `introspect`. */
export interface IntrospectOptions {
  /** The schemas to read. Default `['public']`. */
  readonly schemas?: readonly string[];
  /**
   * Only the tables and views whose name matches one of these patterns (default: all). A pattern
   * with a dot matches `schema.table`, one without matches the table name in any schema read; `*`
   * stands for any characters and `?` for one (`orders`, `sales.*`, `order_*`).
   */
  readonly include?: readonly string[];
  /** Leave out the tables and views whose name matches one of these patterns (as `include`). */
  readonly exclude?: readonly string[];
  /**
   * Key columns by table or view (`'name'` or `'schema.name'`): required for a view, and for a
   * table without a primary key; for a table with one, they replace it.
   */
  readonly keys?: Readonly<Record<string, readonly string[]>>;
  /**
   * Names of version columns (compared without regard to case): each becomes a concurrency token
   * (`ConcurrencyMode="Fixed"`). Default `['version', 'row_version']`. A column whose comment has
   * the word `@version` is one too.
   */
  readonly versionColumns?: readonly string[];
  /**
   * The ETag of a table or partitioned table without a version column: `xmin` (the default), its
   * PostgreSQL row version (the mapping's `etag: 'xmin'`: no property in the model, the If-Match
   * check in the write statement), or `none`. A view has no row version: without a version column
   * it has no ETag (a `NO_ETAG` warning says so when this is `xmin`). PostgreSQL and PGlite only.
   */
  readonly etag?: 'xmin' | 'none';
  /** The namespace of the model's types and associations. Default `Database`. */
  readonly namespace?: string;
  /** The name of the entity container. Default `Entities`. */
  readonly containerName?: string;
  /**
   * How names are made (docs/sql-provider.md "Names"): `odata` (default) gives plural PascalCase
   * entity sets (`OrderDetails`), singular entity types (`OrderDetail`), PascalCase properties
   * with `ID` (`OrderID`) and navigations named by role; `sql` keeps the SQL names. Tables of the
   * first schema read keep unqualified names either way; the others' are qualified by schema.
   */
  readonly names?: NamingStyle;
  /**
   * What the model says for SAP Fiori (docs/sql-provider.md "Fiori annotations"): `fiori` (default)
   * adds the `sap:` switches (keys not updatable, variable scale, readable labels, searchable sets,
   * value lists) and the UI and Common vocabulary annotations a Fiori elements app needs (line
   * items, selection fields, header info, a field group, value lists and texts of foreign keys);
   * `none` gives the plain model.
   */
  readonly annotations?: AnnotationStyle;
}

/** Which annotations introspection writes: `fiori` (the default) or `none`. */
export type AnnotationStyle = 'fiori' | 'none';

/** What introspection left out or changed, and why. */
export interface IntrospectionWarning {
  /**
   * What kind of warning: `TABLE_WITHOUT_KEY`, `TABLE_NOT_READABLE`, `KEY_NOT_SUPPORTED`,
   * `COLUMN_NOT_MAPPED`, `COLUMN_NOT_READABLE`, `ASSOCIATION_NOT_MAPPED`, `KEY_OPTION_UNUSED`,
   * `VERSION_COLUMN`, `TABLE_NOT_CREATABLE`, `NO_ETAG`; from `checkKeys`: `KEY_NOT_CHECKED`.
   */
  readonly code: IntrospectionWarningCode;
  /** The table, view or column it is about (`public.orders`, `public.orders.total`), or the option. */
  readonly target: string;
  /** One sentence: what was done and how to change it. */
  readonly message: string;
}

/** The kinds of introspection warnings. */
export type IntrospectionWarningCode =
  | 'TABLE_WITHOUT_KEY'
  | 'TABLE_NOT_READABLE'
  | 'KEY_NOT_SUPPORTED'
  | 'COLUMN_NOT_MAPPED'
  | 'COLUMN_NOT_READABLE'
  | 'ASSOCIATION_NOT_MAPPED'
  | 'KEY_OPTION_UNUSED'
  | 'VERSION_COLUMN'
  | 'TABLE_NOT_CREATABLE'
  | 'NO_ETAG'
  | 'KEY_NOT_CHECKED';

/**
 * A key no primary key or unique index makes unique: one given in `keys` for a view or for columns
 * without a unique index, or a partitioned table's primary key taken from its partitions that leaves
 * out the partition key. `checkKeys` checks that no two rows share one.
 */
export interface UncheckedKey {
  /** The entity set whose key it is. */
  readonly entitySet: string;
  /** The schema of the table or view. */
  readonly schema: string;
  /** The table or view (SQL name). */
  readonly table: string;
  /** The key's columns (SQL names). */
  readonly columns: readonly string[];
}

/** The result of `introspect`. */
export interface IntrospectionResult {
  /** The model: one entity type and set per table or keyed view, associations for the foreign keys. */
  readonly model: EdmModel;
  /** The complete mapping of the model to the tables and columns (save it beside metadata.xml). */
  readonly mapping: SqlMapping;
  /** What was left out or changed, in catalog order. */
  readonly warnings: readonly IntrospectionWarning[];
  /** Keys nothing in the database makes unique, for `checkKeys` (the command line checks them at start). */
  readonly uncheckedKeys: readonly UncheckedKey[];
}
