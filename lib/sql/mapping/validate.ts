/**
 * Semantic checks of a complete mapping against the model: names PostgreSQL can hold, one table
 * per name, distinct columns within a table, discriminator values that tell types apart, foreign
 * keys only toward a single-valued end, and foreign-key columns shared with properties only when
 * their types agree. Every problem names its element; the caller throws them together.
 */
import type { EdmModel, EdmProperty } from '../../edm/model';
import { otherEndOf, structuralPaths } from './model';
import type { SqlMapping } from './types';

/** Most bytes PostgreSQL keeps of an identifier (NAMEDATALEN - 1); it would cut longer names silently. */
const MAX_IDENTIFIER_BYTES = 63;

function nameProblem(name: string, where: string): string | undefined {
  if (name.includes('\0')) return `${where}: '${name}' contains U+0000.`;
  if (Buffer.byteLength(name) > MAX_IDENTIFIER_BYTES)
    return `${where}: '${name.slice(0, 80)}' is longer than ${MAX_IDENTIFIER_BYTES} bytes (PostgreSQL would cut it).`;
  return undefined;
}

/** Columns of one table: name -> what uses it, reporting a second use. */
class TableColumns {
  private readonly uses = new Map<string, string>();
  constructor(
    private readonly table: string,
    private readonly problems: string[],
  ) {}

  add(column: string, use: string): void {
    const problem = nameProblem(column, use);
    if (problem !== undefined) this.problems.push(problem);
    const previous = this.uses.get(column);
    if (previous !== undefined) this.problems.push(`${use}: the column '${column}' of table '${this.table}' is already used by ${previous}.`);
    else this.uses.set(column, use);
  }
}

/** Every problem of `mapping` for `model` (the mapping's shape is already checked). */
export function mappingProblems(model: EdmModel, mapping: SqlMapping): string[] {
  const problems: string[] = [];
  const tables = new Map<string, string>();
  const claimTable = (schema: string | undefined, table: string, use: string): void => {
    for (const [name, what] of [
      [table, 'table'],
      [schema, 'schema'],
    ] as const) {
      const problem = name === undefined ? undefined : nameProblem(name, `${use} ${what}`);
      if (problem !== undefined) problems.push(problem);
    }
    const qualified = `${schema ?? ''}.${table}`;
    const previous = tables.get(qualified);
    if (previous !== undefined) problems.push(`${use}: the table '${schema === undefined ? '' : schema + '.'}${table}' is already used by ${previous}.`);
    else tables.set(qualified, use);
  };

  // Property columns by set, with the property they hold (foreign keys may share them).
  const columnsBySet = new Map<string, TableColumns>();
  const propertyByColumn = new Map<string, Map<string, EdmProperty>>();
  for (const entitySet of model.defaultContainer.entitySets) {
    const setMapping = mapping.entitySets[entitySet.name];
    const where = `EntitySet '${entitySet.name}'`;
    claimTable(setMapping.schema, setMapping.table, where);
    const columns = new TableColumns(setMapping.table, problems);
    const properties = new Map<string, EdmProperty>();
    for (const path of structuralPaths(entitySet)) {
      const column = setMapping.columns[path.path];
      columns.add(column, `${where} / property '${path.path}'`);
      if (!path.presence) properties.set(column, path.properties[path.properties.length - 1]);
    }
    if (setMapping.discriminator !== undefined) {
      columns.add(setMapping.discriminator.column, `${where} / discriminator`);
      const seen = new Map<string, string>();
      for (const [type, value] of Object.entries(setMapping.discriminator.values)) {
        const other = seen.get(value);
        if (other !== undefined) problems.push(`${where} / discriminator: '${type}' and '${other}' have the same value '${value}'.`);
        seen.set(value, type);
      }
    }
    if (setMapping.dynamicProperties !== undefined) columns.add(setMapping.dynamicProperties, `${where} / dynamicProperties`);
    if (setMapping.media !== undefined) {
      const media = setMapping.media;
      claimTable(media.schema, media.table, `${where} / media`);
      const mediaColumns = new TableColumns(media.table, problems);
      for (const key of entitySet.entityType.key) mediaColumns.add(setMapping.columns[key.name], `${where} / media key '${key.name}'`);
      mediaColumns.add(media.contentType, `${where} / media contentType`);
      mediaColumns.add(media.body, `${where} / media body`);
    }
    columnsBySet.set(entitySet.name, columns);
    propertyByColumn.set(entitySet.name, properties);
  }

  for (const associationSet of model.defaultContainer.associationSets) {
    const storage = mapping.associationSets[associationSet.name];
    const where = `AssociationSet '${associationSet.name}'`;
    if (storage.kind === 'joinTable') {
      claimTable(storage.schema, storage.table, where);
      const columns = new TableColumns(storage.table, problems);
      for (const end of associationSet.ends) {
        for (const key of end.entitySet.entityType.key) columns.add(storage.columns[end.role][key.name], `${where} / columns / '${end.role}' / '${key.name}'`);
      }
      continue;
    }
    const dependent = associationSet.ends.find((end) => end.role === storage.dependent) ?? associationSet.ends[1];
    const principal = otherEndOf(associationSet, dependent);
    if (principal.end.multiplicity === '*') {
      problems.push(
        `${where}: a foreign key on '${dependent.role}' would point to the many-valued end '${principal.role}'; use kind 'joinTable' (or the other end as dependent).`,
      );
      continue;
    }
    const columns = columnsBySet.get(dependent.entitySet.name);
    const properties = propertyByColumn.get(dependent.entitySet.name);
    for (const key of principal.entitySet.entityType.key) {
      const column = storage.columns[key.name];
      const use = `${where} / columns / '${key.name}'`;
      const shared = properties?.get(column);
      if (shared === undefined) {
        columns?.add(column, use);
        continue;
      }
      // A column that is also a property's holds the link: the property must hold the key's type.
      const keyType = key.type.kind === 'Primitive' ? key.type.name : undefined;
      const propertyType = shared.type.kind === 'Primitive' ? shared.type.name : undefined;
      if (keyType !== propertyType)
        problems.push(
          `${use}: the column '${column}' is the property '${shared.name}' (${String(propertyType)}), which cannot hold the key '${key.name}' (${String(keyType)}).`,
        );
    }
  }
  return problems;
}
