/**
 * Counting the expanded entries of an entity before writing it, shared by the Atom and JSON entry
 * writers: an entity whose expansions are arrays holding few entries is written at once, as one
 * string (the fast path of every ordinary response); one with a streamed or large expansion is
 * written piece by piece. The count is also what the response is charged against its limit.
 */
import type { Entity } from '../provider/types';
import { isAsyncIterable } from './stream';

/** Counts the expanded entries below one entity of a shape; -1 for a stream or more than `cap`. */
export type EntryCount = (entity: Entity, cap: number) => number;

/**
 * The expanded entries of one navigation value and below: an array's entries (each with its own
 * expansions), 1 for a single entry, 0 for none; -1 when it is an async iterable or holds more
 * than `cap` entries. A value that is not an entity counts 0: the writer refuses it.
 */
export function expandedCount(value: unknown, isCollection: boolean, childCount: EntryCount | undefined, cap: number): number {
  if (value === undefined || value === null) return 0;
  if (isCollection) {
    if (!Array.isArray(value)) return isAsyncIterable(value) ? -1 : 0;
    const items: readonly unknown[] = value;
    let total = items.length;
    if (total > cap) return -1;
    if (childCount === undefined) return total;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      // Not an entity: the writer refuses it; counting it as one does no harm.
      if (typeof item !== 'object' || item === null) continue;
      const found = childCount(item as Entity, cap - total);
      if (found < 0) return -1;
      total += found;
    }
    return total;
  }
  if (typeof value !== 'object') return 0;
  if (cap < 1) return -1;
  const found = childCount === undefined ? 0 : childCount(value as Entity, cap - 1);
  return found < 0 ? -1 : 1 + found;
}
