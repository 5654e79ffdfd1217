/**
 * A resource path (`Categories(1)/Products`, `Products(1)/Category/Products(3)`) as the FROM clause
 * of a statement: the root set, then an inner join per navigation hop, with the keys as bound
 * conditions; the last hop's table is the statement's target. Navigation over a collection needs
 * a key before the next hop, so every table before the last holds at most one row: the joins never
 * multiply the target's rows. Also the one statement that tells which step of an empty path failed
 * (the kit's 404s, as MemoryProvider answers them).
 */
import { sql } from 'kysely';
import { isKeyedPath, pathNotFound, pathPrefixesThatMayFail } from '../../provider/not-found';
import type { EntityKey, EntityPath } from '../../uri/types';
import type { SqlKysely } from '../database';
import type { Sql } from '../dialect';
import type { SqlEngine } from '../engine';
import type { CompiledMapping, SetPlan } from '../mapping/compiled';
import { Aliases, linkJoin } from './joins';

/** The FROM clause of a path and its key conditions; the target's alias is `alias`. */
export interface PathSource {
  readonly from: Sql;
  readonly conditions: readonly Sql[];
  readonly plan: SetPlan;
  readonly alias: string;
}

/** `alias.key = $n` for every key property. */
export function keyConditions(plan: SetPlan, alias: string, key: EntityKey, engine: SqlEngine): Sql[] {
  return plan.key.map((column) => sql`${sql.id(alias, column.column)} = ${engine.values.parameter(column.type ?? 'Edm.String', key[column.property.name])}`);
}

/** The FROM clause of the first `hops` navigation steps of `path` (all of them by default). */
export function pathSource(
  compiled: CompiledMapping,
  path: EntityPath,
  engine: SqlEngine,
  aliases: Aliases,
  hops = path.navigation.length,
  alias = 't',
): PathSource {
  let plan = compiled.sets.get(path.root.entitySet) as SetPlan;
  let current = hops === 0 ? alias : aliases.take('p');
  const from: Sql[] = [sql`${plan.table} as ${sql.id(current)}`];
  const conditions: Sql[] = path.root.key === undefined ? [] : keyConditions(plan, current, path.root.key, engine);
  for (let i = 0; i < hops; i++) {
    const step = path.navigation[i];
    const link = compiled.link(plan.entitySet, step.property);
    const next = i === hops - 1 ? alias : aliases.take('p');
    from.push(linkJoin(link, current, next, 'join', aliases));
    plan = link.target;
    current = next;
    if (step.key !== undefined) conditions.push(...keyConditions(plan, current, step.key, engine));
  }
  return { from: sql.join(from, sql` `), conditions, plan, alias: current };
}

/** `where a and b`, or nothing. */
export function whereClause(conditions: readonly Sql[]): Sql {
  return conditions.length === 0 ? sql`` : sql`where ${sql.join(conditions, sql` and `)}`;
}

/**
 * After a read of `path` found nothing: throw the kit's 404 (`pathNotFound`) for the first prefix
 * of the path that does not exist, or return when the path exists and was only empty (or
 * filtered). One statement, whatever the path's length; none for a plain entity set.
 */
export async function verifyPath(executor: SqlKysely, compiled: CompiledMapping, path: EntityPath, engine: SqlEngine): Promise<void> {
  if (!isKeyedPath(path)) return;
  const prefixes = pathPrefixesThatMayFail(path);
  const checks = prefixes.map((hops, i) => {
    const source = pathSource(compiled, path, engine, new Aliases(), hops, 'x');
    return sql`exists (select 1 from ${source.from} ${whereClause(source.conditions)}) as ${sql.id(`e${i}`)}`;
  });
  const result = await sql<Record<string, unknown>>`select ${sql.join(checks)}`.execute(executor);
  const row = result.rows[0] ?? {};
  prefixes.forEach((hops, i) => {
    if (engine.values.fromValue('Edm.Boolean', row[`e${i}`]) !== true) throw pathNotFound(path, hops);
  });
}
