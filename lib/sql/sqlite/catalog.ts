/**
 * What introspection reads of a SQLite database, in the language of the catalog types
 * (lib/sql/introspect/catalog.ts), so the engine-neutral drafting, naming and association code
 * serves both: the tables and views of the `main` schema (`sqlite_schema`), their columns
 * (`pragma table_xinfo`), primary keys, unique constraints and indexes (`pragma index_list`),
 * foreign keys (`pragma foreign_key_list`), and which views INSTEAD OF INSERT, UPDATE and DELETE
 * triggers make creatable, updatable, deletable (a view is otherwise read-only). A declared column type becomes the built-in
 * PostgreSQL type of the same meaning (the table below), so the neutral type table decides the
 * EDM type once; what SQLite leaves open goes by its affinity rules (SQLite §3.1: INT, then
 * CHAR/CLOB/TEXT, then BLOB or none, then REAL/FLOA/DOUB, else NUMERIC).
 */
import { sql } from 'kysely';
import type { SqlDatabase, SqlKysely } from '../database';
import type { Catalog, CatalogColumn, CatalogConstraint, CatalogRelation, CatalogType, RelationColumns, SqlCatalogReader } from '../introspect/catalog';

/** The one schema introspection reads on SQLite (attached databases are not read). */
const SQLITE_SCHEMA = 'main';

type Row = Record<string, unknown>;
const text = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'bigint' || typeof value === 'number' ? String(value) : '');
const VARIABLE_HEADER = 4;

/** Declared type names (lower case, without their arguments) and the PostgreSQL type of the same meaning. */
const DECLARED: ReadonlyMap<string, string> = new Map([
  ['boolean', 'bool'],
  ['bool', 'bool'],
  ['tinyint', 'int2'],
  ['unsigned tinyint', 'int2'],
  ['smallint', 'int2'],
  ['int2', 'int2'],
  ['int', 'int4'],
  ['int4', 'int4'],
  ['mediumint', 'int4'],
  // SQLite's INTEGER is 64 bits (and a rowid key): Int64, as is BIGINT.
  ['integer', 'int8'],
  ['bigint', 'int8'],
  ['int8', 'int8'],
  ['decimal_text', 'numeric'],
  ['decimal', 'numeric'],
  ['numeric', 'numeric'],
  ['float4', 'float4'],
  ['real', 'float8'],
  ['float', 'float8'],
  ['double', 'float8'],
  ['double precision', 'float8'],
  ['datetime_text', 'timestamp'],
  ['datetime', 'timestamp'],
  ['timestamp', 'timestamp'],
  ['datetimeoffset_text', 'timestamptz'],
  ['date', 'date'],
  ['time_text', 'time'],
  ['time', 'time'],
  ['guid_text', 'uuid'],
  ['uuid', 'uuid'],
  ['blob', 'bytea'],
  ['json_text', 'jsonb'],
  ['json', 'jsonb'],
  ['varchar', 'varchar'],
  ['nvarchar', 'varchar'],
  ['character varying', 'varchar'],
  ['text', 'text'],
]);

/** The PostgreSQL type (name, modifier) of a declared SQLite column type. */
function declaredTypeOf(declared: string): { readonly name: string; readonly typmod: number } {
  const match = /^\s*([^(]*?)\s*(?:\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\))?\s*$/.exec(declared.toLowerCase());
  const base = match?.[1] ?? '';
  const first = match?.[2] === undefined ? undefined : Number(match[2]);
  const second = match?.[3] === undefined ? 0 : Number(match[3]);
  const name = DECLARED.get(base) ?? affinityType(base);
  switch (name) {
    case 'numeric':
      return { name, typmod: first === undefined ? -1 : ((first << 16) | second) + VARIABLE_HEADER };
    case 'varchar':
      return { name, typmod: first === undefined ? -1 : first + VARIABLE_HEADER };
    case 'timestamp':
    case 'timestamptz':
    case 'time':
      // The codec writes milliseconds (and finer digits only when a value has them).
      return { name, typmod: first ?? 3 };
    default:
      return { name, typmod: -1 };
  }
}

/** SQLite's affinity rules for a type name no row of DECLARED names. */
function affinityType(base: string): string {
  if (base.includes('int')) return 'int8';
  if (base.includes('char') || base.includes('clob') || base.includes('text')) return 'text';
  // No declared type: a column of mixed values, served as their text.
  if (base === '') return 'text';
  if (base.includes('blob')) return 'bytea';
  if (base.includes('real') || base.includes('floa') || base.includes('doub')) return 'float8';
  return 'numeric';
}

function builtIn(name: string): CatalogType {
  return {
    oid: name,
    name,
    schema: 'pg_catalog',
    kind: 'b',
    category: '',
    baseType: '0',
    baseTypmod: -1,
    notNull: false,
    defaultExpression: null,
    element: '0',
    labels: [],
  };
}

/** A column default as the neutral reader takes it (PostgreSQL's spelling): a boolean's 1 and 0 are true and false. */
function defaultOf(type: string, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const expression = text(value);
  if (type === 'bool' && /^(1|0|true|false)$/i.test(expression)) return /^(1|true)$/i.test(expression) ? 'true' : 'false';
  return expression;
}

const ON_DELETE: Readonly<Record<string, string>> = { CASCADE: 'c', 'SET NULL': 'n', 'SET DEFAULT': 'd', RESTRICT: 'r', 'NO ACTION': 'a' };

async function pragma(executor: SqlKysely, name: string, argument: string): Promise<Row[]> {
  return (await sql<Row>`select * from ${sql.raw(`pragma_${name}`)}(${argument})`.execute(executor)).rows;
}

async function readTable(
  executor: SqlKysely,
  relation: CatalogRelation,
  columns: CatalogColumn[],
  constraints: CatalogConstraint[],
  foreignKeys: PendingForeignKey[],
): Promise<void> {
  const info = await pragma(executor, 'table_xinfo', relation.name);
  const own = info.filter((row) => Number(row.hidden) !== 1);
  const primary = own.filter((row) => Number(row.pk) > 0).sort((a, b) => Number(a.pk) - Number(b.pk));
  // A single INTEGER PRIMARY KEY is the rowid: SQLite makes a value when an INSERT leaves it out.
  const rowid = primary.length === 1 && text(primary[0].type).toUpperCase() === 'INTEGER' ? primary[0] : undefined;
  for (const row of own) {
    const declared = text(row.type);
    const type = declaredTypeOf(declared);
    columns.push({
      schema: SQLITE_SCHEMA,
      table: relation.name,
      position: Number(row.cid) + 1,
      name: text(row.name),
      notNull: Number(row.notnull) === 1 || row === rowid,
      identity: row === rowid ? 'd' : '',
      generated: Number(row.hidden) >= 2 ? 's' : '',
      defaultExpression: defaultOf(type.name, row.dflt_value),
      comment: null,
      typeOid: type.name,
      typmod: type.typmod,
      declaredType: declared,
      canSelect: true,
      canInsert: relation.canInsert,
      canUpdate: relation.canUpdate,
    });
  }
  if (relation.kind !== 'r') return;
  const position = (name: string): number => Number(own.find((row) => text(row.name) === name)?.cid ?? -1) + 1;
  const base = { schema: SQLITE_SCHEMA, table: relation.name, referencedSchema: null, referencedTable: null, referencedColumns: [], onDelete: '' };
  if (primary.length > 0) constraints.push({ ...base, name: `${relation.name}_pkey`, kind: 'p', columns: primary.map((row) => Number(row.cid) + 1) });
  for (const index of await pragma(executor, 'index_list', relation.name)) {
    if (Number(index.unique) !== 1 || Number(index.partial) === 1 || text(index.origin) === 'pk') continue;
    const parts = await pragma(executor, 'index_info', text(index.name));
    // An expression in the index (cid -2) makes no column unique.
    if (parts.some((part) => Number(part.cid) < 0)) continue;
    const ordered = parts.sort((a, b) => Number(a.seqno) - Number(b.seqno)).map((part) => Number(part.cid) + 1);
    constraints.push({ ...base, name: text(index.name), kind: text(index.origin) === 'u' ? 'u' : 'i', columns: ordered });
  }
  const keys = new Map<number, Row[]>();
  for (const row of await pragma(executor, 'foreign_key_list', relation.name)) keys.set(Number(row.id), [...(keys.get(Number(row.id)) ?? []), row]);
  for (const rows of keys.values()) {
    rows.sort((a, b) => Number(a.seq) - Number(b.seq));
    const from = rows.map((row) => text(row.from));
    foreignKeys.push({
      constraint: {
        ...base,
        name: `${relation.name}_${from.join('_')}_fkey`,
        kind: 'f',
        columns: from.map(position),
        referencedSchema: SQLITE_SCHEMA,
        referencedTable: text(rows[0].table),
        onDelete: ON_DELETE[text(rows[0].on_delete).toUpperCase()] ?? 'a',
      },
      // A foreign key that names no columns refers to the referenced table's primary key.
      names: rows.map((row) => (row.to === null ? undefined : text(row.to))),
    });
  }
}

/** A foreign key as read, before the referenced table's columns are known. */
interface PendingForeignKey {
  readonly constraint: CatalogConstraint;
  readonly names: readonly (string | undefined)[];
}

/** The foreign keys with the positions of the columns they refer to. */
function resolveReferences(
  pending: readonly PendingForeignKey[],
  constraints: readonly CatalogConstraint[],
  columns: readonly CatalogColumn[],
): CatalogConstraint[] {
  return pending.map(({ constraint, names }) => {
    const table = constraint.referencedTable;
    const primary = constraints.find((candidate) => candidate.kind === 'p' && candidate.table === table)?.columns ?? [];
    const referencedColumns = names.map(
      (name, i) => (name === undefined ? primary[i] : columns.find((column) => column.table === table && column.name === name)?.position) ?? 0,
    );
    return { ...constraint, referencedColumns };
  });
}

/**
 * The operations (`insert`, `update`, `delete`) each view has an INSTEAD OF trigger for, read from
 * the trigger's text as SQLite keeps it (`CREATE TRIGGER name INSTEAD OF UPDATE OF col ON view`).
 */
async function insteadOfTriggers(executor: SqlKysely): Promise<Map<string, Set<string>>> {
  const triggers = await sql<Row>`select tbl_name, sql from sqlite_schema where type = 'trigger'`.execute(executor);
  const operations = new Map<string, Set<string>>();
  for (const row of triggers.rows) {
    // Comments are not code: `-- instead of insert` in a trigger's body says nothing.
    const code = text(row.sql).replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, ' ');
    const operation =
      /^\s*create\s+(?:temp\s+|temporary\s+)?trigger\s+(?:if\s+not\s+exists\s+)?(?:"(?:[^"]|"")*"|`[^`]*`|\[[^\]]*\]|[^\s(]+)\s+instead\s+of\s+(insert|update|delete)\b/i.exec(
        code,
      )?.[1];
    if (operation === undefined) continue;
    const table = text(row.tbl_name);
    operations.set(table, (operations.get(table) ?? new Set<string>()).add(operation.toLowerCase()));
  }
  return operations;
}

/** Read the catalog of a SQLite database (its `main` schema) in one read transaction. */
async function readSqliteCatalog(db: SqlDatabase): Promise<Catalog> {
  return db.kysely
    .transaction()
    .setAccessMode('read only')
    .execute(async (executor) => {
      const listed = await sql<Row>`select name, type from sqlite_schema
        where type in ('table', 'view') and name not like 'sqlite\\_%' escape '\\' order by name`.execute(executor);
      const instead = await insteadOfTriggers(executor);
      const relations: CatalogRelation[] = listed.rows.map((row) => {
        const kind = text(row.type) === 'view' ? 'v' : 'r';
        // A view is read-only (SQLite refuses writes to it) but for what its INSTEAD OF triggers do:
        // each makes its operation writable (the write statements name a view without an alias and
        // count the rows a DELETE returns, not changes(): statements.ts).
        const triggers = instead.get(text(row.name));
        const [insertable, updatable, deletable] = (['insert', 'update', 'delete'] as const).map(
          (operation) => kind === 'r' || (triggers?.has(operation) ?? false),
        );
        return {
          oid: text(row.name),
          schema: SQLITE_SCHEMA,
          name: text(row.name),
          kind,
          comment: null,
          isPartition: false,
          canSelect: true,
          canInsert: insertable,
          canUpdate: updatable,
          canDelete: deletable,
          viewInsertable: insertable,
          viewUpdatable: updatable,
          viewDeletable: deletable,
          // SQLite has triggers, not PostgreSQL's rules: INSERT … ON CONFLICT and RETURNING always apply.
          insertRules: 'none',
          updateRules: false,
        };
      });
      const columns: CatalogColumn[] = [];
      const constraints: CatalogConstraint[] = [];
      const foreignKeys: PendingForeignKey[] = [];
      for (const relation of relations) await readTable(executor, relation, columns, constraints, foreignKeys);
      return {
        relations,
        columns,
        types: new Map([...new Set(columns.map((column) => column.typeOid))].map((name) => [name, builtIn(name)])),
        constraints: [...constraints, ...resolveReferences(foreignKeys, constraints, columns)],
        sources: { partitions: [], partitionKeys: new Map(), viewColumns: new Map() },
      };
    });
}

/** The tables and views named `names` with their columns (keyed as check-mapping.ts keys them), and `main` as the one schema searched. */
async function readSqliteRelations(executor: SqlKysely, names: readonly string[]): Promise<RelationColumns> {
  const columns = new Map<string, Set<string>>();
  if (names.length === 0) return { columns, searchPath: [SQLITE_SCHEMA] };
  const rows = await sql<Row>`select m.name as "table", p.name as "column" from sqlite_schema m left join pragma_table_info(m.name) p
    where m.type in ('table', 'view') and m.name in (${sql.join(names.map((name) => sql.val(name)))})`.execute(executor);
  for (const row of rows.rows) {
    const id = JSON.stringify([SQLITE_SCHEMA, text(row.table)]);
    const found = columns.get(id) ?? new Set<string>();
    columns.set(id, found);
    if (row.column !== null) found.add(text(row.column));
  }
  return { columns, searchPath: [SQLITE_SCHEMA] };
}

/** SQLite's catalog reader (SqlDatabase.catalog of `sqlite()`). */
export const SQLITE_CATALOG: SqlCatalogReader = Object.freeze({
  schema: SQLITE_SCHEMA,
  oneSchema: true,
  rowVersions: false,
  read: readSqliteCatalog,
  relations: readSqliteRelations,
});
