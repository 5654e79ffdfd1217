/**
 * Ordering and paging for any provider: `$orderby` comparators, the `$skiptoken` position filter
 * and `applyQuery`, which runs filter, count, skiptoken, sort, skip and top over an array. Sort
 * keys are computed once per entity (not once per comparison) and the sort is stable.
 */
import type { PrimitiveValue } from '../edm/primitives';
import { alignPosition } from '../uri/skiptoken';
import type { OrderByItem, PositionValue, SkipTokenPosition } from '../uri/types';
import { laneOf } from '../edm/primitives';
import { toLane, type LaneValue } from './coerce';
import { compareValues, sortComparator } from './compare';
import { compileExpression, compileFilter, evaluate } from './compile';
import { staticPrimitive, type EvaluationAccess, type Evaluator } from './runtime';
import type { EdmEntityType } from '../edm/model';
import { entityKey } from '../provider/keys';
import type { Entity, QueryRequest } from '../provider/types';

type SortValue = LaneValue | PrimitiveValue | null | object;

/** One compiled sort key: how to read it from an entity, how to compare two readings, which way. */
interface SortKey {
  readonly read: (entity: Entity) => SortValue;
  /** Bring a skiptoken value into the same form as `read` returns. */
  readonly fromPosition: (value: PositionValue | null) => SortValue;
  /** Total order, nulls first. */
  readonly compare: (a: SortValue, b: SortValue) => number;
  /** 1 ascending, -1 descending. */
  readonly direction: 1 | -1;
}

function nullsFirst(compare: (a: SortValue, b: SortValue) => number): (a: SortValue, b: SortValue) => number {
  return (a, b) => (a === null ? (b === null ? 0 : -1) : b === null ? 1 : compare(a, b));
}

function sortKey(item: OrderByItem, evaluator: Evaluator): SortKey {
  const direction = item.direction === 'desc' ? -1 : 1;
  const type = staticPrimitive(item.expression);
  if (type === undefined) {
    // Dynamic (or untyped) values: types are read from the values (WCF sorted nulls first too).
    return { read: evaluator, fromPosition: (value) => value, compare: (a, b) => compareValues(a, b), direction };
  }
  const lane = laneOf(type);
  const compare = sortComparator(lane);
  const convert = (value: unknown): SortValue => (value === null || value === undefined ? null : (toLane(lane, value) ?? null));
  return {
    read: (entity) => convert(evaluator(entity)),
    fromPosition: convert,
    compare: nullsFirst((a, b) => compare(a as LaneValue, b as LaneValue)),
    direction,
  };
}

function compileKeys(orderBy: readonly OrderByItem[], access: EvaluationAccess): SortKey[] {
  return orderBy.map((item) => sortKey(item, compileExpression(item.expression, access)));
}

/**
 * A comparator for `$orderby` (which should end with the key tie-breaker): nulls sort first when
 * ascending (as WCF), strings ordinally, Int64/Decimal exactly, dates by instant.
 */
export function compileOrderBy(orderBy: readonly OrderByItem[], access?: EvaluationAccess): (a: Entity, b: Entity) => number {
  const keys = compileKeys(orderBy, access);
  return (a, b) => {
    for (const key of keys) {
      const order = key.compare(key.read(a), key.read(b));
      if (order !== 0) return order * key.direction;
    }
    return 0;
  };
}

/** The sort keys of `orderBy` with the skiptoken position's value for each, then the key properties it does not sort on. */
function seekKeys(
  orderBy: readonly OrderByItem[],
  position: SkipTokenPosition,
  access: EvaluationAccess,
): { keys: SortKey[]; bounds: SortValue[]; uncoveredKeys: readonly string[] } {
  const aligned = alignPosition(orderBy, position);
  const keys = compileKeys(orderBy, access);
  const bounds: SortValue[] = aligned.bounds.map((bound, index) => keys[index].fromPosition(bound));
  for (const name of aligned.uncoveredKeys) {
    keys.push({
      read: (entity) => (Object.prototype.hasOwnProperty.call(entity, name) ? (entity[name] ?? null) : null),
      fromPosition: (value) => value,
      compare: (a, b) => compareValues(a, b),
      direction: 1,
    });
    bounds.push(position.key[name]);
  }
  return { keys, bounds, uncoveredKeys: aligned.uncoveredKeys };
}

/** True when `value(i)`, the sort values of one entity, come strictly after the bounds. */
function isAfter(keys: readonly SortKey[], bounds: readonly SortValue[], value: (index: number) => SortValue): boolean {
  for (let i = 0; i < keys.length; i++) {
    const order = keys[i].compare(value(i), bounds[i]) * keys[i].direction;
    if (order !== 0) return order > 0;
  }
  return false; // the position's own entity is not after itself
}

/**
 * A predicate keeping the entities strictly after a `$skiptoken` position in `orderBy` order.
 * `orderBy` is the client's `$orderby` (one position value per item) followed by the key
 * tie-breaker items (valued from the position's key); key properties it does not sort on are
 * compared last, ascending, so the position is exact either way. 400 SKIPTOKEN_INVALID when the
 * position does not fit the ordering.
 */
export function compileSkipTokenFilter(orderBy: readonly OrderByItem[], position: SkipTokenPosition, access?: EvaluationAccess): (entity: Entity) => boolean {
  const { keys, bounds } = seekKeys(orderBy, position, access);
  return (entity) => isAfter(keys, bounds, (i) => keys[i].read(entity));
}

/**
 * The same predicate over positions instead of entities: true when `candidate` (a position as
 * `QueryResult.positionOf` gives it, with a value for every item of `orderBy` and the key) comes
 * strictly after `position`. Compares at the positions' precision (a PreciseInstant exactly), where
 * an entity's own Date holds milliseconds only.
 */
export function compilePositionFilter(orderBy: readonly OrderByItem[], position: SkipTokenPosition): (candidate: SkipTokenPosition) => boolean {
  const { keys, bounds, uncoveredKeys } = seekKeys(orderBy, position, undefined);
  return (candidate) =>
    isAfter(keys, bounds, (i) =>
      i < orderBy.length ? keys[i].fromPosition(candidate.orderByValues[i] ?? null) : (candidate.key[uncoveredKeys[i - orderBy.length]] ?? null),
    );
}

/**
 * An entity's position in `orderBy` order from its own values: each item evaluated on it (through
 * `access` for navigation), and its key. What the service uses when a provider gives no
 * `QueryResult.positionOf`: exact for a store that keeps milliseconds, as MemoryProvider does.
 */
export function entityPosition(orderBy: readonly OrderByItem[], entity: Entity, entityType: EdmEntityType, access?: EvaluationAccess): SkipTokenPosition {
  return { orderByValues: orderBy.map((item) => evaluate(item.expression, entity, access)), key: entityKey(entityType, entity) };
}

/** True when `entity` comes strictly after the skiptoken position (compile once for many entities). */
export function afterPosition(entity: Entity, orderBy: readonly OrderByItem[], position: SkipTokenPosition, access?: EvaluationAccess): boolean {
  return compileSkipTokenFilter(orderBy, position, access)(entity);
}

/** The parts of a QueryRequest that `applyQuery` implements. */
export type QueryPart = Pick<QueryRequest, 'filter' | 'orderBy' | 'skip' | 'top' | 'skipToken' | 'count'>;

/**
 * Run a query over an array, in protocol order: `$filter`, the count (after filtering, before
 * paging: MS-ODATA §2.2.3.6.1.10), the `$skiptoken` position, `$orderby` (stable), `$skip`, `$top`.
 * The input is not modified; the result holds the same entity objects.
 */
export function applyQuery(entities: readonly Entity[], request: QueryPart, access?: EvaluationAccess): { entities: Entity[]; count: number | undefined } {
  // No defensive copy of the input: every step below makes a new array, and the end copies it if none did.
  let selected: readonly Entity[] = request.filter === undefined ? entities : entities.filter(compileFilter(request.filter, access));
  const count = request.count ? selected.length : undefined;
  if (request.skipToken !== undefined) selected = selected.filter(compileSkipTokenFilter(request.orderBy, request.skipToken, access));
  const skip = Math.max(0, request.skip ?? 0);
  const end = request.top === undefined ? undefined : skip + Math.max(0, request.top);
  if (request.orderBy.length > 0 && selected.length > 1) selected = sortStable(selected, compileKeys(request.orderBy, access), end);
  if (skip > 0 || end !== undefined) selected = selected.slice(skip, end);
  return { entities: selected === entities ? entities.slice() : (selected as Entity[]), count };
}

/**
 * Sort with every key read once per entity; ties keep input order. When only the first `limit`
 * entities are wanted (a page), a bounded heap selects them in O(n log limit) instead of sorting all.
 * Entities are handled by index, with their keys' values in one flat array: no object or array
 * per entity on this per-request path.
 */
function sortStable(entities: readonly Entity[], keys: readonly SortKey[], limit: number | undefined): Entity[] {
  const width = keys.length;
  const count = entities.length;
  const values = new Array<SortValue>(count * width);
  for (let index = 0; index < count; index++) {
    const entity = entities[index];
    for (let k = 0; k < width; k++) values[index * width + k] = keys[k].read(entity);
  }
  const compare = (a: number, b: number): number => {
    for (let k = 0; k < width; k++) {
      const key = keys[k];
      const order = key.compare(values[a * width + k], values[b * width + k]);
      if (order !== 0) return order * key.direction;
    }
    return a - b;
  };
  let selected: number[];
  if (limit !== undefined && limit < count / 2) {
    selected = smallest(count, limit, compare);
  } else {
    selected = new Array<number>(count);
    for (let i = 0; i < count; i++) selected[i] = i;
  }
  selected.sort(compare);
  const sorted = new Array<Entity>(selected.length);
  for (let i = 0; i < selected.length; i++) sorted[i] = entities[selected[i]];
  return sorted;
}

/** The indices of the `limit` smallest of `count` entities (unordered), kept in a max-heap. */
function smallest(count: number, limit: number, compare: (a: number, b: number) => number): number[] {
  const heap: number[] = [];
  if (limit === 0) return heap;
  for (let index = 0; index < count; index++) {
    if (heap.length < limit) {
      heap.push(index);
      for (let i = heap.length - 1; i > 0;) {
        const parent = (i - 1) >> 1;
        if (compare(heap[i], heap[parent]) <= 0) break;
        const swap = heap[i];
        heap[i] = heap[parent];
        heap[parent] = swap;
        i = parent;
      }
    } else if (compare(index, heap[0]) < 0) {
      heap[0] = index;
      siftDown(heap, compare);
    }
  }
  return heap;
}

/** Restore the max-heap after its root was replaced. */
function siftDown(heap: number[], compare: (a: number, b: number) => number): void {
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    const right = left + 1;
    let largest = i;
    if (left < heap.length && compare(heap[left], heap[largest]) > 0) largest = left;
    if (right < heap.length && compare(heap[right], heap[largest]) > 0) largest = right;
    if (largest === i) return;
    const swap = heap[i];
    heap[i] = heap[largest];
    heap[largest] = swap;
    i = largest;
  }
}
