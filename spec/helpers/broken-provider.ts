/**
 * A deliberately broken provider for the conformance suite's own spec: MemoryProvider with three
 * mistakes a hand-written database provider makes.
 *
 * - Nulls sort last (`ORDER BY x` in PostgreSQL ascending): feeds ordered by a property with nulls
 *   come back with the nulls on the wrong end, and paging (whose `$skiptoken` position assumes
 *   nulls first) loses and repeats entries.
 * - `startswith(x, 'lit')` as an unescaped `x LIKE 'lit%'`: `%` and `_` in the literal are wildcards.
 * - The If-Match precondition is checked after an await (read, compare, then write) and single
 *   writes run outside a transaction (only `$batch` changesets get one): concurrent writers with
 *   the same entity tag all pass the check, and a single write run again is not rolled back first.
 * - Moments keep the microseconds the suite's `storeExact` gives and sort by them (right), but the
 *   provider gives no positions, so the next link's `$skiptoken` carries the entity's milliseconds,
 *   and the seek compares the full values with them as if exact (`WHERE at > $1` over a
 *   timestamp(6) column): entries within the token's millisecond come again or go missing.
 * - SAP's `search` compares with case (`col LIKE '%term%'`, neither side lowered).
 */
import {
  applyQuery,
  compileFilter,
  compileSkipTokenFilter,
  evaluate,
  isPreciseInstant,
  type MemoryProvider,
  ODataError,
  searchableProperties,
  transformExpression,
} from '../../lib';
import type { CountRequest, DataProvider, DeleteRequest, Entity, ExprNode, OrderByItem, QueryRequest, QueryResult, UpdateRequest } from '../../lib';
import { compareValues } from '../../lib/evaluate/compare';
import type { RequestContext } from '../../lib/protocol/message';
import type { ExactEntity } from '../../lib/testing';
import { ticks } from '../../lib/testing/reference';

const LIKE_RESULT = '__like';

/** `LIKE pattern` as PostgreSQL reads it: `%` any text, `_` one character, `\` escapes the next one. */
function likeMatches(text: string, pattern: string): boolean {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const character = pattern[i];
    if (character === '\\' && i + 1 < pattern.length) source += pattern[++i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (character === '%') source += '.*';
    else if (character === '_') source += '.';
    else source += character.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's').test(text);
}

/** The `startswith` calls of a filter whose literal holds a wildcard, replaced by dynamic members read from precomputed results. */
function likeFilter(filter: ExprNode): { filter: ExprNode; calls: { name: string; subject: ExprNode; pattern: string }[] } {
  const calls: { name: string; subject: ExprNode; pattern: string }[] = [];
  const rewritten = transformExpression(filter, (node) => {
    if (node.kind !== 'Call' || node.name !== 'startswith') return node;
    const [subject, prefix] = node.args;
    if (prefix.kind !== 'Literal' || typeof prefix.value !== 'string' || !/[%_]/.test(prefix.value)) return node;
    const name = `${LIKE_RESULT}${calls.length}`;
    calls.push({ name, subject, pattern: `${prefix.value}%` });
    return { kind: 'Member', path: [name], steps: [{ kind: 'Dynamic', name }], type: { kind: 'Primitive', name: 'Edm.Boolean' } };
  });
  return { filter: rewritten, calls };
}

function navigates(item: OrderByItem): boolean {
  return item.expression.kind === 'Member' && (item.expression.steps ?? []).some((step) => step.kind === 'Navigation');
}

/** Nulls last ascending, first descending: the reverse of the rule. */
function nullsLast(orderBy: readonly OrderByItem[], order: Map<Entity, number>): (a: Entity, b: Entity) => number {
  return (a, b) => {
    for (const item of orderBy) {
      const left = evaluate(item.expression, a);
      const right = evaluate(item.expression, b);
      const direction = item.direction === 'desc' ? -1 : 1;
      if (left === null && right === null) continue;
      if (left === null || right === null) return (left === null ? 1 : -1) * direction;
      const type = item.expression.type?.kind === 'Primitive' ? item.expression.type.name : undefined;
      const compared = compareValues(left, right, type, type);
      if (compared !== 0) return compared * direction;
    }
    return (order.get(a) ?? 0) - (order.get(b) ?? 0);
  };
}

async function toArray(entities: QueryResult['entities']): Promise<Entity[]> {
  if (Array.isArray(entities)) return [...(entities as readonly Entity[])];
  const out: Entity[] = [];
  for await (const entity of entities as AsyncIterable<Entity>) out.push(entity);
  return out;
}

/** -1, 0 or 1: `a` against `b` in 100 ns ticks, nulls first. */
function compareTicks(a: bigint | null, b: bigint | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** How long a writer alone waits between its check and its write, in turns of the event loop. */
const ROUND_TRIP_TURNS = 50;

export class BrokenProvider implements DataProvider {
  /** The Moments' exact values (`ID/property` to ticks), as `storeExact` gave them. */
  private readonly exact = new Map<string, bigint>();
  /** The writer of each entity waiting between its check and its write (roundTrip), to be released by the next. */
  private readonly afterCheck = new Map<string, () => void>();

  constructor(readonly inner: MemoryProvider) {}

  /** Keep the microseconds (the suite's hook for stores that do). */
  storeExact(entities: readonly ExactEntity[]): void {
    for (const entity of entities) {
      for (const [name, text] of Object.entries(entity.values)) if (text !== null) this.exact.set(`${String(entity.key.ID)}/${name}`, ticks(text));
    }
  }

  /** A Moment's sort value in ticks: the stored microseconds where the hook gave them. */
  private fullValue(row: Entity, name: string): bigint | null {
    const value = row[name];
    if (value instanceof Date) return this.exact.get(`${String(row.ID)}/${name}`) ?? BigInt(value.getTime()) * 10_000n;
    return typeof value === 'number' ? BigInt(value) : null;
  }

  /** Sorted by the full values, then the key (right); sought by the full values against the token's milliseconds taken as exact. */
  private async queryMoments(request: QueryRequest, context: RequestContext): Promise<QueryResult> {
    const everything = await this.inner.query({ ...request, skip: undefined, top: undefined, skipToken: undefined, count: false }, context);
    const rows = await toArray(everything.entities);
    const names = request.orderBy.map((item) => (item.expression.kind === 'Member' ? item.expression.path.join('/') : ''));
    const compareAt = (row: Entity, bounds: readonly (bigint | null)[]): number => {
      for (let i = 0; i < names.length; i++) {
        const order = compareTicks(this.fullValue(row, names[i]), bounds[i]) * (request.orderBy[i].direction === 'desc' ? -1 : 1);
        if (order !== 0) return order;
      }
      return 0;
    };
    const sorted = rows
      .map((row) => ({ row, values: names.map((name) => this.fullValue(row, name)) }))
      .sort((a, b) => compareAt(a.row, b.values))
      .map(({ row }) => row);
    const position = request.skipToken;
    const bounds = names.map((name, index) => {
      const value = position === undefined ? null : index < position.orderByValues.length ? position.orderByValues[index] : position.key[name];
      if (isPreciseInstant(value)) return BigInt(value.date.getTime()) * 10_000n + BigInt(value.subMilliseconds.padEnd(4, '0').slice(0, 4));
      return value instanceof Date ? BigInt(value.getTime()) * 10_000n : typeof value === 'number' ? BigInt(value) : null;
    });
    const after = position === undefined ? sorted : sorted.filter((row) => compareAt(row, bounds) > 0);
    const skip = request.skip ?? 0;
    const page = after.slice(skip, request.top === undefined ? undefined : skip + request.top);
    const positionless = { entities: page };
    return request.count ? { ...positionless, count: rows.length } : positionless;
  }

  /** The entities a search with case keeps (every term in a searched property as written), in `orderBy` order, unpaged. */
  private async searchedWithCase(request: QueryRequest | CountRequest, context: RequestContext): Promise<Entity[]> {
    const terms = request.search ?? [];
    const properties = searchableProperties(request.entityType);
    const everything = await this.inner.query(
      {
        ...request,
        single: false,
        search: undefined,
        orderBy: 'orderBy' in request ? request.orderBy : [],
        skip: undefined,
        top: undefined,
        skipToken: undefined,
        selectExpand: 'selectExpand' in request ? request.selectExpand : { select: undefined, expand: [] },
        count: false,
      },
      context,
    );
    return (await toArray(everything.entities)).filter((row) =>
      terms.every((term) =>
        properties.some((property) => {
          const value = row[property.name];
          return typeof value === 'string' && value.includes(term);
        }),
      ),
    );
  }

  async query(request: QueryRequest, context: RequestContext): Promise<QueryResult> {
    if (request.entitySet.name === 'Moments') return this.queryMoments(request, context);
    if (request.search !== undefined) {
      const page = applyQuery(await this.searchedWithCase(request, context), { ...request, filter: undefined });
      return page.count === undefined ? { entities: page.entities } : { entities: page.entities, count: page.count };
    }
    const like = request.filter === undefined ? { filter: undefined, calls: [] } : likeFilter(request.filter);
    const ownOrder = request.orderBy.every((item) => !navigates(item));
    if (request.single || request.path.navigation.length > 0 || (like.calls.length === 0 && !ownOrder)) return this.inner.query(request, context);
    const everything = await this.inner.query(
      { ...request, filter: like.calls.length > 0 ? undefined : request.filter, skip: undefined, top: undefined, skipToken: undefined, count: false },
      context,
    );
    let rows = await toArray(everything.entities);
    if (like.filter !== undefined && like.calls.length > 0) {
      const keep = compileFilter(like.filter);
      rows = rows.filter((row) => {
        const results: Record<string, boolean | null> = {};
        for (const call of like.calls) {
          const subject = evaluate(call.subject, row);
          results[call.name] = typeof subject === 'string' ? likeMatches(subject, call.pattern) : null;
        }
        return keep({ ...row, ...results });
      });
    }
    if (ownOrder) {
      const position = new Map(rows.map((row, index) => [row, index]));
      rows.sort(nullsLast(request.orderBy, position));
    }
    const count = rows.length;
    if (request.skipToken !== undefined) rows = rows.filter(compileSkipTokenFilter(request.orderBy, request.skipToken));
    const skip = request.skip ?? 0;
    rows = rows.slice(skip, request.top === undefined ? undefined : skip + request.top);
    return request.count ? { entities: rows, count } : { entities: rows };
  }

  count: DataProvider['count'] = async (request, context) => {
    if (request.search !== undefined) return (await this.searchedWithCase(request, context)).length;
    return this.inner.count === undefined ? Promise.reject(new Error('no count')) : this.inner.count(request, context);
  };

  mediaOf: DataProvider['mediaOf'] = (entity, type) => this.inner.mediaOf(entity, type);
  create: DataProvider['create'] = (request, context) => this.inner.create(request, context);
  link: DataProvider['link'] = (request, context) => this.inner.link(request, context);
  readMedia: DataProvider['readMedia'] = (entity, context) => this.inner.readMedia(entity, context);
  writeMedia: DataProvider['writeMedia'] = (entity, media, precondition, context) => this.inner.writeMedia(entity, media, precondition, context);

  /**
   * The gap a database round trip leaves between the check and the write, made certain: a writer
   * whose check passed waits for another writer of the same entity to pass its check too (then
   * both go on and both write), or, alone, for ROUND_TRIP_TURNS turns of the event loop. Turns,
   * not a timer: the writers of a race all arrive within a few turns however busy the machine is,
   * where a 20 ms sleep could end before the second one arrived.
   */
  private async roundTrip(entity: string): Promise<void> {
    const partner = this.afterCheck.get(entity);
    if (partner !== undefined) {
      this.afterCheck.delete(entity);
      partner();
      return;
    }
    await new Promise<void>((resolve) => {
      this.afterCheck.set(entity, resolve);
      let turns = 0;
      const wait = (): void => {
        if (this.afterCheck.get(entity) !== resolve) return;
        if (++turns < ROUND_TRIP_TURNS) {
          setImmediate(wait);
          return;
        }
        this.afterCheck.delete(entity);
        resolve();
      };
      setImmediate(wait);
    });
  }

  /** Read, compare, then write: the precondition is checked after an await, outside any lock. */
  private async checkFirst(request: UpdateRequest | DeleteRequest, context: RequestContext): Promise<void> {
    if (request.precondition === undefined) return;
    const current = await this.inner.query(
      {
        entitySet: request.entitySet,
        entityType: request.entityType,
        path: { root: { entitySet: request.entitySet, key: request.key }, navigation: [] },
        single: true,
        filter: undefined,
        orderBy: [],
        skip: undefined,
        top: undefined,
        skipToken: undefined,
        selectExpand: { select: undefined, expand: [] },
        count: false,
        customOptions: {},
      },
      context,
    );
    const [entity] = await toArray(current.entities);
    if (entity !== undefined && !request.precondition.matches(entity)) throw ODataError.fromCode('PRECONDITION_FAILED', { header: 'If-Match' });
    await this.roundTrip(`${request.entitySet.name}${JSON.stringify(request.key)}`);
  }

  async update(request: UpdateRequest, context: RequestContext): Promise<Entity> {
    await this.checkFirst(request, context);
    return this.inner.update({ ...request, precondition: undefined }, context);
  }

  async delete(request: DeleteRequest, context: RequestContext): Promise<void> {
    await this.checkFirst(request, context);
    return this.inner.delete({ ...request, precondition: undefined }, context);
  }

  /** Only `$batch` changesets run in a transaction; single writes do not. */
  transaction<T>(work: () => Promise<T>, context: RequestContext): Promise<T> {
    return (context.request.url ?? '').includes('$batch') ? this.inner.transaction(work, context) : work();
  }
}
