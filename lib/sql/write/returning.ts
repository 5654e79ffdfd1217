/**
 * The parts every write statement shares: the row a data-modifying statement returns, decoded as
 * a read decodes it (`with t as (update ... returning *) select <projection> from t`, so the
 * written row comes back from the same statement), which properties the client sent, and the
 * 404-or-412 decision after a keyed write changed no row.
 */
import { sql } from 'kysely';
import type { EdmEntitySet } from '../../edm/model';
import type { ODataError } from '../../errors';
import { conditionalWriteError } from '../../provider/precondition';
import { writtenProperties } from '../../provider/sent';
import type { CreateRequest } from '../../provider/types';
import type { EntityKey } from '../../uri/types';
import type { Sql } from '../dialect';
import type { SetPlan } from '../mapping/compiled';
import { Aliases } from '../read/joins';
import { Projection, type DecodedRow } from '../read/projection';
import { columnsMatch, keyTypes, keyValues, type WriteScope } from './links';

/** Run a data-modifying statement that ends in `returning *` and decode the rows it wrote. */
export async function writeReturning(scope: WriteScope, plan: SetPlan, statement: Sql): Promise<DecodedRow[]> {
  const projection = Projection.of(plan, 't', { select: undefined }, new Aliases(), 'c', scope.dialect);
  const joins = sql.join(projection.joins, sql` `);
  const result = await sql<
    Record<string, unknown>
  >`with ${sql.id('t')} as (${statement}) select ${sql.join(projection.columns)} from ${sql.id('t')} ${joins}`.execute(scope.executor);
  return result.rows.map((row) => projection.decode(row));
}

/**
 * The properties a create stores (the kit's `writtenProperties`: sent, or with a model DefaultValue);
 * the others are left to the column defaults. The one place that reads it.
 */
export function sentOf(request: CreateRequest): ReadonlySet<string> | undefined {
  return writtenProperties(request);
}

/** 404 ENTITY_NOT_FOUND for a key of a set. */
export function entityNotFound(entitySet: EdmEntitySet, key: EntityKey): ODataError {
  return conditionalWriteError(entitySet, key, false);
}

/**
 * A keyed write that carried the precondition in its WHERE changed nothing: 404 when the entity
 * does not exist, else 412 (the precondition failed), decided in the same transaction.
 */
export async function missingOrStale(scope: WriteScope, plan: SetPlan, key: EntityKey, hadPrecondition: boolean): Promise<ODataError> {
  if (!hadPrecondition) return entityNotFound(plan.entitySet, key);
  const match = columnsMatch(
    plan.key.map((column) => column.column),
    keyTypes(plan),
    keyValues(plan, key),
    scope.dialect,
  );
  const result = await sql<{ found: unknown }>`select exists (select 1 from ${plan.table} where ${match}) as ${sql.id('found')}`.execute(scope.executor);
  return conditionalWriteError(plan.entitySet, key, result.rows[0]?.found === true);
}
