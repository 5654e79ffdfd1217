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

/** Write `head`, each item (with its index, for separators), then `tail`. */
export function writeSequence<T>(
  head: string,
  items: readonly T[] | AsyncIterable<T>,
  writeItem: (item: T, index: number) => string,
  tail: () => string,
): string | AsyncIterable<string> {
  if (!isAsyncIterable(items)) {
    let out = head;
    for (let i = 0; i < items.length; i++) out += writeItem(items[i], i);
    return out + tail();
  }
  return streamSequence(head, items, writeItem, tail);
}

async function* streamSequence<T>(
  head: string,
  items: AsyncIterable<T>,
  writeItem: (item: T, index: number) => string,
  tail: () => string,
): AsyncIterable<string> {
  let buffer = head;
  let index = 0;
  for await (const item of items) {
    buffer += writeItem(item, index++);
    if (buffer.length >= CHUNK_SIZE) {
      yield buffer;
      buffer = '';
    }
  }
  yield buffer + tail();
}
