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
import { applyQuery, compileFilter, compileSkipTokenFilter, type EvaluationOptions } from '../../evaluate/evaluate';
import { navigationExpansion } from '../../provider/pushdown';
import type { Entity, QueryRequest } from '../../provider/types';
import type { ExprNode } from '../../uri/expr/ast';
import type { SkipTokenPosition } from '../../uri/types';
import { expandRows, type ExpandContext } from './expand';
import type { DecodedRow } from './projection';
import type { ReadStatement } from './statement';

type Related = WeakMap<Entity, Map<string, Entity | readonly Entity[] | null>>;

/** The parts of a request the fallback reads. */
type FallbackRequest = Pick<QueryRequest, 'orderBy' | 'skip' | 'top' | 'skipToken' | 'count'>;

/**
 * Read the related entities `expressions` navigate to for `rows` into `related`. Deeper levels
 * attach to the related entities themselves; the first level is kept aside, so navigation read
 * for evaluation never shows up as an expansion in the response.
 */
async function readNavigation(
  context: ExpandContext,
  statement: ReadStatement,
  rows: readonly DecodedRow[],
  expressions: readonly ExprNode[],
  related: Related,
) {
  const tree = navigationExpansion(expressions, statement.plan.entitySet, statement.compiled.model);
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

/** Every row the translated conditions keep, then the evaluator (the order did not translate). */
async function readAll(statement: ReadStatement, request: FallbackRequest, context: ExpandContext, typeOf: (entity: Entity) => EdmEntityType | undefined) {
  const { rows } = await statement.read(context.executor, {});
  rows.forEach(context.seen);
  const related: Related = new WeakMap();
  const expressions = [...(statement.residual === undefined ? [] : [statement.residual]), ...request.orderBy.map((item) => item.expression)];
  await readNavigation(context, statement, rows, expressions, related);
  const byEntity = new Map(rows.map((row) => [row.entity, row]));
  const result = applyQuery(
    rows.map((row) => row.entity),
    { filter: statement.residual, orderBy: request.orderBy, skip: request.skip, top: request.top, skipToken: request.skipToken, count: request.count },
    evaluationOptions(related, typeOf),
  );
  return { rows: result.entities.map((entity) => byEntity.get(entity) as DecodedRow), count: result.count };
}

/**
 * In the database's order, keyset chunks until the page is full (or, for a count, to the end).
 * The first chunk is the page's size (or `chunkSize` without `top`) and each next one twice the
 * last, up to the larger of the two: a selective residual costs a few statements more, never one
 * per row, and the number does not grow with the page size.
 */
async function readInChunks(
  statement: ReadStatement,
  request: FallbackRequest,
  context: ExpandContext,
  typeOf: (entity: Entity) => EdmEntityType | undefined,
  chunkSize: number,
) {
  const related: Related = new WeakMap();
  const options = evaluationOptions(related, typeOf);
  const residual = statement.residual;
  const keep = residual === undefined ? undefined : compileFilter(residual, options);
  // The count is taken before the skiptoken: counting reads from the start and seeks in memory.
  const counting = request.count;
  const after = counting && request.skipToken !== undefined ? compileSkipTokenFilter(request.orderBy, request.skipToken, options) : undefined;
  const skip = Math.max(0, request.skip ?? 0);
  const end = request.top === undefined ? undefined : skip + Math.max(0, request.top);
  const largest = Math.max(end ?? 0, chunkSize);
  // A count reads every row anyway: whole chunks from the start.
  let limit = counting ? largest : Math.max(1, Math.min(end ?? chunkSize, largest));
  let position: SkipTokenPosition | undefined = counting ? undefined : request.skipToken;
  const page: DecodedRow[] = [];
  let count = 0;
  let passed = 0;
  if (end === 0 && !counting) return { rows: page, count: undefined };
  for (;;) {
    const chunk = await statement.read(context.executor, { after: position === undefined ? undefined : statement.seek(position), limit, probe: true });
    chunk.rows.forEach(context.seen);
    if (residual !== undefined) await readNavigation(context, statement, chunk.rows, [residual], related);
    for (const row of chunk.rows) {
      if (keep !== undefined && !keep(row.entity)) continue;
      count++;
      if (after !== undefined && !after(row.entity)) continue;
      if (passed >= skip && (end === undefined || passed < end)) page.push(row);
      passed++;
    }
    if ((!counting && end !== undefined && passed >= end) || chunk.more !== true || chunk.last === undefined) break;
    position = chunk.last;
    limit = Math.min(limit * 2, largest);
  }
  return { rows: page, count: counting ? count : undefined };
}

/**
 * Answer a read the database could not do alone (see the module comment). Returns the page's rows
 * and the count when asked.
 */
export async function evaluateRead(
  statement: ReadStatement,
  request: FallbackRequest,
  context: ExpandContext,
  typeOf: (entity: Entity) => EdmEntityType | undefined,
  chunkSize: number,
): Promise<{ rows: DecodedRow[]; count: number | undefined }> {
  return statement.order !== undefined && statement.continuable
    ? readInChunks(statement, request, context, typeOf, chunkSize)
    : readAll(statement, request, context, typeOf);
}
