/**
 * `checkMapping(db, model, mapping)`: the start-time check that every table and column a mapping
 * names (an edited mapping.json, or the conventions `resolveMapping` applies) is in the database,
 * so a model that does not fit is refused with one problem per missing table or column before it
 * is served, instead of answering 500 to the first client that reads the set. One catalog read in
 * a read-only transaction under a statement timeout, by the engine's catalog reader.
 */
import type { EdmModel } from '../../edm/model';
import type { SqlDatabase } from '../database';
import { SqlMappingError } from '../errors';
import type { SqlMapping } from '../mapping/types';

/** Options of `checkMapping`. */
export interface CheckMappingOptions {
  /** How long the catalog read may run, in milliseconds (default 10000). */
  readonly statementTimeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/** A table a mapping names, and the columns it names in it, each with what names it (for the problem). */
interface TableUse {
  readonly schema: string | undefined;
  readonly table: string;
  /** `EntitySet 'Orders'`: the parts of the model whose table this is. */
  readonly owners: string[];
  /** Column name -> `EntitySet 'Orders' / property 'ShipVia'`, the first part that names it. */
  readonly columns: Map<string, string>;
}

/** Every table and column `mapping` names for `model`'s default container. */
function tableUses(model: EdmModel, mapping: SqlMapping): TableUse[] {
  const uses = new Map<string, TableUse>();
  const use = (schema: string | undefined, table: string, owner?: string): TableUse => {
    const id = JSON.stringify([schema ?? null, table]);
    const found = uses.get(id) ?? { schema, table, owners: [], columns: new Map<string, string>() };
    uses.set(id, found);
    if (owner !== undefined) found.owners.push(owner);
    return found;
  };
  const name = (target: TableUse, column: string, who: string): void => {
    if (!target.columns.has(column)) target.columns.set(column, who);
  };
  const container = model.defaultContainer;
  for (const entitySet of container.entitySets) {
    const set = mapping.entitySets[entitySet.name];
    const owner = `EntitySet '${entitySet.name}'`;
    const table = use(set.schema, set.table, owner);
    for (const [path, column] of Object.entries(set.columns)) name(table, column, `${owner} / property '${path}'`);
    if (set.discriminator !== undefined) name(table, set.discriminator.column, `${owner} / discriminator`);
    if (set.dynamicProperties !== undefined) name(table, set.dynamicProperties, `${owner} / dynamic properties`);
    if (set.media !== undefined) {
      const media = use(set.media.schema, set.media.table, `${owner} / media`);
      // The side table is keyed like the set's table: the same key column names.
      for (const key of entitySet.entityType.key) name(media, set.columns[key.name], `${owner} / media key '${key.name}'`);
      name(media, set.media.contentType, `${owner} / media content type`);
      name(media, set.media.body, `${owner} / media body`);
    }
  }
  for (const associationSet of container.associationSets) {
    const storage = mapping.associationSets[associationSet.name];
    const owner = `AssociationSet '${associationSet.name}'`;
    if (storage.kind === 'joinTable') {
      const table = use(storage.schema, storage.table, owner);
      for (const [role, columns] of Object.entries(storage.columns)) {
        for (const [key, column] of Object.entries(columns)) name(table, column, `${owner} / ${role} '${key}'`);
      }
      continue;
    }
    const dependent = associationSet.ends.find((end) => end.role === storage.dependent);
    if (dependent === undefined) continue; // validateMapping refuses such a mapping
    const set = mapping.entitySets[dependent.entitySet.name];
    const table = use(set.schema, set.table);
    for (const [key, column] of Object.entries(storage.columns)) name(table, column, `${owner} / ${storage.dependent} '${key}'`);
  }
  return [...uses.values()];
}

/** `sales.orders`, or `orders` for a table the search path finds. */
function describeTable(schema: string | undefined, table: string): string {
  return schema === undefined ? table : `${schema}.${table}`;
}

/**
 * Check that every table and column `mapping` names for `model` exists (see the module comment).
 * A table without a schema is looked up as the database looks it up: in the schemas of the
 * search path, in order. Rejects with a SqlMappingError listing one problem per missing table
 * (its columns are then not listed) and per missing column.
 */
export async function checkMapping(db: SqlDatabase, model: EdmModel, mapping: SqlMapping, options: CheckMappingOptions = {}): Promise<void> {
  const uses = tableUses(model, mapping);
  const { columns, searchPath } = await db.kysely
    .transaction()
    .setAccessMode('read only')
    .execute(async (executor) => {
      await db.sqlEngine.transactions.statementTimeout?.(options.statementTimeoutMs ?? DEFAULT_TIMEOUT_MS).execute(executor);
      return db.sqlEngine.catalog.relations(executor, [...new Set(uses.map((entry) => entry.table))]);
    });
  const problems: string[] = [];
  for (const entry of uses) {
    const schema = entry.schema ?? searchPath.find((candidate) => columns.has(JSON.stringify([candidate, entry.table])));
    const found = schema === undefined ? undefined : columns.get(JSON.stringify([schema, entry.table]));
    const where = describeTable(entry.schema, entry.table);
    if (found === undefined) {
      const place = entry.schema === undefined ? ` in the schemas of the search path (${searchPath.join(', ')})` : '';
      // A table only foreign keys name belongs to a set whose own problem names it.
      for (const owner of entry.owners) problems.push(`${owner}: no table ${where}${place}.`);
      continue;
    }
    for (const [column, who] of entry.columns) {
      if (!found.has(column)) problems.push(`${who}: no column ${column} in ${describeTable(schema, entry.table)}.`);
    }
  }
  if (problems.length > 0) throw new SqlMappingError(problems, 'the database');
}
