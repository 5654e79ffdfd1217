/**
 * Concurrency tokens the database keeps (`ConcurrencyMode="Fixed"` integers and timestamps, see
 * the engine's `tokens.concurrencyToken`): the SET items that move them, for every statement that
 * changes an entity's row. A link kept as a foreign-key column on a row is part of that row: a
 * `$links` write or a binding that sets or clears it bumps the row's tokens in the same UPDATE,
 * so a client holding the old ETag gets 412 instead of writing over the new link. Join-table rows
 * belong to no entity: adding or removing one moves no token (as MemoryProvider, whose links are
 * never part of an entity's values).
 */
import { sql } from 'kysely';
import type { Sql } from '../dialect';
import type { SqlEngine } from '../engine';
import type { SetPlan } from '../mapping/compiled';

/** Column to new value for each token of the set's type the database maintains; the current value read at `alias` (or unqualified). */
export function tokenBumps(plan: SetPlan, dialect: SqlEngine, alias?: string): Map<string, Sql> {
  const sets = new Map<string, Sql>();
  for (const property of plan.entitySet.entityType.concurrencyProperties) {
    const column = plan.byPath.get(property.name);
    if (column?.type === undefined) continue;
    const next = dialect.tokens.concurrencyToken(column.type, alias === undefined ? sql.id(column.column) : sql.id(alias, column.column));
    if (next !== undefined) sets.set(column.column, next);
  }
  return sets;
}
