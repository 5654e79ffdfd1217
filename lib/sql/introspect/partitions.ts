/**
 * Keys and foreign keys of partitioned tables that live on their partitions only: PostgreSQL
 * refuses a unique index on a partitioned table that leaves out the partition key, so schemas put
 * the primary key (and often the foreign keys) on each partition. A partitioned table without a
 * primary key takes the one all its partitions have (same columns, by name), and each foreign key
 * all of them have; a key that leaves out the partition key columns is unique in each partition
 * only, so it is marked for the start-time uniqueness check (check-keys.ts).
 */
import type { Catalog, CatalogConstraint } from './catalog';

/** The constraints of `schema.table`. */
function constraintsOf(catalog: Catalog, schema: string, table: string): CatalogConstraint[] {
  return catalog.constraints.filter((constraint) => constraint.schema === schema && constraint.table === table);
}

/** Column names of a relation by position, and positions by name. */
function columnsOf(catalog: Catalog, schema: string, table: string): { names: Map<number, string>; positions: Map<string, number> } {
  const columns = catalog.columns.filter((column) => column.schema === schema && column.table === table);
  return {
    names: new Map(columns.map((column) => [column.position, column.name])),
    positions: new Map(columns.map((column) => [column.name, column.position])),
  };
}

/** What identifies a constraint across partitions: its kind, column names and what it refers to. */
function signature(constraint: CatalogConstraint, names: ReadonlyMap<number, string>): string {
  const columns = constraint.columns.map((position) => names.get(position) ?? `#${position}`);
  const key = constraint.kind === 'p' ? [...columns].sort() : columns;
  return JSON.stringify([constraint.kind, key, constraint.referencedSchema, constraint.referencedTable, constraint.referencedColumns, constraint.onDelete]);
}

/**
 * The constraints partitioned tables take from their partitions (see the module comment), each as
 * the partitioned table's own: named as on the first partition, its columns the table's. A primary
 * key that does not hold the partition key columns has `partitionsOnly` set.
 */
function inheritedConstraints(catalog: Catalog): CatalogConstraint[] {
  const inherited: CatalogConstraint[] = [];
  for (const relation of catalog.relations) {
    if (relation.kind !== 'p') continue;
    const partitions = catalog.sources.partitions.filter((partition) => partition.parentSchema === relation.schema && partition.parent === relation.name);
    if (partitions.length === 0) continue;
    const parent = columnsOf(catalog, relation.schema, relation.name);
    const own = new Set(constraintsOf(catalog, relation.schema, relation.name).map((constraint) => signature(constraint, parent.names)));
    const hasPrimaryKey = [...own].some((text) => text.startsWith('["p"'));
    // Per partition: its primary key and foreign keys by signature.
    const perPartition = partitions.map((partition) => {
      const { names } = columnsOf(catalog, partition.schema, partition.name);
      return new Map(
        constraintsOf(catalog, partition.schema, partition.name)
          .filter((constraint) => constraint.kind === 'p' || constraint.kind === 'f')
          .map((constraint) => [signature(constraint, names), { constraint, names }] as const),
      );
    });
    for (const [text, { constraint, names }] of perPartition[0]) {
      if (own.has(text) || (constraint.kind === 'p' && hasPrimaryKey)) continue;
      if (!perPartition.every((partition) => partition.has(text))) continue;
      const columns = constraint.columns.map((position) => parent.positions.get(names.get(position) ?? ''));
      if (columns.some((position) => position === undefined)) continue;
      const positions = columns as number[];
      const partitionKey = catalog.sources.partitionKeys.get(`${relation.schema}.${relation.name}`) ?? [];
      inherited.push({
        ...constraint,
        schema: relation.schema,
        table: relation.name,
        columns: positions,
        inherited: true,
        ...(constraint.kind === 'p' && !partitionKey.every((position) => positions.includes(position)) ? { partitionsOnly: true } : {}),
      });
    }
  }
  return inherited;
}

/** The catalog's constraints with the inherited ones among them, in catalog order (constraints by schema, table and name, then unique indexes). */
export function withInheritedConstraints(catalog: Catalog): CatalogConstraint[] {
  const inherited = inheritedConstraints(catalog);
  if (inherited.length === 0) return [...catalog.constraints];
  const key = (constraint: CatalogConstraint): string => `${constraint.schema}\u0000${constraint.table}\u0000${constraint.name}`;
  const constraints = [...catalog.constraints.filter((constraint) => constraint.kind !== 'i'), ...inherited].sort((a, b) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0,
  );
  return [...constraints, ...catalog.constraints.filter((constraint) => constraint.kind === 'i')];
}
