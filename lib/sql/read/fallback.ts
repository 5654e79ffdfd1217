/**
 * The exact fallback for what the SQL translator refuses (a dynamic property, `mod` of doubles...):
 * the database still applies every translated `$filter` conjunct (the pushdown split), and the
 * shared evaluator applies the residual, with the to-one entities it navigates to read in one
 * statement per navigation property and chunk. When the order translates, the rows are read in
 * that order in keyset chunks (the `$skiptoken` as a keyset condition) and reading stops once the
 * page is full: only a count reads every row the translated part keeps, a chunk at a time. When it
 * does not, every such row is read and the evaluator sorts them. Never a wrong answer.
 */
import type { EdmEntityType } from '../../edm/model';
import { applyQuery, compileFilter, entityPosition, type EvaluationOptions } from '../../evaluate/evaluate';
import { navigationExpansion } from '../../provider/pushdown';
import type { Entity, QueryRequest } from '../../provider/types';
import type { ExpandItem, SkipTokenPosition } from '../../uri/types';
import { expandRows, type ExpandContext } from './expand';
import type { DecodedRow } from './projection';
import type { ReadStatement } from './statement';

type Related = WeakMap<Entity, Map<string, Entity | readonly Entity[] | null>>;

/** The parts of a request the fallback reads. */
type FallbackRequest = Pick<QueryRequest, 'orderBy' | 'skip' | 'top' | 'skipToken' | 'count'>;

/**
 * Read the related entities `tree` (the statement's `evaluatedNavigation`, or a part of it)
 * reaches from `rows` into `related`. Deeper levels attach to the related entities themselves; the
 * first level is kept aside, so navigation read for evaluation never shows up as an expansion in
 * the response.
 */
async function readNavigation(context: ExpandContext, statement: ReadStatement, rows: readonly DecodedRow[], tree: readonly ExpandItem[], related: Related) {
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

/**
 * Every row the translated conditions keep, then the evaluator (the order did not translate). The
 * positions are the evaluator's too: the order's values on each entity, at the precision it sorted by.
 */
async function readAll(statement: ReadStatement, request: FallbackRequest, context: ExpandContext, typeOf: (entity: Entity) => EdmEntityType | undefined) {
  const { rows } = await statement.read(context.executor, {});
  rows.forEach(context.seen);
  const related: Related = new WeakMap();
  await readNavigation(context, statement, rows, statement.evaluatedNavigation, related);
  const byEntity = new Map(rows.map((row) => [row.entity, row]));
  const options = evaluationOptions(related, typeOf);
  const result = applyQuery(
    rows.map((row) => row.entity),
    { filter: statement.residual, orderBy: request.orderBy, skip: request.skip, top: request.top, skipToken: request.skipToken, count: request.count },
    options,
  );
  const entityType = statement.plan.entitySet.entityType;
  const positionOf = (entity: Entity): SkipTokenPosition => entityPosition(request.orderBy, entity, entityType, options);
  return { rows: result.entities.map((entity) => byEntity.get(entity) as DecodedRow), count: result.count, positionOf };
}

/** What a chunked scan evaluates: the residual, with the navigation it reads fetched per chunk. */
interface Scan {
  readonly statement: ReadStatement;
  readonly context: ExpandContext;
  readonly related: Related;
  readonly keep: ((entity: Entity) => boolean) | undefined;
  /** The navigation the residual reads. */
  readonly navigation: readonly ExpandItem[];
}

/**
 * The rows the residual keeps, in the database's order after `from`, a keyset chunk at a time
 * (each read one row ahead: whether more follow), each with the driver's row it was decoded from;
 * `visit` returns false to stop. The first chunk holds `first` rows, each next one twice the last,
 * up to `largest`.
 */
async function scanChunks(
  scan: Scan,
  from: SkipTokenPosition | undefined,
  first: number,
  largest: number,
  visit: (row: DecodedRow, raw: Readonly<Record<string, unknown>>) => boolean,
): Promise<void> {
  const { statement, context, related } = scan;
  const residual = statement.residual;
  let position = from;
  let limit = first;
  for (;;) {
    const chunk = await statement.read(context.executor, { condition: position === undefined ? undefined : statement.seek(position), limit, probe: true });
    chunk.rows.forEach(context.seen);
    if (residual !== undefined) await readNavigation(context, statement, chunk.rows, scan.navigation, related);
    for (let i = 0; i < chunk.rows.length; i++) {
      const row = chunk.rows[i];
      if (scan.keep !== undefined && !scan.keep(row.entity)) continue;
      if (!visit(row, chunk.raws[i])) return;
    }
    if (chunk.more !== true || chunk.last === undefined) return;
    position = chunk.last;
    limit = Math.min(limit * 2, largest);
  }
}

/**
 * In the database's order, keyset chunks from the `$skiptoken` until the page is full (or, for a
 * count, to the end). The first chunk is the page's size (or `chunkSize` without `top`) and each
 * next one twice the last, up to the larger of the two: a selective residual costs a few
 * statements more, never one per row, and the number does not grow with the page size. The count
 * is taken before the skiptoken: with one, the count is a scan of its own from the start (whole
 * chunks), so positions are only ever compared by the database, at its own precision.
 */
async function readInChunks(
  statement: ReadStatement,
  request: FallbackRequest,
  context: ExpandContext,
  typeOf: (entity: Entity) => EdmEntityType | undefined,
  chunkSize: number,
) {
  const related: Related = new WeakMap();
  const residual = statement.residual;
  const scan: Scan = {
    statement,
    context,
    related,
    keep: residual === undefined ? undefined : compileFilter(residual, evaluationOptions(related, typeOf)),
    navigation: residual === undefined ? [] : navigationExpansion([residual], statement.plan.entitySet, statement.compiled.model),
  };
  const skip = Math.max(0, request.skip ?? 0);
  const end = request.top === undefined ? undefined : skip + Math.max(0, request.top);
  const largest = Math.max(end ?? 0, chunkSize);
  let before = 0;
  if (request.count && request.skipToken !== undefined) {
    await scanChunks(scan, undefined, largest, largest, () => {
      before++;
      return true;
    });
  }
  // Without a skiptoken, the page's own scan counts: it then reads to the end in whole chunks.
  const counting = request.count && request.skipToken === undefined;
  const page: DecodedRow[] = [];
  const raws: Readonly<Record<string, unknown>>[] = [];
  let passed = 0;
  if (counting || end !== 0) {
    await scanChunks(scan, request.skipToken, counting ? largest : Math.max(1, Math.min(end ?? chunkSize, largest)), largest, (row, raw) => {
      if (passed >= skip && (end === undefined || passed < end)) {
        page.push(row);
        raws.push(raw);
      }
      passed++;
      return counting || end === undefined || passed < end;
    });
  }
  return { rows: page, raws, count: !request.count ? undefined : counting ? passed : before };
}

/**
 * Answer a read the database could not do alone (see the module comment). Returns the page's rows
 * and the count when asked, and where each row stands in the request's order: in the database's
 * order the driver's rows the page was decoded from (their positions), in the evaluator's order
 * the evaluator's `positionOf`.
 */
export async function evaluateRead(
  statement: ReadStatement,
  request: FallbackRequest,
  context: ExpandContext,
  typeOf: (entity: Entity) => EdmEntityType | undefined,
  chunkSize: number,
): Promise<{
  rows: DecodedRow[];
  raws?: Readonly<Record<string, unknown>>[];
  positionOf?: (entity: Entity) => SkipTokenPosition;
  count: number | undefined;
}> {
  return statement.order !== undefined && statement.continuable
    ? readInChunks(statement, request, context, typeOf, chunkSize)
    : readAll(statement, request, context, typeOf);
}
