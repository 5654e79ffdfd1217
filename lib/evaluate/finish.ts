/**
 * The service's side of the pushdown split: a provider's QueryResult that says (`applied`) it did
 * only part of a QueryRequest is finished here with the shared evaluator, step by step in protocol
 * order, so the answer equals the one of a provider that did everything. In `orderBy` order the
 * entities stream through (a page stops reading after its last entity; a count reads them all but
 * keeps only the page); without it they are held in memory to be sorted.
 */
import type { Entity, QueryApplied, QueryRequest, QueryResult } from '../provider/types';
import { isReadonlyArray } from '../util';
import { compileFilter } from './compile';
import { applyQuery, compilePositionFilter, compileSkipTokenFilter, entityPosition } from './query';
import type { EvaluationAccess } from './runtime';

/** The steps of `request` that `applied` leaves to the service. */
interface Remaining {
  readonly keep: ((entity: Entity) => boolean) | undefined;
  readonly after: ((entity: Entity) => boolean) | undefined;
  readonly sort: boolean;
  readonly skip: number;
  /** Where the page ends (exclusive), after the skip; undefined for no `top`. */
  readonly end: number | undefined;
  readonly count: boolean;
}

function contractError(why: string): TypeError {
  return new TypeError(`The provider's QueryResult.applied is inconsistent: ${why}.`);
}

/**
 * The skiptoken as a predicate on entities: on the provider's positions when it ordered them and
 * says where each stands (exact at its precision: a timestamp finer than milliseconds), else on
 * the entity's own values.
 */
function afterSkipToken(request: QueryRequest, result: QueryResult, applied: QueryApplied, access: EvaluationAccess) {
  const { orderBy, skipToken } = request;
  if (skipToken === undefined) return undefined;
  const onEntity = compileSkipTokenFilter(orderBy, skipToken, access);
  const positionOf = result.positionOf;
  if (!applied.orderBy || positionOf === undefined) return onEntity;
  const onPosition = compilePositionFilter(orderBy, skipToken);
  return (entity: Entity): boolean => {
    const position = positionOf(entity);
    return position === undefined ? onEntity(entity) : onPosition(position);
  };
}

/** What is left, after checking that `applied` describes a prefix of the request's steps. */
function remaining(request: QueryRequest, result: QueryResult, applied: QueryApplied, access: EvaluationAccess): Remaining {
  const sort = !applied.orderBy && request.orderBy.length > 0;
  const seek = !applied.skipToken && request.skipToken !== undefined;
  const paged = !applied.skipTop && (request.skip !== undefined || request.top !== undefined);
  const count = request.count && result.count === undefined;
  if (applied.skipTop && (applied.residual !== undefined || sort || seek))
    throw contractError('skip and top applied before the whole filter, order and skiptoken');
  if (result.count !== undefined && applied.residual !== undefined) throw contractError('a count returned with a residual filter (the service counts)');
  if (count && ((applied.skipToken && request.skipToken !== undefined) || (applied.skipTop && (request.skip !== undefined || request.top !== undefined))))
    throw contractError('the service must count, but the skiptoken or skip/top was applied');
  const skip = paged ? Math.max(0, request.skip ?? 0) : 0;
  return {
    keep: applied.residual === undefined ? undefined : compileFilter(applied.residual, access),
    after: seek ? afterSkipToken(request, result, applied, access) : undefined,
    sort,
    skip,
    end: paged && request.top !== undefined ? skip + Math.max(0, request.top) : undefined,
    count,
  };
}

async function toArray(entities: readonly Entity[] | AsyncIterable<Entity>, keep: ((entity: Entity) => boolean) | undefined): Promise<Entity[]> {
  const list: Entity[] = [];
  if (isReadonlyArray(entities)) return keep === undefined ? entities.slice() : entities.filter(keep);
  for await (const entity of entities) if (keep === undefined || keep(entity)) list.push(entity);
  return list;
}

/** Ordered input, a count wanted: every entity is read, only the page is kept. */
async function countAndPage(entities: readonly Entity[] | AsyncIterable<Entity>, steps: Remaining): Promise<{ entities: Entity[]; count: number }> {
  const page: Entity[] = [];
  let count = 0;
  let position = 0;
  const visit = (entity: Entity): void => {
    if (steps.keep !== undefined && !steps.keep(entity)) return;
    count++;
    if (steps.after !== undefined && !steps.after(entity)) return;
    if (position >= steps.skip && (steps.end === undefined || position < steps.end)) page.push(entity);
    position++;
  };
  if (isReadonlyArray(entities)) entities.forEach(visit);
  else for await (const entity of entities) visit(entity);
  return { entities: page, count };
}

/** Ordered input, no count: the page streams, and reading stops after its last entity. */
async function* pageOf(entities: AsyncIterable<Entity>, steps: Remaining): AsyncGenerator<Entity> {
  let position = 0;
  if (steps.end !== undefined && steps.end <= steps.skip) return;
  for await (const entity of entities) {
    if (steps.keep !== undefined && !steps.keep(entity)) continue;
    if (steps.after !== undefined && !steps.after(entity)) continue;
    if (position++ < steps.skip) continue;
    yield entity;
    if (steps.end !== undefined && position >= steps.end) return;
  }
}

/**
 * A QueryResult with every step of `request` applied: the provider's own when it has no `applied`
 * (it did everything), else finished as `applied` says (see QueryApplied). The service calls it on
 * every provider's answer; a provider may call it itself, to finish its own partial answer before
 * it works on the page (SqlProvider then reads `$expand` for the page's entities only), with
 * `access` telling how the evaluator reaches related entities and types that are not on the
 * entities. A provider that describes an impossible order of steps (skip and top before the
 * residual) is a provider bug: a TypeError (logged, answered 500), never a silently wrong page.
 * The result's `positionOf` is the provider's where it ordered (its positions also decide what
 * comes after the skiptoken), else, with `access`, the evaluator's from the entities.
 */
export async function finishQuery(request: QueryRequest, result: QueryResult, access?: EvaluationAccess): Promise<QueryResult> {
  const applied = result.applied;
  if (applied === undefined) return result;
  const steps = remaining(request, result, applied, access);
  const given = result.count;
  if (steps.sort) {
    const all = await toArray(result.entities, steps.keep);
    const rest = applyQuery(
      all,
      {
        filter: undefined,
        orderBy: request.orderBy,
        skipToken: steps.after === undefined ? undefined : request.skipToken,
        skip: steps.skip,
        top: steps.end === undefined ? undefined : steps.end - steps.skip,
        count: steps.count,
      },
      access,
    );
    // Without `access` the service reads the positions from the entities itself, and says so when they lack what the order reads.
    const positionOf = access === undefined ? undefined : (entity: Entity) => entityPosition(request.orderBy, entity, request.entityType, access);
    return { entities: rest.entities, count: given ?? rest.count, positionOf };
  }
  const positionOf = result.positionOf;
  if (steps.count) return { ...(await countAndPage(result.entities, steps)), positionOf };
  if (steps.keep === undefined && steps.after === undefined && steps.skip === 0 && steps.end === undefined)
    return { entities: result.entities, count: given, positionOf };
  const entities = result.entities;
  if (isReadonlyArray(entities)) {
    const kept = entities.filter((entity) => (steps.keep === undefined || steps.keep(entity)) && (steps.after === undefined || steps.after(entity)));
    return { entities: kept.slice(steps.skip, steps.end), count: given, positionOf };
  }
  return { entities: pageOf(entities, steps), count: given, positionOf };
}
