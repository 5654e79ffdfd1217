/**
 * One read request from start to end: the page (or the first chunk of a large feed) and, in the
 * same snapshot, its count and expansions; a 404 when the path names nothing; the rest of a large
 * feed as an async iterable that reads keyset chunks while the response is written (memory stays
 * flat); and the evaluator's fallback for what SQL cannot do. Statements per request: one for the
 * page (with the count as a subquery of it), one per expanded navigation property and level, one
 * for the count only when a page that skipped rows is empty, one to tell which step of an empty
 * path is missing.
 */
import type { EdmEntityType } from '../../edm/model';
import type { CountRequest, Entity, QueryRequest, QueryResult } from '../../provider/types';
import { NO_SELECT_EXPAND } from '../../uri';
import type { SkipTokenPosition } from '../../uri/types';
import type { SqlDatabase, SqlKysely } from '../database';
import type { CompiledMapping } from '../mapping/compiled';
import type { AppliedSession } from '../session';
import { expandRows, type ExpandContext } from './expand';
import { evaluateRead } from './fallback';
import { verifyPath } from './path';
import type { DecodedRow } from './projection';
import { readOnce } from './once';
import { ReadScope } from './scope';
import { RowPositions } from './positions';
import { ReadStatement, countRows, countStatement, filterMayFail } from './statement';

/** What a read needs from the provider. */
export interface ReadSettings {
  readonly db: SqlDatabase;
  readonly compiled: CompiledMapping;
  readonly chunkSize: number;
  readonly streamSnapshot: boolean;
  readonly streamIdleTimeoutMs: number;
  /** Sees every row read (the provider remembers media types per entity). */
  readonly seen: (row: DecodedRow) => void;
  /** Database errors to OData errors (for chunks read after `query` returned). */
  readonly mapError: (error: unknown, request: QueryRequest) => unknown;
  /** Set inside a write transaction or changeset: every statement runs on it, nothing streams. */
  readonly transaction?: SqlKysely;
  /** `statement_timeout` of the reads' transactions (every read then runs in one). */
  readonly statementTimeoutMs?: number;
  /** The request's database session (every read then runs in a transaction that applies it first). */
  readonly session?: AppliedSession;
}

/** Where a read's statements run: the enclosing transaction, or a scope of its own. */
function openScope(settings: ReadSettings, snapshot: boolean): Promise<ReadScope> {
  return settings.transaction !== undefined ? Promise.resolve(ReadScope.within(settings.transaction)) : ReadScope.open(settings.db, snapshot, settings);
}

function expandContext(settings: ReadSettings, executor: SqlKysely): ExpandContext {
  return { compiled: settings.compiled, engine: settings.db.sqlEngine, executor, seen: settings.seen };
}

/**
 * The context of a read the evaluator finishes, with the entity type of every row it reads (for
 * `isof`). Only these reads remember types: a WeakMap entry per entity of every pushed-down read
 * cost several per cent of a feed's CPU, and made each garbage collection slower.
 */
function evaluatorContext(settings: ReadSettings, executor: SqlKysely): { context: ExpandContext; typeOf: (entity: Entity) => EdmEntityType | undefined } {
  const types = new WeakMap<Entity, EdmEntityType>();
  const seen = (row: DecodedRow): void => {
    types.set(row.entity, row.type);
    settings.seen(row);
  };
  return { context: { ...expandContext(settings, executor), seen }, typeOf: (entity) => types.get(entity) };
}

/** The rest of a streamed feed: keyset chunks after `position`, each expanded, until `remaining` entities. */
async function* moreChunks(
  settings: ReadSettings,
  scope: ReadScope,
  statement: ReadStatement,
  request: QueryRequest,
  first: DecodedRow[],
  position: SkipTokenPosition,
  remaining: number,
  positions: RowPositions,
): AsyncGenerator<Entity> {
  let failed = false;
  let chunk: readonly DecodedRow[] = first;
  let last: SkipTokenPosition | undefined = position;
  try {
    for (;;) {
      for (let i = 0; i < chunk.length; i++) {
        scope.touch();
        yield chunk[i].entity;
      }
      if (remaining <= 0 || last === undefined) return;
      const limit = Math.min(settings.chunkSize, remaining);
      const after = statement.seek(last);
      const readChunk = async (executor: SqlKysely): ReturnType<ReadStatement['read']> => {
        const read = await statement.read(executor, { condition: after, limit, probe: remaining > limit });
        read.rows.forEach(settings.seen);
        read.related.forEach(settings.seen);
        await expandRows(expandContext(settings, executor), statement.plan, read.rows, statement.expandLater);
        return read;
      };
      // Without a snapshot for the rest, each chunk reads on its own (the first chunk's transaction
      // has ended), held to the statement timeout like every other read.
      const next = settings.streamSnapshot ? await readChunk(scope.executor) : await readOnce(settings.db, settings, readChunk);
      positions.add(next);
      chunk = next.rows;
      last = next.rows.length < limit || next.more === false ? undefined : next.last;
      remaining -= next.rows.length;
    }
  } catch (error) {
    failed = true;
    throw settings.mapError(error, request);
  } finally {
    await (failed ? scope.fail() : scope.end());
  }
}

/** Answer a QueryRequest (see the module comment). */
export async function queryEntities(settings: ReadSettings, request: QueryRequest): Promise<QueryResult> {
  const { compiled, db, chunkSize } = settings;
  const single = request.single;
  const mayStream = !single && settings.transaction === undefined && (request.top === undefined || request.top > chunkSize);
  // Every row of a collection read has its position: the next link is written from it (positionOf).
  let statement = new ReadStatement(compiled, db.sqlEngine, request, { allColumns: false, positioned: !single, joinToOne: true });
  const pushedDown = statement.pushedDown;
  if (!pushedDown) statement = new ReadStatement(compiled, db.sqlEngine, request, { allColumns: true, positioned: !single });
  const positions = new RowPositions(statement);
  // The count is read by the page's statement; a statement of its own (which must agree) only after an empty page that skipped rows.
  const countApart = request.count && (!pushedDown || (!single && ((request.skip ?? 0) > 0 || request.skipToken !== undefined)));
  // A feed that may stream reads its chunks in one snapshot, but most feeds end in their first
  // chunk, and one statement is a snapshot by itself: the first chunk is read without one, and
  // only a feed that goes on reads it again in a snapshot transaction (two round trips less for
  // every feed that fits in a chunk; one chunk read twice for those that do not). Under a
  // database session every read is a transaction anyway: such a feed opens its snapshot at once.
  const streamsInSnapshot = mayStream && settings.streamSnapshot;
  const snapshot = countApart || statement.expandLater.length > 0 || !pushedDown || (streamsInSnapshot && settings.session !== undefined);
  const tentative = !snapshot && streamsInSnapshot;
  let scope = await openScope(settings, snapshot);
  try {
    let rows: DecodedRow[];
    let count: number | undefined;
    let continueAt: SkipTokenPosition | undefined;
    let remaining = 0;
    // The positions of a read the kit finished (finishQuery's: the rows' own, or the evaluator's in its order).
    let evaluatedPositions: QueryResult['positionOf'];
    if (!pushedDown) {
      const evaluator = evaluatorContext(settings, scope.executor);
      const read = await evaluateRead(statement, request, evaluator.context, evaluator.typeOf, chunkSize);
      ({ rows, count } = read);
      evaluatedPositions = read.positionOf;
    } else {
      const skip = single ? 0 : Math.max(0, request.skip ?? 0);
      // A feed that may stream without a continuable order (rare) is read whole.
      const limit = single ? undefined : mayStream && !statement.continuable ? request.top : Math.min(request.top ?? chunkSize, chunkSize);
      const after = single || request.skipToken === undefined ? undefined : statement.seek(request.skipToken);
      // A feed that may stream reads one row more than its first chunk: whether a second chunk exists.
      const probe = mayStream && statement.continuable && limit !== undefined && (request.top === undefined || request.top > limit);
      const countInPage = request.count ? countStatement(compiled, db.sqlEngine, request) : undefined;
      const options = { condition: after, limit, offset: skip, probe, count: countInPage };
      let first = await statement.read(scope.executor, options);
      if (tentative && statement.continuable && limit !== undefined && first.more === true) {
        await scope.end();
        scope = await openScope(settings, true);
        first = await statement.read(scope.executor, options);
      }
      rows = first.rows;
      positions.add(first);
      rows.forEach(settings.seen);
      first.related.forEach(settings.seen);
      const ended = first.more === false || (limit !== undefined && rows.length < limit);
      if (request.count) {
        // A page that ends the feed and starts at the beginning (or shows a row) holds the whole rest: its count is known.
        const whole = request.skipToken === undefined && ended && (skip === 0 || rows.length > 0);
        count = whole ? skip + rows.length : (first.count ?? (await countRows(scope.executor, compiled, db.sqlEngine, request)));
      }
      if (mayStream && statement.continuable && limit !== undefined && rows.length === limit && !ended) {
        continueAt = first.last;
        remaining = request.top === undefined ? Infinity : request.top - rows.length;
        // A filter that can fail on some row must fail now, as a 4xx, not in a later chunk after
        // the response has begun: COUNT(*) evaluates it on every row.
        if (count === undefined && filterMayFail(request.filter)) await countRows(scope.executor, compiled, db.sqlEngine, request);
      }
    }
    if (rows.length === 0) await verifyPath(scope.executor, compiled, request.path, db.sqlEngine);
    await expandRows(expandContext(settings, scope.executor), statement.plan, rows, statement.expandLater);
    if (continueAt !== undefined && remaining > 0) {
      // Without a snapshot for the rest, the first chunk's transaction (if any) ends now.
      if (!settings.streamSnapshot) await scope.end();
      scope.watchIdle(settings.streamIdleTimeoutMs);
      const entities = moreChunks(settings, scope, statement, request, rows, continueAt, remaining, positions);
      return count === undefined ? { entities, positionOf: positions.of } : { entities, count, positionOf: positions.of };
    }
    await scope.end();
    const entities = rows.map((row) => row.entity);
    if (single) return count === undefined ? { entities } : { entities, count };
    const positionOf = evaluatedPositions ?? positions.of;
    return count === undefined ? { entities, positionOf } : { entities, count, positionOf };
  } catch (error) {
    await scope.fail();
    throw error;
  }
}

/** Answer a CountRequest: COUNT(*) in the database, or the kit's finishQuery over the rows when the filter needs it. */
export async function countEntities(settings: ReadSettings, request: CountRequest): Promise<number> {
  const { compiled, db } = settings;
  // The count as a query of no entities: what the evaluator finishes is then the same as for a feed's count.
  const query: QueryRequest = {
    ...request,
    single: false,
    orderBy: [],
    skip: undefined,
    top: 0,
    skipToken: undefined,
    selectExpand: NO_SELECT_EXPAND,
    count: true,
  };
  const statement = new ReadStatement(compiled, db.sqlEngine, query, { allColumns: true, positioned: false });
  const scope = await openScope(settings, statement.residual !== undefined);
  try {
    let count: number;
    if (statement.residual === undefined) {
      count = await countRows(scope.executor, compiled, db.sqlEngine, request);
    } else {
      const evaluator = evaluatorContext(settings, scope.executor);
      count = (await evaluateRead(statement, query, evaluator.context, evaluator.typeOf, settings.chunkSize)).count ?? 0;
    }
    if (count === 0) await verifyPath(scope.executor, compiled, request.path, db.sqlEngine);
    await scope.end();
    return count;
  } catch (error) {
    await scope.fail();
    throw error;
  }
}
