/**
 * Links as rows: setting or clearing a foreign key (on the source's row or on the target's) or
 * inserting and deleting join-table rows, one statement per step and never a read-modify-write
 * across statements. A single-valued end keeps one partner: linking it elsewhere first unlinks
 * the old partner, in the database. Required ends are the schema's (`NOT NULL` foreign keys): a
 * statement that would leave one empty fails, and the provider maps that to a 4xx.
 */
import { sql } from 'kysely';
import type { PrimitiveValue } from '../../edm/primitives';
import type { EntityKey } from '../../uri/types';
import type { SqlKysely } from '../database';
import type { Sql } from '../dialect';
import type { SqlEngine } from '../engine';
import { SQLSTATE, sqlStateOf } from '../errors';
import type { CompiledMapping, LinkPlan, SetPlan } from '../mapping/compiled';
import type { EdmPrimitiveTypeName } from '../../edm/primitives';
import type { RequiredLinks } from './required-links';
import { tokenBumps } from './tokens';

/** What a write statement runs on. */
export interface WriteScope {
  readonly executor: SqlKysely;
  readonly compiled: CompiledMapping;
  readonly dialect: SqlEngine;
  /** The transaction's entities whose required join-table links are counted before COMMIT. */
  readonly required: RequiredLinks;
  /**
   * The request runs as a database session, whose row-level security may hide rows or refuse
   * writes: a write that changes no row asks whether the row is visible (403 or 404).
   */
  readonly rowSecurity: boolean;
}

/** The key values of `key` in the order of `plan`'s key columns. */
export function keyValues(plan: SetPlan, key: EntityKey): PrimitiveValue[] {
  return plan.key.map((column) => key[column.property.name]);
}

/** `"c1" = $1 and "c2" = $2` (columns qualified by `alias` when given). */
export function columnsMatch(
  columns: readonly string[],
  types: readonly EdmPrimitiveTypeName[],
  values: readonly PrimitiveValue[],
  dialect: SqlEngine,
  alias?: string,
): Sql {
  return sql.join(
    columns.map((column, i) => sql`${alias === undefined ? sql.id(column) : sql.id(alias, column)} = ${dialect.values.parameter(types[i], values[i])}`),
    sql` and `,
  );
}

/**
 * `"c1" = $1, "c2" = $2` for SET, or `"c1" = null, ...` to clear, on a row of `holder`: a foreign
 * key is part of its row, so the row's concurrency tokens move in the same statement (tokens.ts).
 */
function assignments(
  holder: SetPlan,
  columns: readonly string[],
  types: readonly EdmPrimitiveTypeName[],
  values: readonly PrimitiveValue[] | undefined,
  dialect: SqlEngine,
): Sql {
  const items = columns.map((column, i) => sql`${sql.id(column)} = ${values === undefined ? sql`null` : dialect.values.parameter(types[i], values[i])}`);
  for (const [column, next] of tokenBumps(holder, dialect)) items.push(sql`${sql.id(column)} = ${next}`);
  return sql.join(items);
}

/** The key types of a set, in key order. */
export function keyTypes(plan: SetPlan): EdmPrimitiveTypeName[] {
  return plan.key.map((column) => column.type ?? 'Edm.String');
}

/** How a link write ended: done, or which row to change was not there. */
export type LinkOutcome = 'done' | 'source-missing' | 'target-missing';

async function affected(statement: Sql, executor: SqlKysely): Promise<number> {
  const result = await statement.execute(executor);
  return Number(result.numAffectedRows ?? 0n);
}

/** A key of `plan` from the columns `k0`, `k1`... (or `prefix0`...) of a result row. */
function keyFrom(plan: SetPlan, row: Readonly<Record<string, unknown>>, prefix: string, dialect: SqlEngine): EntityKey {
  const key: Record<string, PrimitiveValue> = {};
  plan.key.forEach((column, i) => {
    key[column.property.name] = dialect.values.fromValue(column.type ?? 'Edm.String', row[`${prefix}${i}`]) as PrimitiveValue;
  });
  return key;
}

/**
 * Delete join rows of `link` matching `where`; the entities on both sides of each row lost a link,
 * so their required ends are counted before COMMIT. The number of rows deleted.
 */
async function deleteJoinRows(scope: WriteScope, link: LinkPlan, where: Sql): Promise<number> {
  const via = link.via;
  if (via === undefined) throw new TypeError('A join-table link without its join table.');
  const returned = sql.join([
    ...via.sourceColumns.map((column, i) => sql`${sql.id(column)} as ${sql.id(`s${i}`)}`),
    ...via.targetColumns.map((column, i) => sql`${sql.id(column)} as ${sql.id(`t${i}`)}`),
  ]);
  const result = await sql<Record<string, unknown>>`delete from ${via.table} where ${where} returning ${returned}`.execute(scope.executor);
  for (const row of result.rows) {
    scope.required.touch(link.source.entitySet, keyFrom(link.source, row, 's', scope.dialect));
    scope.required.touch(link.target.entitySet, keyFrom(link.target, row, 't', scope.dialect));
  }
  return result.rows.length;
}

/**
 * Link the existing entry `source` (of `link.source`) to the existing `target` over the link's
 * navigation property. A foreign key that points to nothing is reported as 'target-missing'
 * (the database's foreign-key check, in the same statement).
 */
export async function addLink(scope: WriteScope, link: LinkPlan, source: EntityKey, target: EntityKey): Promise<LinkOutcome> {
  const { executor, dialect } = scope;
  const sourceKey = keyValues(link.source, source);
  const targetKey = keyValues(link.target, target);
  const sourceTypes = keyTypes(link.source);
  const targetTypes = keyTypes(link.target);
  try {
    if (link.holder === 'source') {
      const changed = await affected(
        sql`update ${link.source.table} set ${assignments(link.source, link.sourceColumns, link.types, targetKey, dialect)} where ${columnsMatch(
          link.source.key.map((c) => c.column),
          sourceTypes,
          sourceKey,
          dialect,
        )}`,
        executor,
      );
      return changed === 0 ? 'source-missing' : 'done';
    }
    if (link.holder === 'target') {
      const targetMatch = columnsMatch(
        link.target.key.map((c) => c.column),
        targetTypes,
        targetKey,
        dialect,
      );
      if (!link.property.isCollection) {
        // A single-valued end: the source's previous partner lets go first.
        await sql`update ${link.target.table} set ${assignments(link.target, link.targetColumns, link.types, undefined, dialect)} where ${columnsMatch(link.targetColumns, link.types, sourceKey, dialect)} and not (${targetMatch})`.execute(
          executor,
        );
      }
      const changed = await affected(
        sql`update ${link.target.table} set ${assignments(link.target, link.targetColumns, link.types, sourceKey, dialect)} where ${targetMatch}`,
        executor,
      );
      return changed === 0 ? 'target-missing' : 'done';
    }
    const via = link.via;
    if (via === undefined) throw new TypeError('A join-table link without its join table.');
    // Single-valued ends keep one partner: on the source's side, and on the target's side.
    if (!link.property.isCollection) await deleteJoinRows(scope, link, columnsMatch(via.sourceColumns, sourceTypes, sourceKey, dialect));
    if (link.property.fromEnd.multiplicity !== '*') await deleteJoinRows(scope, link, columnsMatch(via.targetColumns, targetTypes, targetKey, dialect));
    const columns = [...via.sourceColumns, ...via.targetColumns].map((column) => sql.id(column));
    const values = [
      ...sourceKey.map((value, i) => dialect.values.parameter(sourceTypes[i], value)),
      ...targetKey.map((value, i) => dialect.values.parameter(targetTypes[i], value)),
    ];
    await sql`insert into ${via.table} (${sql.join(columns)}) values (${sql.join(values)}) on conflict do nothing`.execute(executor);
    return 'done';
  } catch (error) {
    // The foreign key of the changed row (or join row) names no existing target.
    if (sqlStateOf(error) === SQLSTATE.foreignKeyViolation) return 'target-missing';
    throw error;
  }
}

/**
 * Remove the link from `source` to `target` (or every link of a single-valued property when no
 * target is given); the number of links removed. A required end fails with the database's
 * NOT NULL violation, or (in a join table) the count before COMMIT.
 */
export async function removeLink(scope: WriteScope, link: LinkPlan, source: EntityKey, target: EntityKey | undefined): Promise<number> {
  const { executor, dialect } = scope;
  const sourceKey = keyValues(link.source, source);
  const sourceTypes = keyTypes(link.source);
  const targetKey = target === undefined ? undefined : keyValues(link.target, target);
  const targetTypes = keyTypes(link.target);
  if (link.holder === 'source') {
    const linkedTo =
      targetKey === undefined
        ? sql`${sql.join(
            link.sourceColumns.map((column) => sql`${sql.id(column)} is not null`),
            sql` and `,
          )}`
        : columnsMatch(link.sourceColumns, link.types, targetKey, dialect);
    return affected(
      sql`update ${link.source.table} set ${assignments(link.source, link.sourceColumns, link.types, undefined, dialect)} where ${columnsMatch(
        link.source.key.map((c) => c.column),
        sourceTypes,
        sourceKey,
        dialect,
      )} and ${linkedTo}`,
      executor,
    );
  }
  if (link.holder === 'target') {
    const which =
      targetKey === undefined
        ? sql``
        : sql` and ${columnsMatch(
            link.target.key.map((c) => c.column),
            targetTypes,
            targetKey,
            dialect,
          )}`;
    return affected(
      sql`update ${link.target.table} set ${assignments(link.target, link.targetColumns, link.types, undefined, dialect)} where ${columnsMatch(link.targetColumns, link.types, sourceKey, dialect)}${which}`,
      executor,
    );
  }
  const via = link.via;
  if (via === undefined) throw new TypeError('A join-table link without its join table.');
  const which = targetKey === undefined ? sql`` : sql` and ${columnsMatch(via.targetColumns, targetTypes, targetKey, dialect)}`;
  return deleteJoinRows(scope, link, sql`${columnsMatch(via.sourceColumns, sourceTypes, sourceKey, dialect)}${which}`);
}
