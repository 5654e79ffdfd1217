/**
 * What introspection reads of the PostgreSQL catalog, in one read-only snapshot: relations
 * (tables, views, materialized views, foreign tables) with comments, privileges and INSERT and
 * UPDATE rules, their columns,
 * the types those columns use (domains resolved to their base types, enum labels), primary-key,
 * unique and foreign-key constraints, unique indexes, and partitions and simple views' sources
 * (relation-sources.ts). Plain `pg_catalog` and
 * `information_schema` queries that PostgreSQL 12+ and PGlite answer (and that keep to what
 * CockroachDB and YugabyteDB also serve: no OID arithmetic, no regclass casts, no session state).
 * Nothing here decides what a row means for the model.
 */
import { sql } from 'kysely';
import type { SqlDatabase, SqlKysely } from '../database';
import type { Catalog, CatalogColumn, CatalogConstraint, CatalogRelation, CatalogType, RelationColumns, SqlCatalogReader } from '../introspect/catalog';
import { readRelationSources } from './relation-sources';

type Row = Record<string, unknown>;

// Catalog values are strings, numbers, booleans or arrays of them: String() is their text.
// eslint-disable-next-line @typescript-eslint/no-base-to-string -- see the line above
const text = (value: unknown): string => (typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value));
const nullableText = (value: unknown): string | null => (value === null || value === undefined ? null : text(value));
const flag = (value: unknown): boolean => value === true || value === 't' || value === 'YES';
const integer = (value: unknown): number => Number(value);

/** `{1,2}` (an int2[] as text) or `1 2` (an int2vector as text) as numbers. */
function positions(value: unknown): number[] {
  const list = text(value).replace(/[{}]/g, '').trim();
  return list === '' ? [] : list.split(/[\s,]+/).map(Number);
}

const RELATION_KINDS = ['r', 'p', 'v', 'm', 'f'];

async function readRelations(executor: SqlKysely, schemas: readonly string[]): Promise<CatalogRelation[]> {
  const result = await sql<Row>`
    select cast(c.oid as text) as oid, n.nspname as schema, c.relname as name, cast(c.relkind as text) as kind,
      obj_description(c.oid, 'pg_class') as comment, c.relispartition as is_partition,
      has_any_column_privilege(c.oid, 'SELECT') as can_select, has_any_column_privilege(c.oid, 'INSERT') as can_insert,
      has_any_column_privilege(c.oid, 'UPDATE') as can_update, has_table_privilege(c.oid, 'DELETE') as can_delete,
      v.is_insertable_into, v.is_updatable, v.is_trigger_insertable_into, v.is_trigger_updatable, v.is_trigger_deletable,
      rules.insert_rules, rules.instead_insert_rules, rules.silent_insert_rules, rules.update_rules
    from pg_catalog.pg_class c
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    left join information_schema.views v on v.table_schema = n.nspname and v.table_name = c.relname
    left join (
      select r.ev_class,
        bool_or(r.ev_type = '3') as insert_rules,
        bool_or(r.ev_type = '3' and r.is_instead) as instead_insert_rules,
        bool_or(r.ev_type = '3' and r.is_instead
          and (cast(r.ev_qual as text) <> '<>' or position('RETURNING' in upper(pg_get_ruledef(r.oid))) = 0)) as silent_insert_rules,
        bool_or(r.ev_type = '2') as update_rules
      from pg_catalog.pg_rewrite r
      where r.ev_type in ('2', '3')
      group by r.ev_class
    ) rules on rules.ev_class = c.oid
    where c.relkind = any(${RELATION_KINDS}::text[]) and n.nspname = any(${schemas}::text[])
    order by n.nspname, c.relname`.execute(executor);
  return result.rows.map((row) => ({
    oid: text(row.oid),
    schema: text(row.schema),
    name: text(row.name),
    kind: text(row.kind),
    comment: nullableText(row.comment),
    isPartition: flag(row.is_partition),
    canSelect: flag(row.can_select),
    canInsert: flag(row.can_insert),
    canUpdate: flag(row.can_update),
    canDelete: flag(row.can_delete),
    viewInsertable: flag(row.is_insertable_into) || flag(row.is_trigger_insertable_into),
    viewUpdatable: flag(row.is_updatable) || flag(row.is_trigger_updatable),
    viewDeletable: flag(row.is_updatable) || flag(row.is_trigger_deletable),
    insertRules: flag(row.silent_insert_rules) ? 'silent' : flag(row.instead_insert_rules) ? 'returning' : flag(row.insert_rules) ? 'also' : 'none',
    updateRules: flag(row.update_rules),
  }));
}

async function readColumns(executor: SqlKysely, schemas: readonly string[]): Promise<CatalogColumn[]> {
  const result = await sql<Row>`
    select n.nspname as schema, c.relname as "table", a.attnum as position, a.attname as name,
      a.attnotnull as not_null, cast(a.attidentity as text) as identity, cast(a.attgenerated as text) as generated,
      pg_get_expr(d.adbin, d.adrelid) as default_expression, col_description(c.oid, a.attnum) as comment,
      cast(a.atttypid as text) as type_oid, a.atttypmod as typmod, format_type(a.atttypid, a.atttypmod) as declared_type,
      has_column_privilege(c.oid, a.attnum, 'SELECT') as can_select,
      has_column_privilege(c.oid, a.attnum, 'INSERT') as can_insert,
      has_column_privilege(c.oid, a.attnum, 'UPDATE') as can_update
    from pg_catalog.pg_attribute a
    join pg_catalog.pg_class c on c.oid = a.attrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    left join pg_catalog.pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where a.attnum > 0 and not a.attisdropped
      and c.relkind = any(${RELATION_KINDS}::text[]) and n.nspname = any(${schemas}::text[])
    order by n.nspname, c.relname, a.attnum`.execute(executor);
  return result.rows.map((row) => ({
    schema: text(row.schema),
    table: text(row.table),
    position: integer(row.position),
    name: text(row.name),
    notNull: flag(row.not_null),
    identity: text(row.identity).trim(),
    generated: text(row.generated).trim(),
    defaultExpression: nullableText(row.default_expression),
    comment: nullableText(row.comment),
    typeOid: text(row.type_oid),
    typmod: integer(row.typmod),
    declaredType: text(row.declared_type),
    canSelect: flag(row.can_select),
    canInsert: flag(row.can_insert),
    canUpdate: flag(row.can_update),
  }));
}

/** The types with these OIDs, then their base and element types, until none is missing. */
async function readTypes(executor: SqlKysely, oids: ReadonlySet<string>): Promise<Map<string, CatalogType>> {
  const types = new Map<string, CatalogType>();
  let missing = [...oids];
  while (missing.length > 0) {
    const result = await sql<Row>`
      select cast(t.oid as text) as oid, t.typname as name, n.nspname as schema, cast(t.typtype as text) as kind,
        cast(t.typcategory as text) as category, cast(t.typbasetype as text) as base_type, t.typtypmod as base_typmod,
        t.typnotnull as not_null, t.typdefault as default_expression, cast(t.typelem as text) as element,
        (select array_agg(e.enumlabel order by e.enumsortorder) from pg_catalog.pg_enum e where e.enumtypid = t.oid) as labels
      from pg_catalog.pg_type t
      join pg_catalog.pg_namespace n on n.oid = t.typnamespace
      where cast(t.oid as text) = any(${missing}::text[])`.execute(executor);
    for (const row of result.rows) {
      const type: CatalogType = {
        oid: text(row.oid),
        name: text(row.name),
        schema: text(row.schema),
        kind: text(row.kind),
        category: text(row.category),
        baseType: text(row.base_type),
        baseTypmod: integer(row.base_typmod),
        notNull: flag(row.not_null),
        defaultExpression: nullableText(row.default_expression),
        element: text(row.element),
        labels: labelsOf(row.labels),
      };
      types.set(type.oid, type);
    }
    const next = new Set<string>();
    for (const type of types.values()) {
      // Only arrays and domains lead on: a base type's typelem (name -> char) is not an element type.
      const related = [type.kind === 'd' ? type.baseType : '0', type.category === 'A' ? type.element : '0'];
      for (const oid of related) if (oid !== '0' && !types.has(oid)) next.add(oid);
    }
    // A type the catalog does not return (a concurrent DROP) ends the loop rather than repeating it.
    missing = [...next].filter((oid) => !missing.includes(oid));
  }
  return types;
}

/** A name[] as the drivers deliver it: an array (PGlite) or its text `{a,"b c"}` (pg). */
function labelsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(text);
  if (typeof value !== 'string') return [];
  return parseTextArray(value);
}

/** The elements of a one-dimensional array's text form (quoted elements unescaped). */
function parseTextArray(value: string): string[] {
  const elements: string[] = [];
  const inner = value.slice(1, -1);
  let i = 0;
  while (i < inner.length) {
    let element = '';
    if (inner[i] === '"') {
      i++;
      while (i < inner.length && inner[i] !== '"') {
        if (inner[i] === '\\') i++;
        element += inner[i];
        i++;
      }
      i++;
    } else {
      while (i < inner.length && inner[i] !== ',') element += inner[i++];
    }
    elements.push(element);
    i++; // the comma
  }
  return elements;
}

async function readConstraints(executor: SqlKysely, schemas: readonly string[]): Promise<CatalogConstraint[]> {
  const constraints = await sql<Row>`
    select n.nspname as schema, c.relname as "table", con.conname as name, cast(con.contype as text) as kind,
      cast(con.conkey as text) as columns, fn.nspname as referenced_schema, fc.relname as referenced_table,
      cast(con.confkey as text) as referenced_columns, cast(con.confdeltype as text) as on_delete
    from pg_catalog.pg_constraint con
    join pg_catalog.pg_class c on c.oid = con.conrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    left join pg_catalog.pg_class fc on fc.oid = con.confrelid
    left join pg_catalog.pg_namespace fn on fn.oid = fc.relnamespace
    where con.contype = any(${['p', 'u', 'f']}::text[]) and n.nspname = any(${schemas}::text[])
    order by n.nspname, c.relname, con.conname`.execute(executor);
  // Unique indexes that are not constraints (no predicate, no expressions) make columns unique too.
  const indexes = await sql<Row>`
    select n.nspname as schema, c.relname as "table", i.relname as name, cast(x.indkey as text) as columns
    from pg_catalog.pg_index x
    join pg_catalog.pg_class c on c.oid = x.indrelid
    join pg_catalog.pg_class i on i.oid = x.indexrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where x.indisunique and not x.indisprimary and x.indpred is null and x.indexprs is null
      and n.nspname = any(${schemas}::text[])
    order by n.nspname, c.relname, i.relname`.execute(executor);
  return [
    ...constraints.rows.map((row) => ({
      schema: text(row.schema),
      table: text(row.table),
      name: text(row.name),
      kind: text(row.kind) as CatalogConstraint['kind'],
      columns: positions(row.columns),
      referencedSchema: nullableText(row.referenced_schema),
      referencedTable: nullableText(row.referenced_table),
      referencedColumns: positions(row.referenced_columns),
      onDelete: text(row.on_delete).trim(),
    })),
    ...indexes.rows.map((row) => ({
      schema: text(row.schema),
      table: text(row.table),
      name: text(row.name),
      kind: 'i' as const,
      columns: positions(row.columns),
      referencedSchema: null,
      referencedTable: null,
      referencedColumns: [],
      onDelete: '',
    })),
  ];
}

/** The relations named `names` in any schema, with their columns, and the schemas of the search path in order. */
async function readNamedRelations(executor: SqlKysely, names: readonly string[]): Promise<RelationColumns> {
  const rows = await sql<{ schema: string; table: string; column: string | null }>`
    select n.nspname as schema, c.relname as table, a.attname as column
    from pg_catalog.pg_class c
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    left join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    where c.relkind = any(${RELATION_KINDS}::text[]) and c.relname = any(${names}::text[])`.execute(executor);
  const path = await sql<{ schema: string }>`
    select s.schema from unnest(current_schemas(false)) with ordinality as s(schema, position) order by s.position`.execute(executor);
  const columns = new Map<string, Set<string>>();
  for (const row of rows.rows) {
    const id = JSON.stringify([row.schema, row.table]);
    const found = columns.get(id) ?? new Set<string>();
    columns.set(id, found);
    if (row.column !== null) found.add(row.column);
  }
  return { columns, searchPath: path.rows.map((row) => row.schema) };
}

/** Read the catalog of `schemas` in one read-only REPEATABLE READ transaction (one snapshot). */
async function readCatalog(db: SqlDatabase, schemas: readonly string[]): Promise<Catalog> {
  return db.kysely
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (executor) => {
      const relations = await readRelations(executor, schemas);
      const columns = await readColumns(executor, schemas);
      const types = await readTypes(executor, new Set(columns.map((column) => column.typeOid)));
      const constraints = await readConstraints(executor, schemas);
      const sources = await readRelationSources(executor, schemas);
      return { relations, columns, types, constraints, sources };
    });
}

/** PostgreSQL's catalog reader (pglite() and postgres() alike). */
export const POSTGRES_CATALOG: SqlCatalogReader = Object.freeze({
  schema: 'public',
  oneSchema: false,
  rowVersions: true,
  read: readCatalog,
  relations: readNamedRelations,
});
