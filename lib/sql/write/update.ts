/**
 * Update, delete and media writes as one keyed statement each: the If-Match values in the WHERE,
 * the concurrency tokens bumped in the SET of the same statement, the new row RETURNED. A
 * statement that changes no row is a 404 or a 412, told apart inside the transaction. Links in an
 * update body follow: a foreign key the row holds is set in the same UPDATE, others by a statement
 * per link.
 */
import { sql } from 'kysely';
import { ODataError } from '../../errors';
import type { DeleteRequest, Entity, EntityReference, MediaContent, Precondition, UpdateRequest } from '../../provider/types';
import type { EntityKey } from '../../uri/types';
import type { Sql } from '../dialect';
import { encodeDynamicProperties } from '../dynamic';
import type { CompiledMapping, SetPlan } from '../mapping/compiled';
import type { DecodedRow } from '../read/projection';
import { columnParameter, derivesFrom } from '../rows';
import { entityKey } from '../../provider/keys';
import { writeMediaRow, type CreateScope } from './insert';
import { addLink, columnsMatch, keyTypes, keyValues, removeLink, type LinkOutcome } from './links';
import { preconditionCondition } from './precondition';
import { joinEndsOf, partnersOf } from './required-links';
import { tokenBumps } from './tokens';
import { missingOrStale, returningRow, writeReturning } from './returning';

/** `key = ... and <precondition>` over the row at `alias`. */
function keyedCondition(
  scope: CreateScope,
  plan: SetPlan,
  alias: string,
  key: EntityKey,
  precondition: Precondition | undefined,
  request: { readonly entitySet: SetPlan['entitySet'] },
): Sql {
  const match = columnsMatch(
    plan.key.map((column) => column.column),
    keyTypes(plan),
    keyValues(plan, key),
    scope.dialect,
    alias,
  );
  const condition = preconditionCondition(precondition, plan, alias, request.entitySet.entityType, scope.dialect);
  return condition === undefined ? match : sql`${match} and ${condition}`;
}

/** UPDATE the row with `sets` (or only its tokens), checked against the precondition; the new row. */
async function updateRow(
  scope: CreateScope,
  plan: SetPlan,
  key: EntityKey,
  precondition: Precondition | undefined,
  sets: Map<string, Sql>,
): Promise<DecodedRow> {
  const alias = 'u';
  for (const [column, next] of tokenBumps(plan, scope.dialect, alias)) sets.set(column, next);
  // Nothing to change still locks and returns the row (and checks the precondition): key = key.
  if (sets.size === 0) sets.set(plan.key[0].column, sql.id(alias, plan.key[0].column));
  const assignments = [...sets].map(([column, value]) => sql`${sql.id(column)} = ${value}`);
  const where = keyedCondition(scope, plan, alias, key, precondition, plan);
  const [row] = await writeReturning(
    scope,
    plan,
    sql`update ${plan.table} as ${sql.id(alias)} set ${sql.join(assignments)} where ${where} ${returningRow(plan, scope.dialect, alias)}`,
  );
  if (row === undefined) throw await missingOrStale(scope, plan, key, precondition, 'change');
  scope.seen(row);
  return row;
}

/** PUT (`replace`) or MERGE/PATCH (`merge`), then the body's links; returns the stored entry. */
export async function updateEntry(scope: CreateScope, request: UpdateRequest): Promise<Entity> {
  const { entitySet, entityType, key, values } = request;
  const plan = scope.compiled.sets.get(entitySet) as SetPlan;
  const sets = new Map<string, Sql>();
  for (const column of plan.columns) {
    const top = column.path.properties[0];
    // Keys, and what the database makes (identity and computed columns), are never assigned.
    if (top.isKey || column.generated === 'identity' || column.generated === 'computed' || !derivesFrom(entityType, column.path.declaringType)) continue;
    // A PUT's values hold every property it resets (the kit's replacedValues); the others keep theirs.
    if (!Object.prototype.hasOwnProperty.call(values, top.name)) continue;
    sets.set(column.column, columnParameter(column, values, entityType, scope.dialect));
  }
  if (plan.dynamic !== undefined) {
    const text = encodeDynamicProperties(values, entityType);
    const column = sql.id('u', plan.dynamic);
    if (request.mode === 'replace') sets.set(plan.dynamic, text === null ? sql`null` : scope.dialect.values.jsonParameter(text));
    else if (text !== null) sets.set(plan.dynamic, scope.dialect.writes.jsonMerge(column, scope.dialect.values.jsonParameter(text)));
  }
  // Links whose foreign key the row holds change in the same statement.
  const later: (() => Promise<void>)[] = [];
  for (const binding of request.bindings) {
    const link = scope.compiled.link(entitySet, binding.property);
    const [target] = binding.targets;
    if (link.holder === 'source' && !binding.property.isCollection) {
      link.sourceColumns.forEach((column, i) =>
        sets.set(column, target === undefined ? sql`null` : scope.dialect.values.parameter(link.types[i], keyValues(link.target, target.key)[i])),
      );
    } else if (binding.targets.length === 0) {
      if (!binding.property.isCollection) later.push(async () => void (await removeLink(scope, link, key, undefined)));
    } else {
      for (const each of binding.targets) {
        later.push(async () => {
          const outcome: LinkOutcome = await addLink(scope, link, key, each.key);
          if (outcome !== 'done')
            throw ODataError.fromCode('BODY_INVALID', {
              detail: `'${binding.property.name}' links to an entry of '${each.entitySet.name}' that does not exist.`,
            });
        });
      }
    }
  }
  const row = await updateRow(scope, plan, key, request.precondition, sets);
  for (const step of later) await step();
  return row.entity;
}

/**
 * True when `updateEntry` writes `request` with its UPDATE alone: every binding is a single-valued
 * link whose foreign key the row holds. (When the UPDATE changes no row, a read decides 404 or
 * 412; at READ COMMITTED it sees what a read in the same transaction would.)
 */
export function isOneStatementUpdate(compiled: CompiledMapping, request: UpdateRequest): boolean {
  return request.bindings.every((binding) => !binding.property.isCollection && compiled.link(request.entitySet, binding.property).holder === 'source');
}

/**
 * True when `deleteEntry` is its DELETE alone: no join-table end of the set cascades to partners
 * or leaves a partner that needs the link to be counted before COMMIT. (Foreign keys that cascade
 * or set null act inside the DELETE.)
 */
export function isOneStatementDelete(compiled: CompiledMapping, request: DeleteRequest): boolean {
  return joinEndsOf(compiled, request.entitySet).every((end) => !end.cascades && !end.requiredByPartner);
}

/**
 * Before an entity's join rows go (they cascade with it): its partners over a join-table end that
 * cascades are deleted first, with theirs; partners that need it (a `1` end) are counted before
 * COMMIT, which refuses the delete (409) when they are left without it.
 */
async function releaseJoinPartners(scope: CreateScope, plan: SetPlan, key: EntityKey): Promise<void> {
  for (const end of joinEndsOf(scope.compiled, plan.entitySet)) {
    if (!end.cascades && !end.requiredByPartner) continue;
    for (const partner of await partnersOf(scope.executor, end, key, scope.dialect)) {
      if (!end.cascades) scope.required.touch(end.partner.entitySet, partner);
      else {
        await releaseJoinPartners(scope, end.partner, partner);
        await sql`delete from ${end.partner.table} as ${sql.id('d')} where ${keyedCondition(scope, end.partner, 'd', partner, undefined, end.partner)}`.execute(
          scope.executor,
        );
      }
    }
  }
}

/** DELETE after the precondition; dependents cascade, are unlinked or refuse it (409) per the schema's foreign keys and join-table ends. */
export async function deleteEntry(scope: CreateScope, request: DeleteRequest): Promise<void> {
  const plan = scope.compiled.sets.get(request.entitySet) as SetPlan;
  await releaseJoinPartners(scope, plan, request.key);
  const where = keyedCondition(scope, plan, 'd', request.key, request.precondition, plan);
  const result = await sql`delete from ${plan.table} as ${sql.id('d')} where ${where}`.execute(scope.executor);
  if (Number(result.numAffectedRows ?? 0n) === 0) throw await missingOrStale(scope, plan, request.key, request.precondition, 'delete');
}

/** Replace the media resource after the precondition; the entry's tokens move with it. */
export async function writeMediaEntry(
  scope: CreateScope,
  reference: EntityReference,
  media: MediaContent,
  precondition: Precondition | undefined,
): Promise<Entity> {
  const plan = scope.compiled.sets.get(reference.entitySet) as SetPlan;
  if (plan.media === undefined)
    throw ODataError.fromCode('BAD_REQUEST', { detail: `${reference.entitySet.entityType.qualifiedName} is not a media link entry type (m:HasStream).` });
  const row = await updateRow(scope, plan, reference.key, precondition, new Map());
  await writeMediaRow(scope, plan, entityKey(plan.entitySet.entityType, row.entity), media);
  scope.seen({ ...row, contentType: media.contentType });
  return row.entity;
}
