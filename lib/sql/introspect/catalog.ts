/**
 * What introspection reads of an engine's catalog, in the catalog's language every engine's
 * reader speaks (PostgreSQL's: built-in type names and OIDs, `pg_class.relkind` letters, default
 * expressions as PostgreSQL prints them), so the engine-neutral drafting, naming and association
 * code serves every engine: relations, their columns and types, keys, foreign keys and unique
 * indexes, partitions and simple views' sources. Each engine's folder has its reader
 * (`SqlEngine.catalog`). Nothing here decides what a row means for the model.
 */
import type { SqlDatabase, SqlKysely } from '../database';

/** A table, view, materialized view or foreign table. */
export interface CatalogRelation {
  /** pg_class.oid as text (what view column sources name). */
  readonly oid: string;
  readonly schema: string;
  readonly name: string;
  /** pg_class.relkind: `r` table, `p` partitioned table, `v` view, `m` materialized view, `f` foreign table. */
  readonly kind: string;
  readonly comment: string | null;
  /** A partition of a partitioned table (its rows are read through the parent). */
  readonly isPartition: boolean;
  /** The current user's privileges: SELECT, INSERT, UPDATE on the table or some column; DELETE on the table. */
  readonly canSelect: boolean;
  readonly canInsert: boolean;
  readonly canUpdate: boolean;
  readonly canDelete: boolean;
  /** Views: whether INSERT, UPDATE and DELETE reach a table (automatically or through INSTEAD OF triggers). */
  readonly viewInsertable: boolean;
  readonly viewUpdatable: boolean;
  readonly viewDeletable: boolean;
  /**
   * Its INSERT rules: `none`; `also` (only DO ALSO ones); `returning` (every DO INSTEAD one is
   * unconditional and has RETURNING, so `INSERT ... RETURNING` works); `silent` (a DO INSTEAD one
   * is conditional or returns nothing: PostgreSQL refuses `INSERT ... RETURNING`).
   */
  readonly insertRules: 'none' | 'also' | 'returning' | 'silent';
  /** It has an UPDATE rule (with an INSERT rule, what keeps `INSERT ... ON CONFLICT` off the table). */
  readonly updateRules: boolean;
}

/** A column of a relation. */
export interface CatalogColumn {
  readonly schema: string;
  readonly table: string;
  /** pg_attribute.attnum: the order of the columns, and what constraints refer to. */
  readonly position: number;
  readonly name: string;
  readonly notNull: boolean;
  /** `a` GENERATED ALWAYS AS IDENTITY, `d` BY DEFAULT, empty otherwise. */
  readonly identity: string;
  /** `s` a stored generated column, empty otherwise. */
  readonly generated: string;
  /** The default (or generation) expression as PostgreSQL prints it (`'0'::integer`, `now()`). */
  readonly defaultExpression: string | null;
  readonly comment: string | null;
  /** pg_type OID (as text) and type modifier of the declared type. */
  readonly typeOid: string;
  readonly typmod: number;
  /** The declared type as PostgreSQL prints it (`character varying(20)`, `public.mood`). */
  readonly declaredType: string;
  /** The current user's column privileges (or the table's). */
  readonly canSelect: boolean;
  readonly canInsert: boolean;
  readonly canUpdate: boolean;
}

/** A type a column uses, or the base or element type of one. */
export interface CatalogType {
  readonly oid: string;
  readonly name: string;
  readonly schema: string;
  /** pg_type.typtype: `b` base, `c` composite, `d` domain, `e` enum, `r` range, `m` multirange, `p` pseudo. */
  readonly kind: string;
  /** pg_type.typcategory: `A` array, `B` boolean, `D` date/time, `E` enum, `N` numeric, `S` string, `U` user... */
  readonly category: string;
  /** Domains: the base type's OID and modifier ('0' otherwise). */
  readonly baseType: string;
  readonly baseTypmod: number;
  /** Domains: NOT NULL. */
  readonly notNull: boolean;
  /** Domains: the default expression. */
  readonly defaultExpression: string | null;
  /** Arrays: the element type's OID ('0' otherwise). */
  readonly element: string;
  /** Enums: the labels, in their order. */
  readonly labels: readonly string[];
}

/** A primary-key (`p`), unique (`u`) or foreign-key (`f`) constraint, or a unique index (`i`). */
export interface CatalogConstraint {
  readonly schema: string;
  readonly table: string;
  readonly name: string;
  readonly kind: 'p' | 'u' | 'f' | 'i';
  /** Column positions (attnum), in constraint order. */
  readonly columns: readonly number[];
  /** Foreign keys: the referenced table and its column positions, pairwise with `columns`. */
  readonly referencedSchema: string | null;
  readonly referencedTable: string | null;
  readonly referencedColumns: readonly number[];
  /** Foreign keys: pg_constraint.confdeltype (`a` no action, `r` restrict, `c` cascade, `n` set null, `d` set default). */
  readonly onDelete: string;
  /** A primary key a partitioned table takes from its partitions that leaves out the partition key: unique in each partition only. */
  readonly partitionsOnly?: boolean;
  /** Taken from the partitions (partitions.ts): the partitioned table itself has no index for it (ON CONFLICT cannot use it). */
  readonly inherited?: boolean;
}

/** Everything introspection reads, for the schemas asked for. */
export interface Catalog {
  readonly relations: readonly CatalogRelation[];
  readonly columns: readonly CatalogColumn[];
  readonly types: ReadonlyMap<string, CatalogType>;
  readonly constraints: readonly CatalogConstraint[];
  /** Partitions, partition keys and simple views' column sources. */
  readonly sources: RelationSources;
}

/** A partition of a partitioned table. */
interface CatalogPartition {
  readonly parentSchema: string;
  readonly parent: string;
  readonly schema: string;
  readonly name: string;
}

/** A column of a view that is a column of a relation, as it is (no expression). */
export interface ViewColumnSource {
  /** The view's column position (attnum). */
  readonly position: number;
  /** The relation's OID (as text) and column position. */
  readonly relation: string;
  readonly column: number;
}

/** Where the rows of partitioned tables and simple views come from. */
export interface RelationSources {
  readonly partitions: readonly CatalogPartition[];
  /** Partition key column positions, by partitioned table (`schema.name`). */
  readonly partitionKeys: ReadonlyMap<string, readonly number[]>;
  /** Column sources, by automatically updatable view (`schema.name`). */
  readonly viewColumns: ReadonlyMap<string, readonly ViewColumnSource[]>;
}

/** The tables and views a mapping names, with their columns (by `JSON.stringify([schema, table])`), and the schemas searched for an unqualified name, in order. */
export interface RelationColumns {
  readonly columns: Map<string, Set<string>>;
  readonly searchPath: string[];
}

/** How an engine reads its catalog (`SqlEngine.catalog`). */
export interface SqlCatalogReader {
  /** The schema introspect reads when none is named. */
  readonly schema: string;
  /** True when `schema` is the engine's only one: introspect refuses any other. */
  readonly oneSchema: boolean;
  /** False when the engine has no row version (PostgreSQL's xmin) to serve as an ETag. */
  readonly rowVersions: boolean;
  /** Everything introspection reads of `schemas`, in one snapshot. */
  read(db: SqlDatabase, schemas: readonly string[]): Promise<Catalog>;
  /** The relations named `names` with their columns (what checkMapping compares a mapping with). */
  relations(executor: SqlKysely, names: readonly string[]): Promise<RelationColumns>;
}
