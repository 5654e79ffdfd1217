/**
 * `seed`: load data in MemoryProvider's format (docs/memory-provider.md "Data format": entity set
 * -> plain entities, links by navigation property or by foreign-key fields) into the tables of a
 * mapping, in one transaction. The data is checked and converted by the provider kit's loader, the
 * one MemoryProvider uses (so every problem is reported the same way), then inserted in
 * dependency order: principals before the rows that refer to them; links in a cycle (a
 * self-association) are set by an UPDATE after every row exists. Meant for fixtures and demos:
 * the data is held in memory once; bulk loads belong to COPY.
 */
import { sql } from 'kysely';
import type { EdmAssociationSet, EdmModel } from '../../edm/model';
import type { PrimitiveValue } from '../../edm/primitives';
import { isODataError } from '../../errors';
import { collectEntityData, type CollectedEntityData } from '../../provider/collected-data';
import type { ForeignKeyMap, MemoryData } from '../../provider/entity-data';
import type { SqlDatabase, SqlKysely } from '../database';
import type { Sql } from '../dialect';
import { SqlSeedError } from '../errors';
import { compileMapping, type CompiledMapping, type LinkPlan, type SetPlan } from '../mapping/compiled';
import { resolveMapping } from '../mapping/resolve';
import type { SqlMappingOverrides } from '../mapping/types';
import { entityTypeOf, rowParameters } from '../rows';
import { insertRows, updateRows, type RowValues } from './statements';
import { INTEGER_KEYS } from './create-schema';

/** Options of `seed`. */
export interface SeedOptions {
  /** Foreign-key fields that stand for links, as MemoryProvider's `links` option takes them. */
  readonly links?: ForeignKeyMap;
}

function keyValues(plan: SetPlan, entity: Readonly<Record<string, unknown>>): PrimitiveValue[] {
  return plan.key.map((column) => entity[column.property.name] as PrimitiveValue);
}

/** Every link of an association set as (end 0 key, end 1 key) pairs. */
function linkPairs(compiled: CompiledMapping, associationSet: EdmAssociationSet, data: CollectedEntityData): [PrimitiveValue[], PrimitiveValue[]][] {
  const [first, second] = associationSet.ends.map((end) => compiled.sets.get(end.entitySet) as SetPlan);
  return [...data.pairs(associationSet)].map(([a, b]) => [keyValues(first, a), keyValues(second, b)]);
}

/** Sets in an order where every principal comes before its dependents; links against that order are deferred. */
function insertionOrder(compiled: CompiledMapping): { order: SetPlan[]; deferred: Set<LinkPlan> } {
  const plans = [...compiled.sets.values()];
  const dependsOn = new Map<SetPlan, Set<SetPlan>>(plans.map((plan) => [plan, new Set()]));
  const links: LinkPlan[] = [];
  for (const plan of plans) {
    for (const property of plan.entitySet.entityType.navigationProperties) {
      const link = compiled.link(plan.entitySet, property);
      if (link.holder !== 'source') continue;
      links.push(link);
      dependsOn.get(plan)?.add(link.target);
    }
  }
  const order: SetPlan[] = [];
  const placed = new Set<SetPlan>();
  const visiting = new Set<SetPlan>();
  const visit = (plan: SetPlan): void => {
    if (placed.has(plan) || visiting.has(plan)) return;
    visiting.add(plan);
    for (const principal of dependsOn.get(plan) ?? []) visit(principal);
    visiting.delete(plan);
    placed.add(plan);
    order.push(plan);
  };
  for (const plan of plans) visit(plan);
  const position = new Map(order.map((plan, index) => [plan, index]));
  // A link to a set not placed before its holder (a cycle, a self-association) is set afterwards.
  const deferred = new Set(links.filter((link) => (position.get(link.target) ?? 0) >= (position.get(link.source) ?? 0)));
  return { order, deferred };
}

/**
 * Insert `data` (MemoryProvider's format) into the tables of `mapping`, in one transaction. Throws
 * SqlSeedError listing every problem of the data, as MemoryProvider would; database errors (a row
 * that exists already) pass through.
 */
export async function seed(db: SqlDatabase, model: EdmModel, mapping: SqlMappingOverrides, data: MemoryData, options: SeedOptions = {}): Promise<void> {
  const compiled = compileMapping(model, resolveMapping(model, mapping));
  let loaded: CollectedEntityData;
  try {
    loaded = collectEntityData(model, data, { links: options.links });
  } catch (error) {
    // The kit's MEMORY_DATA_INVALID lists every problem after its first line.
    if (isODataError(error)) throw new SqlSeedError(error.message.replace(/^[^\n]*\n/, ''), { cause: error });
    throw error;
  }
  const { order, deferred } = insertionOrder(compiled);
  const engine = db.sqlEngine;

  // Foreign-key values by holder set and row key, from the link pairs of every association set.
  const foreignKeys = new Map<SetPlan, Map<string, Map<string, Sql>>>();
  const joinRows: { link: LinkPlan; rows: RowValues[] }[] = [];
  for (const associationSet of model.defaultContainer.associationSets) {
    const pairs = linkPairs(compiled, associationSet, loaded);
    const [first] = associationSet.ends;
    const property = [...first.entitySet.entityType.navigationProperties, ...associationSet.ends[1].entitySet.entityType.navigationProperties].find(
      (candidate) => candidate.relationship === associationSet.association,
    );
    if (property === undefined || pairs.length === 0) continue;
    const fromFirst = property.fromEnd.role === first.role;
    const link = compiled.link(fromFirst ? first.entitySet : associationSet.ends[1].entitySet, property);
    // Orient each pair as (link source key, link target key).
    const oriented = pairs.map(([a, b]) => (fromFirst ? [a, b] : [b, a]));
    if (link.via !== undefined) {
      const via = link.via;
      joinRows.push({
        link,
        rows: oriented.map(
          ([source, target]) =>
            new Map<string, Sql>([
              ...via.sourceColumns.map((column, i): [string, Sql] => [column, engine.values.parameter(link.types[i], source[i])]),
              ...via.targetColumns.map((column, i): [string, Sql] => [column, engine.values.parameter(link.targetTypes[i], target[i])]),
            ]),
        ),
      });
      continue;
    }
    // The holder's row gets the other row's key in its foreign-key columns.
    const [holder, other, columns] = link.holder === 'source' ? [link.source, link.target, link.sourceColumns] : [link.target, link.source, link.targetColumns];
    const byRow = foreignKeys.get(holder) ?? new Map<string, Map<string, Sql>>();
    foreignKeys.set(holder, byRow);
    for (const [source, target] of oriented) {
      const [holderKey, otherKey] = link.holder === 'source' ? [source, target] : [target, source];
      const values = byRow.get(JSON.stringify(holderKey)) ?? new Map<string, Sql>();
      columns.forEach((column, i) => values.set(column, engine.values.parameter(other.key[i].type ?? 'Edm.String', otherKey[i])));
      byRow.set(JSON.stringify(holderKey), values);
    }
  }
  const deferredColumns = new Map<SetPlan, Set<string>>();
  for (const link of deferred) {
    const columns = deferredColumns.get(link.source) ?? new Set<string>();
    for (const column of link.sourceColumns) if (!link.source.columns.some((candidate) => candidate.column === column)) columns.add(column);
    deferredColumns.set(link.source, columns);
  }

  await db.kysely.transaction().execute(async (trx: SqlKysely) => {
    const updates: { plan: SetPlan; rows: RowValues[] }[] = [];
    for (const plan of order) {
      const rows: RowValues[] = [];
      const later: RowValues[] = [];
      const late = deferredColumns.get(plan) ?? new Set<string>();
      for (const entity of loaded.entities.get(plan.entitySet)?.values() ?? []) {
        const row = rowParameters(plan, entity, entityTypeOf(entity, plan.entitySet), engine);
        const key = JSON.stringify(keyValues(plan, entity));
        const update = new Map<string, Sql>();
        for (const [column, value] of foreignKeys.get(plan)?.get(key) ?? []) {
          // A shared column (a ReferentialConstraint property) already holds the value.
          if (row.has(column)) continue;
          if (late.has(column)) update.set(column, value);
          else row.set(column, value);
        }
        rows.push(row);
        if (update.size > 0) later.push(new Map([...plan.key.map((column): [string, Sql] => [column.column, row.get(column.column) ?? sql`null`]), ...update]));
      }
      await insertRows(trx, plan.table, rows);
      const [key] = plan.key;
      if (plan.key.length === 1 && key.type !== undefined && INTEGER_KEYS.has(key.type) && rows.length > 0) {
        // Rows came with their keys: an identity must continue after them.
        const quoted = [plan.tableName.schema, plan.tableName.table]
          .filter((part): part is string => part !== undefined)
          .map((part) => engine.ddl.quoteIdentifier(part))
          .join('.');
        await engine.ddl.advanceGeneratedKey(plan.table, quoted, key.column)?.execute(trx);
      }
      if (later.length > 0) updates.push({ plan, rows: later });
    }
    for (const { plan, rows } of updates)
      await updateRows(
        trx,
        plan.table,
        plan.key.map((column) => column.column),
        rows,
      );
    for (const { link, rows } of joinRows) await insertRows(trx, link.via?.table ?? sql``, rows);
  });
}
