/**
 * A payload with many items (a feed): the whole string when the items are an array, or chunks of
 * at least CHUNK_SIZE characters when they are an async iterable, so a feed of any length streams
 * with memory bounded by one chunk plus one entry.
 */

/** Characters collected before a chunk is handed to the socket. */
export const CHUNK_SIZE = 16 * 1024;

/** True for an async iterable (a streamed feed) rather than an array. */
export function isAsyncIterable<T>(items: readonly T[] | AsyncIterable<T>): items is AsyncIterable<T> {
  return typeof (items as Partial<AsyncIterable<T>>)[Symbol.asyncIterator] === 'function';
}

/**
 * Write `head`, each item (with its index, for separators), then `tail`. With no items at all,
 * `emptyHead` (when given) is written instead of `head`: a streamed sequence holds its head back
 * until the first item or the end, which it does anyway (chunks are at least CHUNK_SIZE).
 */
export function writeSequence<T>(
  head: string,
  items: readonly T[] | AsyncIterable<T>,
  writeItem: (item: T, index: number) => string,
  tail: () => string,
  emptyHead: string = head,
): string | AsyncIterable<string> {
  if (!isAsyncIterable(items)) {
    if (items.length === 0) return emptyHead + tail();
    let out = head;
    for (let i = 0; i < items.length; i++) out += writeItem(items[i], i);
    return out + tail();
  }
  return streamSequence(head, items, writeItem, tail, emptyHead);
}

async function* streamSequence<T>(
  head: string,
  items: AsyncIterable<T>,
  writeItem: (item: T, index: number) => string,
  tail: () => string,
  emptyHead: string,
): AsyncIterable<string> {
  let buffer = '';
  let index = 0;
  for await (const item of items) {
    if (index === 0) buffer = head;
    buffer += writeItem(item, index++);
    if (buffer.length >= CHUNK_SIZE) {
      yield buffer;
      buffer = '';
    }
  }
  yield (index === 0 ? emptyHead : buffer) + tail();
}
