/**
 * `createSchema`: the tables a mapping needs, for a quick start (migrations stay the user's job).
 * Idempotent: tables and indexes `if not exists`, foreign keys added only when their constraint is
 * missing. Columns follow the dialect's EDM type map (timestamps at milliseconds unless the model's
 * Precision says otherwise); foreign-key columns are indexed (docs/sql-provider.md "Indexes").
 */
import { sql } from 'kysely';
import type { EdmAssociationSet, EdmModel } from '../../edm/model';
import type { SqlDatabase, SqlKysely } from '../database';
import type { Sql, SqlDialect } from '../dialect';
import { compileMapping, type CompiledMapping, type SetPlan } from '../mapping/compiled';
import { otherEndOf } from '../mapping/model';
import { resolveMapping } from '../mapping/resolve';
import type { SqlMapping, SqlMappingOverrides } from '../mapping/types';
import { derivedName } from './names';

/** One foreign key the DDL adds after the tables exist (tables may refer to each other in a cycle). */
interface ForeignKey {
  readonly table: { readonly schema?: string; readonly table: string };
  readonly name: string;
  readonly statement: Sql;
}

/** The DDL of a mapping: tables first, then foreign keys (added when missing), then indexes. */
export interface SchemaStatements {
  readonly schemas: readonly string[];
  readonly tables: readonly Sql[];
  readonly foreignKeys: readonly ForeignKey[];
  readonly indexes: readonly Sql[];
}

const ids = (columns: readonly string[]): Sql => sql.join(columns.map((column) => sql.id(column)));

/** Column definitions of a set's table: its properties, then the library's columns. */
function setColumns(plan: SetPlan, dialect: SqlDialect): Sql[] {
  const definitions: Sql[] = [];
  const root = plan.entitySet.entityType;
  for (const column of plan.columns) {
    const { path } = column;
    if (column.type === undefined) {
      definitions.push(sql`${sql.id(column.column)} ${sql.raw(dialect.columnType('Edm.Boolean'))}`);
      continue;
    }
    // Required only when every step is required and every row has the property (not a derived type's).
    const required = path.declaringType === root && path.properties.every((property) => !property.nullable);
    const { precision, scale } = column.property;
    const check = dialect.columnCheck(column.type, dialect.quoteIdentifier(column.column));
    definitions.push(
      sql`${sql.id(column.column)} ${sql.raw(dialect.columnType(column.type, { precision, scale }))}${sql.raw(required ? ' not null' : '')}${check === undefined ? sql`` : sql` check (${sql.raw(check)})`}`,
    );
  }
  if (plan.discriminator !== undefined) definitions.push(sql`${sql.id(plan.discriminator.column)} ${sql.raw(dialect.columnType('Edm.String'))} not null`);
  if (plan.dynamic !== undefined) definitions.push(sql`${sql.id(plan.dynamic)} ${sql.raw(dialect.jsonColumnType)}`);
  return definitions;
}

/** The dependent table's foreign-key columns that are not also property columns, with their nullability. */
function foreignKeyColumns(compiled: CompiledMapping, associationSet: EdmAssociationSet, dialect: SqlDialect): { plan: SetPlan; definitions: Sql[]; nullable: boolean; columns: string[]; principal: SetPlan; onDelete: string; unique: boolean } | undefined {
  const storage = compiled.mapping.associationSets[associationSet.name];
  if (storage.kind !== 'foreignKey') return undefined;
  const dependent = associationSet.ends.find((end) => end.role === storage.dependent) ?? associationSet.ends[1];
  const principalEnd = otherEndOf(associationSet, dependent);
  const plan = compiled.sets.get(dependent.entitySet) as SetPlan;
  const principal = compiled.sets.get(principalEnd.entitySet) as SetPlan;
  const root = dependent.entitySet.entityType;
  // Every row of the table takes part when the end's type is the set's type or a base of it.
  let everyRow = false;
  for (let type: typeof root | undefined = root; type !== undefined; type = type.baseType) if (type === dependent.end.type) everyRow = true;
  const required = principalEnd.end.multiplicity === '1' && everyRow;
  const definitions: Sql[] = [];
  const columns: string[] = [];
  let nullable = true;
  principal.key.forEach((key) => {
    const column = storage.columns[key.property.name];
    columns.push(column);
    const shared = plan.columns.find((candidate) => candidate.column === column);
    if (shared !== undefined) {
      if (shared.path.properties.every((property) => !property.nullable) && shared.path.declaringType === root) nullable = false;
      return;
    }
    if (required) nullable = false;
    const type = key.type ?? 'Edm.String';
    definitions.push(sql`${sql.id(column)} ${sql.raw(dialect.columnType(type, { precision: key.property.precision, scale: key.property.scale }))}${sql.raw(required ? ' not null' : '')}`);
  });
  // MS-ODATA/CSDL OnDelete on the principal's end deletes its dependents; without it a delete unlinks them, or is refused when they need the link.
  const onDelete = principalEnd.end.onDelete === 'Cascade' ? 'cascade' : nullable ? 'set null' : 'no action';
  return { plan, definitions, nullable, columns, principal, onDelete, unique: dependent.end.multiplicity !== '*' };
}

/** The DDL statements of a mapping, without running them. */
export function schemaStatements(model: EdmModel, mapping: SqlMapping, dialect: SqlDialect): SchemaStatements {
  const compiled = compileMapping(model, mapping);
  const schemas = new Set<string>();
  const tables: Sql[] = [];
  const foreignKeys: ForeignKey[] = [];
  const indexes: Sql[] = [];
  const extraColumns = new Map<SetPlan, Sql[]>();
  const uniques = new Map<SetPlan, Sql[]>();
  const keyNames = (plan: SetPlan): string[] => plan.key.map((column) => column.column);

  for (const associationSet of model.defaultContainer.associationSets) {
    const foreignKey = foreignKeyColumns(compiled, associationSet, dialect);
    if (foreignKey === undefined) continue;
    const { plan, principal, columns } = foreignKey;
    extraColumns.set(plan, [...(extraColumns.get(plan) ?? []), ...foreignKey.definitions]);
    const { tableName } = plan;
    const name = derivedName(tableName.table, associationSet.name, 'fkey');
    foreignKeys.push({
      table: tableName,
      name,
      statement: sql`alter table ${plan.table} add constraint ${sql.id(name)} foreign key (${ids(columns)}) references ${principal.table} (${ids(keyNames(principal))}) on delete ${sql.raw(foreignKey.onDelete)}`,
    });
    const keyPrefix = columns.every((column, i) => plan.key[i]?.column === column);
    if (foreignKey.unique && !(keyPrefix && columns.length === plan.key.length)) {
      uniques.set(plan, [...(uniques.get(plan) ?? []), sql`constraint ${sql.id(derivedName(tableName.table, associationSet.name, 'key'))} unique (${ids(columns)})`]);
    } else if (!foreignKey.unique && !keyPrefix) {
      // Serves navigation from the principal (`Categories(1)/Products`) and its $expand; a foreign
      // key that starts the primary key (Lines(OrderID, No)) is served by the primary key already.
      indexes.push(sql`create index if not exists ${sql.id(derivedName(tableName.table, ...columns, 'idx'))} on ${plan.table} (${ids(columns)})`);
    }
  }

  for (const plan of compiled.sets.values()) {
    if (plan.tableName.schema !== undefined) schemas.add(plan.tableName.schema);
    const primaryKey = sql`constraint ${sql.id(derivedName(plan.tableName.table, 'pkey'))} primary key (${ids(keyNames(plan))})`;
    const definitions = [...setColumns(plan, dialect), ...(extraColumns.get(plan) ?? []), primaryKey, ...(uniques.get(plan) ?? [])];
    tables.push(sql`create table if not exists ${plan.table} (${sql.join(definitions)})`);
  }
  for (const plan of compiled.sets.values()) {
    const media = plan.media;
    if (media === undefined) continue;
    if (media.tableName.schema !== undefined) schemas.add(media.tableName.schema);
    const keyColumns = plan.key.map((column) => sql`${sql.id(column.column)} ${sql.raw(dialect.columnType(column.type ?? 'Edm.String', { precision: column.property.precision, scale: column.property.scale }))} not null`);
    tables.push(sql`create table if not exists ${media.table} (${sql.join([
      ...keyColumns,
      sql`${sql.id(media.contentType)} ${sql.raw(dialect.columnType('Edm.String'))} not null`,
      sql`${sql.id(media.body)} ${sql.raw(dialect.columnType('Edm.Binary'))} not null`,
      sql`constraint ${sql.id(derivedName(media.tableName.table, 'pkey'))} primary key (${ids(keyNames(plan))})`,
      sql`constraint ${sql.id(derivedName(media.tableName.table, 'fkey'))} foreign key (${ids(keyNames(plan))}) references ${plan.table} (${ids(keyNames(plan))}) on delete cascade`,
    ])})`);
  }
  for (const associationSet of model.defaultContainer.associationSets) {
    const storage = mapping.associationSets[associationSet.name];
    if (storage.kind !== 'joinTable') continue;
    if (storage.schema !== undefined) schemas.add(storage.schema);
    const [first, second] = associationSet.ends.map((end) => {
      const plan = compiled.sets.get(end.entitySet) as SetPlan;
      const columns = plan.key.map((key) => storage.columns[end.role][key.property.name]);
      const definitions = plan.key.map((key, i) => sql`${sql.id(columns[i])} ${sql.raw(dialect.columnType(key.type ?? 'Edm.String', { precision: key.property.precision, scale: key.property.scale }))} not null`);
      return { end, plan, columns, definitions };
    });
    const table = sql.id(...(storage.schema === undefined ? [storage.table] : [storage.schema, storage.table]));
    const reference = (side: typeof first): Sql =>
      sql`constraint ${sql.id(derivedName(storage.table, side.end.role, 'fkey'))} foreign key (${ids(side.columns)}) references ${side.plan.table} (${ids(keyNames(side.plan))}) on delete cascade`;
    tables.push(sql`create table if not exists ${table} (${sql.join([
      ...first.definitions,
      ...second.definitions,
      sql`constraint ${sql.id(derivedName(storage.table, 'pkey'))} primary key (${ids([...first.columns, ...second.columns])})`,
      reference(first),
      reference(second),
    ])})`);
    // The primary key serves lookups from the first end; the second end gets its own index.
    indexes.push(sql`create index if not exists ${sql.id(derivedName(storage.table, ...second.columns, 'idx'))} on ${table} (${ids(second.columns)})`);
  }
  return { schemas: [...schemas], tables, foreignKeys, indexes };
}

async function existingForeignKeys(trx: SqlKysely, table: ForeignKey['table']): Promise<Set<string>> {
  const schema = table.schema === undefined ? sql`current_schema()` : sql`${table.schema}`;
  const result = await sql<{ name: string }>`select constraint_name as name from information_schema.table_constraints
    where constraint_type = 'FOREIGN KEY' and table_schema = ${schema} and table_name = ${table.table}`.execute(trx);
  return new Set(result.rows.map((row) => row.name));
}

/**
 * Create the tables, foreign keys and indexes that `model` needs under `mapping` (conventions with
 * overrides, or a complete mapping), in one transaction; what exists already is left as it is.
 * Returns the resolved mapping.
 */
export async function createSchema(db: SqlDatabase, model: EdmModel, mapping: SqlMappingOverrides = {}): Promise<SqlMapping> {
  const resolved = resolveMapping(model, mapping);
  const statements = schemaStatements(model, resolved, db.dialect);
  await db.kysely.transaction().execute(async (trx) => {
    for (const schema of statements.schemas) await sql`create schema if not exists ${sql.id(schema)}`.execute(trx);
    for (const table of statements.tables) await table.execute(trx);
    const existing = new Map<string, Set<string>>();
    for (const foreignKey of statements.foreignKeys) {
      const tableKey = `${foreignKey.table.schema ?? ''}.${foreignKey.table.table}`;
      let names = existing.get(tableKey);
      if (names === undefined) {
        names = await existingForeignKeys(trx, foreignKey.table);
        existing.set(tableKey, names);
      }
      if (!names.has(foreignKey.name)) await foreignKey.statement.execute(trx);
    }
    for (const index of statements.indexes) await index.execute(trx);
  });
  return resolved;
}
