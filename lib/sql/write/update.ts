/**
 * The plans of update, delete and media writes, one keyed statement each: the If-Match values in
 * the WHERE, the concurrency tokens bumped in the SET of the same statement, the new row
 * RETURNED. A statement that changes no row is a 404, 403 or 412, told apart by a step that reads
 * only then (returning.ts's planDecide).
 * Links in an update body follow: a foreign key the row holds is set in the same UPDATE, others
 * by a step per link.
 */
import { sql } from 'kysely';
import { ODataError } from '../../errors';
import { entityKey } from '../../provider/keys';
import type { DeleteRequest, Entity, EntityReference, MediaContent, Precondition, UpdateRequest } from '../../provider/types';
import type { EntityKey } from '../../uri/types';
import type { Sql } from '../dialect';
import { encodeDynamicProperties } from '../dynamic';
import type { SqlWriteTarget } from '../engine';
import type { SetPlan } from '../mapping/compiled';
import type { DecodedRow } from '../read/projection';
import { columnParameter, derivesFrom } from '../rows';
import { planMediaRow } from './insert';
import { columnsMatch, keyTypes, keyValues, planAddLink, planRemoveLink, type WriteScope } from './links';
import { changedRows, counted, fixedKey, keyOf, type PlanBuilder, type PlanContext, type StepRef, type WritePlan } from './plan';
import { preconditionCondition } from './precondition';
import { joinEndsOf, partnerKeys, partnersStatement, type JoinEnd } from './required-links';
import { tokenBumps } from './tokens';
import { planDecide, planReturning } from './returning';

/** The target of an UPDATE (`u`) or DELETE (`d`) of `plan`'s table, as the engine names it. */
function targetOf(context: PlanContext, plan: SetPlan, alias: 'u' | 'd'): SqlWriteTarget {
  return context.engine.writes.writeTarget(plan.table, plan.tableName.table, alias);
}

/** `key = ... and <precondition>` over the row at `alias`. */
function keyedCondition(context: PlanContext, plan: SetPlan, alias: string, key: EntityKey, precondition: Precondition | undefined): Sql {
  const match = columnsMatch(
    plan.key.map((column) => column.column),
    keyTypes(plan),
    keyValues(plan, key),
    context.engine,
    alias,
  );
  const condition = preconditionCondition(precondition, plan, alias, plan.entitySet.entityType, context.engine);
  return condition === undefined ? match : sql`${match} and ${condition}`;
}

/**
 * The step that UPDATEs the row with `sets` (or only its tokens), checked against the
 * precondition, and the step that decides why it changed no row; the result is the new row.
 */
function planUpdateRow(b: PlanBuilder, plan: SetPlan, key: EntityKey, precondition: Precondition | undefined, sets: Map<string, Sql>): StepRef<DecodedRow> {
  const { clause, qualifier } = targetOf(b, plan, 'u');
  for (const [column, next] of tokenBumps(plan, b.engine, qualifier)) sets.set(column, next);
  // Nothing to change still locks and returns the row (and checks the precondition): key = key.
  if (sets.size === 0) sets.set(plan.key[0].column, sql.id(qualifier, plan.key[0].column));
  const assignments = [...sets].map(([column, value]) => sql`${sql.id(column)} = ${value}`);
  const where = keyedCondition(b, plan, qualifier, key, precondition);
  const written = planReturning(b, plan, {
    action: 'update',
    takes: [],
    alias: qualifier,
    statement: (_, returning) => sql`update ${clause} set ${sql.join(assignments)} where ${where} ${returning}`,
    finish: (row, run) => {
      if (row !== undefined) run.seen(row);
      return row;
    },
  });
  return planDecide(b, plan, key, precondition, 'change', written);
}

/** The plan of a PUT (`replace`) or MERGE/PATCH (`merge`), then the body's links; answers the stored entry. */
export function planUpdate(b: PlanBuilder, request: UpdateRequest): WritePlan<Entity> {
  const { entitySet, entityType, key, values } = request;
  const { engine } = b;
  const plan = b.compiled.sets.get(entitySet) as SetPlan;
  const sets = new Map<string, Sql>();
  for (const column of plan.columns) {
    const top = column.path.properties[0];
    // Keys, and what the database makes (identity and computed columns), are never assigned.
    if (top.isKey || column.generated === 'identity' || column.generated === 'computed' || !derivesFrom(entityType, column.path.declaringType)) continue;
    // A PUT's values hold every property it resets (the kit's replacedValues); the others keep theirs.
    if (!Object.prototype.hasOwnProperty.call(values, top.name)) continue;
    sets.set(column.column, columnParameter(column, values, entityType, engine));
  }
  if (plan.dynamic !== undefined) {
    const text = encodeDynamicProperties(values, entityType);
    const column = sql.id(targetOf(b, plan, 'u').qualifier, plan.dynamic);
    if (request.mode === 'replace') sets.set(plan.dynamic, text === null ? sql`null` : engine.values.jsonParameter(text));
    else if (text !== null) sets.set(plan.dynamic, engine.writes.jsonMerge(column, engine.values.jsonParameter(text)));
  }
  // Links whose foreign key the row holds change in the same statement; the others are steps after it.
  const later: ((b: PlanBuilder) => void)[] = [];
  for (const binding of request.bindings) {
    const link = b.compiled.link(entitySet, binding.property);
    const [target] = binding.targets;
    if (link.holder === 'source' && !binding.property.isCollection) {
      link.sourceColumns.forEach((column, i) =>
        sets.set(column, target === undefined ? sql`null` : engine.values.parameter(link.types[i], keyValues(link.target, target.key)[i])),
      );
    } else if (binding.targets.length === 0) {
      if (!binding.property.isCollection) later.push(() => planRemoveLink(b, link, key, undefined));
    } else {
      for (const each of binding.targets) {
        later.push(() =>
          planAddLink(b, link, fixedKey(key), fixedKey(each.key), (outcome) => {
            if (outcome !== 'done')
              throw ODataError.fromCode('BODY_INVALID', {
                detail: `'${binding.property.name}' links to an entry of '${each.entitySet.name}' that does not exist.`,
              });
          }),
        );
      }
    }
  }
  const row = planUpdateRow(b, plan, key, request.precondition, sets);
  for (const step of later) step(b);
  return b.plan((results) => results.get(row).entity);
}

/** The join ends of `plan`'s set whose partners a delete releases: deleted with it (cascades), or counted before COMMIT (they need it). */
function releasedEnds(context: PlanContext, plan: SetPlan): JoinEnd[] {
  return joinEndsOf(context.compiled, plan.entitySet).filter((end) => end.cascades || end.requiredByPartner);
}

/**
 * What deleting one partner over a cascading join end runs: the partner's own released ends read
 * (their partners released the same way, before its join rows cascade away with it), then its row
 * deleted. Both the run and describePlan take the statements from here.
 */
function partnerRelease(
  context: PlanContext,
  end: JoinEnd,
  partner: EntityKey,
): { readonly reads: readonly (readonly [JoinEnd, Sql])[]; readonly deletion: Sql } {
  const reads = releasedEnds(context, end.partner).map((next) => [next, partnersStatement(next, partner, context.engine)] as const);
  const { clause, qualifier } = targetOf(context, end.partner, 'd');
  return { reads, deletion: sql`delete from ${clause} where ${keyedCondition(context, end.partner, qualifier, partner, undefined)}` };
}

/** One partner of a join end: counted before COMMIT, or (a cascading end) deleted with its own partners. */
async function releasePartner(scope: WriteScope, end: JoinEnd, partner: EntityKey): Promise<void> {
  if (!end.cascades) return scope.required.touch(end.partner.entitySet, partner);
  const { reads, deletion } = partnerRelease(scope, end, partner);
  for (const [next, read] of reads) {
    const { rows } = await sql<Record<string, unknown>>`${read}`.execute(scope.executor);
    for (const each of partnerKeys(next, rows, scope.engine)) await releasePartner(scope, next, each);
  }
  await deletion.execute(scope.executor);
}

/**
 * The steps that release the join partners of the entity `key` before its join rows go (they
 * cascade with it): one read per released end, then per partner read (how many is data) the
 * statements of `partnerRelease` (a cascading end) or a note for the count before COMMIT.
 */
function planReleasePartners(b: PlanBuilder, plan: SetPlan, key: EntityKey): void {
  for (const end of releasedEnds(b, plan)) {
    b.add({
      action: 'release join partners',
      target: end.partner.entitySet.name,
      takes: [],
      writes: end.cascades,
      needsTransaction: true,
      statement: () => partnersStatement(end, key, b.engine),
      finish: async ({ rows }, { scope }) => {
        for (const partner of partnerKeys(end, rows, scope.engine)) await releasePartner(scope, end, partner);
      },
      expands: end.cascades
        ? {
            per: `a partner over ${end.label}: its own cascading or required join partners read (each released the same way), then its row deleted`,
            statements: (row) => {
              const { reads, deletion } = partnerRelease(b, end, entityKey(end.partner.entitySet.entityType, row));
              return [...reads.map(([, read]) => read), deletion];
            },
          }
        : undefined,
    });
  }
}

/** The plan of a DELETE after the precondition; dependents cascade, are unlinked or refuse it (409) per the schema's foreign keys and join-table ends. */
export function planDelete(b: PlanBuilder, request: DeleteRequest): WritePlan<void> {
  const plan = b.compiled.sets.get(request.entitySet) as SetPlan;
  planReleasePartners(b, plan, request.key);
  const { clause, qualifier } = targetOf(b, plan, 'd');
  const where = keyedCondition(b, plan, qualifier, request.key, request.precondition);
  const statement = counted(b, sql`delete from ${clause} where ${where}`);
  const deleted = b.add<true | undefined>({
    action: 'delete',
    target: plan.entitySet.name,
    takes: [],
    writes: true,
    statement: () => statement,
    finish: (outcome) => (changedRows(outcome) === 0 ? undefined : true),
  });
  planDecide(b, plan, request.key, request.precondition, 'delete', deleted);
  return b.plan(() => undefined);
}

/** The plan that replaces the media resource after the precondition; the entry's tokens move with it. */
export function planMediaWrite(b: PlanBuilder, reference: EntityReference, media: MediaContent, precondition: Precondition | undefined): WritePlan<Entity> {
  const plan = b.compiled.sets.get(reference.entitySet) as SetPlan;
  if (plan.media === undefined)
    throw ODataError.fromCode('BAD_REQUEST', { detail: `${reference.entitySet.entityType.qualifiedName} is not a media link entry type (m:HasStream).` });
  const row = planUpdateRow(b, plan, reference.key, precondition, new Map());
  planMediaRow(b, plan, row, keyOf(row, plan.entitySet.entityType), media);
  return b.plan((results) => results.get(row).entity);
}
