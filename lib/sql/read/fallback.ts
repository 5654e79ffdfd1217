/**
 * What the SQL translator refuses (a dynamic property, `mod` of doubles...), finished through the
 * kit's pushdown contract: the database applies every translated `$filter` conjunct (the statement's
 * `translateFilter` split) and this module describes the rest as `QueryResult.applied`, which the
 * kit's `finishQuery` applies with the shared evaluator, exactly as the service does for any
 * provider. SqlProvider calls `finishQuery` itself rather than leaving it to the service, because
 * it has work left on the finished page: `$expand` is read for the page's rows only, once, not for
 * every row the residual drops. The to-one entities the residual navigates to are read in one
 * statement per navigation property and chunk and reach the evaluator through `finishQuery`'s
 * `access`, so they never show up as expansions.
 *
 * When the order translates, the rows are read in that order in keyset chunks (the `$skiptoken`
 * as a keyset condition) and `finishQuery` stops reading once the page is full: only a count reads
 * every row the translated part keeps, a chunk at a time, from the start (the kit then applies the
 * skiptoken on the rows' positions, at the database's precision). When it does not, every such
 * row is read in one statement and the evaluator sorts them. Never a wrong answer.
 */
import type { EdmEntityType } from '../../edm/model';
import { entityPosition, finishQuery, type EvaluationOptions } from '../../evaluate/evaluate';
import { navigationExpansion } from '../../provider/pushdown';
import type { Entity, QueryApplied, QueryRequest, QueryResult } from '../../provider/types';
import type { ExpandItem, SkipTokenPosition } from '../../uri/types';
import { isReadonlyArray } from '../../util';
import { expandRows, type ExpandContext } from './expand';
import type { DecodedRow } from './projection';
import type { ReadStatement } from './statement';

type Related = WeakMap<Entity, Map<string, Entity | readonly Entity[] | null>>;

/** The row an entity was decoded from, and the driver's row (its position). */
type Origins = WeakMap<Entity, { readonly row: DecodedRow; readonly raw: Readonly<Record<string, unknown>> | undefined }>;

/**
 * Read the related entities `tree` reaches from `rows` into `related`. Deeper levels attach to the
 * related entities themselves; the first level is kept aside, so navigation read for evaluation
 * never shows up as an expansion in the response.
 */
async function readNavigation(context: ExpandContext, statement: ReadStatement, rows: readonly DecodedRow[], tree: readonly ExpandItem[], related: Related) {
  if (tree.length === 0) return;
  await expandRows(context, statement.plan, rows, tree, (parent, property, value) => {
    const map = related.get(parent) ?? new Map<string, Entity | readonly Entity[] | null>();
    map.set(property.name, value);
    related.set(parent, map);
  });
}

function evaluationOptions(related: Related, typeOf: (entity: Entity) => EdmEntityType | undefined): EvaluationOptions {
  return {
    navigate: (entity, property) => {
      const value = related.get(entity)?.get(property.name) ?? entity[property.name];
      return value === undefined || Array.isArray(value) ? null : (value as Entity | null);
    },
    typeOf,
  };
}

/** What a read of a statement needs. */
interface Reading {
  readonly statement: ReadStatement;
  readonly context: ExpandContext;
  readonly related: Related;
  readonly origins: Origins;
  /** How the evaluator reaches `related` and the rows' types. */
  readonly access: EvaluationOptions;
}

/** Every row the translated conditions keep, in one statement (the order did not translate, or rows have no positions). */
async function readAll(reading: Reading): Promise<Entity[]> {
  const { statement, context, related, origins } = reading;
  const { rows } = await statement.read(context.executor, {});
  rows.forEach(context.seen);
  for (const row of rows) origins.set(row.entity, { row, raw: undefined });
  await readNavigation(context, statement, rows, statement.evaluatedNavigation, related);
  return rows.map((row) => row.entity);
}

/**
 * The rows the translated conditions keep, in the database's order after `from`, a keyset chunk
 * at a time (each read one row ahead: whether more follow), with the navigation `tree` reads. The
 * first chunk holds `first` rows, each next one twice the last, up to `largest`. A chunk is read
 * only when the one before is used up: `finishQuery` stops asking after the page's last row.
 */
async function* readChunks(
  reading: Reading,
  tree: readonly ExpandItem[],
  from: SkipTokenPosition | undefined,
  first: number,
  largest: number,
): AsyncGenerator<Entity> {
  const { statement, context, related, origins } = reading;
  let position = from;
  let limit = first;
  for (;;) {
    const chunk = await statement.read(context.executor, { condition: position === undefined ? undefined : statement.seek(position), limit, probe: true });
    chunk.rows.forEach(context.seen);
    chunk.rows.forEach((row, i) => origins.set(row.entity, { row, raw: chunk.raws[i] }));
    await readNavigation(context, statement, chunk.rows, tree, related);
    for (const row of chunk.rows) yield row.entity;
    if (chunk.more !== true || chunk.last === undefined) return;
    position = chunk.last;
    limit = Math.min(limit * 2, largest);
  }
}

/**
 * The statement's part of the request as a QueryResult with `applied` (see the module comment).
 * In the database's order the first chunk is the page's size (`chunkSize` without `top`, the
 * larger of the two for a count) and each next one twice the last, up to the larger of the two: a
 * selective residual costs a few statements more, never one per row, and the number does not grow
 * with the page size.
 */
async function partialResult(reading: Reading, request: QueryRequest, chunkSize: number): Promise<QueryResult> {
  const { statement, origins } = reading;
  const residual = statement.residual;
  const positionOf = (entity: Entity): SkipTokenPosition | undefined => {
    const origin = origins.get(entity);
    return origin?.raw === undefined ? undefined : statement.positionOf(origin.raw, origin.row);
  };
  if (statement.order === undefined || !statement.continuable) {
    const applied: QueryApplied = { residual, orderBy: statement.order !== undefined, skipToken: request.skipToken === undefined, skipTop: false };
    // Rows without positions: each stands where its own values put it (the kit says the same when it sorts).
    const evaluated = (entity: Entity) => entityPosition(request.orderBy, entity, request.entityType, reading.access);
    return { entities: await readAll(reading), applied, positionOf: evaluated };
  }
  // A count reads from the start: the kit counts the rows before the skiptoken too.
  const seek = request.skipToken !== undefined && !request.count;
  const skip = Math.max(0, request.skip ?? 0);
  const end = request.top === undefined ? undefined : skip + Math.max(0, request.top);
  const largest = Math.max(end ?? 0, chunkSize);
  const first = request.count ? largest : Math.max(1, Math.min(end ?? chunkSize, largest));
  const tree = residual === undefined ? [] : navigationExpansion([residual], statement.plan.entitySet, statement.compiled.model);
  const entities = readChunks(reading, tree, seek ? request.skipToken : undefined, first, largest);
  return { entities, applied: { residual, orderBy: true, skipToken: seek || request.skipToken === undefined, skipTop: false }, positionOf };
}

/**
 * Answer a read the database could not do alone (see the module comment): the page's rows, the
 * count when asked, and where each row stands in the request's order (the driver's row in the
 * database's order, the evaluator's `entityPosition` in its own).
 */
export async function evaluateRead(
  statement: ReadStatement,
  request: QueryRequest,
  context: ExpandContext,
  typeOf: (entity: Entity) => EdmEntityType | undefined,
  chunkSize: number,
): Promise<{ rows: DecodedRow[]; count: number | undefined; positionOf: QueryResult['positionOf'] }> {
  const related: Related = new WeakMap();
  const reading: Reading = { statement, context, related, origins: new WeakMap(), access: evaluationOptions(related, typeOf) };
  const partial = await partialResult(reading, request, chunkSize);
  const finished = await finishQuery(request, partial, reading.access);
  const page: Entity[] = [];
  if (isReadonlyArray(finished.entities)) page.push(...finished.entities);
  else for await (const entity of finished.entities) page.push(entity);
  const rows = page.map((entity) => reading.origins.get(entity)?.row as DecodedRow);
  return { rows, count: finished.count, positionOf: finished.positionOf };
}
