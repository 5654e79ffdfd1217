/**
 * Concurrency tokens the database keeps (`ConcurrencyMode="Fixed"` integers and timestamps, by the
 * provider kit's `tokenRule`; the engine writes the clock): the SET items that move them, for every statement that
 * changes an entity's row. A link kept as a foreign-key column on a row is part of that row: a
 * `$links` write or a binding that sets or clears it bumps the row's tokens in the same UPDATE,
 * so a client holding the old ETag gets 412 instead of writing over the new link. Join-table rows
 * belong to no entity: adding or removing one moves no token (as MemoryProvider, whose links are
 * never part of an entity's values).
 */
import { sql } from 'kysely';
import type { EdmPrimitiveTypeName } from '../../edm/primitives';
import { tokenRule } from '../../provider/tokens';
import type { Sql } from '../dialect';
import type { SqlEngine } from '../engine';
import type { SetPlan } from '../mapping/compiled';

/**
 * The value a token of `type` takes in the write's own statement, as the kit's rule says: a version
 * starts at `start` on insert (`current` undefined) and adds one, back to `start` past the type's
 * maximum; an instant is the engine's clock. Undefined for a type the database leaves alone.
 */
export function concurrencyTokenSql(engine: SqlEngine, type: EdmPrimitiveTypeName, current: Sql | undefined): Sql | undefined {
  const rule = tokenRule(type);
  if (rule === undefined) return undefined;
  if (rule.kind === 'instant') return engine.tokens.instantToken(type, current);
  const start = sql.lit(rule.start);
  if (current === undefined) return start;
  return sql`(case when ${current} is null or ${current} >= ${sql.raw(String(rule.max))} then ${start} else ${current} + 1 end)`;
}

/** Column to new value for each token of the set's type the database maintains; the current value read at `alias` (or unqualified). */
export function tokenBumps(plan: SetPlan, engine: SqlEngine, alias?: string): Map<string, Sql> {
  const sets = new Map<string, Sql>();
  for (const property of plan.entitySet.entityType.concurrencyProperties) {
    const column = plan.byPath.get(property.name);
    if (column?.type === undefined) continue;
    const next = concurrencyTokenSql(engine, column.type, alias === undefined ? sql.id(column.column) : sql.id(alias, column.column));
    if (next !== undefined) sets.set(column.column, next);
  }
  return sets;
}
