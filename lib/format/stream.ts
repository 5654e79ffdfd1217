/**
 * Payloads with many items (a feed, an entry with expanded feeds): the whole string when every
 * item is at hand and small, or chunks of at least CHUNK_SIZE characters when the items (or the
 * expanded feeds inside them) are async iterables or many, so a response of any size streams with
 * memory bounded by one chunk plus one entry, and the event loop gets a turn after every chunk.
 *
 * Expanded entries are counted against `limits.maxExpandedEntities` while they are written. A
 * response with expanded entries holds back its first HOLD_SIZE characters, so that one that passes
 * the limit is almost always refused with a clean 400 before its headers go out.
 */
import { ODataError } from '../errors';

/** Characters collected before a chunk is handed to the socket. */
export const CHUNK_SIZE = 16 * 1024;

/**
 * Characters a streamed response with expanded entries holds back before its first chunk: enough
 * for the default 10,000 expanded entries in Atom (~1.5 K characters each), so that passing the
 * limit is a clean 400; about 16 MB of memory while held.
 */
const HOLD_SIZE = 16 * 1024 * 1024;

/** Expanded entries an item (a feed entry, a single entry) may hold to be written at once, as one string. */
export const SYNC_EXPANDED = 1000;

/** The expanded entries one response may still write (`limits.maxExpandedEntities`). */
export interface ExpansionBudget {
  remaining: number;
  readonly limit: number;
}

/** Count `count` expanded entries against the response's budget: 400 QUERY_LIMIT_EXCEEDED past it. */
export function chargeExpanded(budget: ExpansionBudget | undefined, count: number): void {
  if (budget === undefined || count === 0) return;
  budget.remaining -= count;
  if (budget.remaining < 0) {
    throw ODataError.fromCode('QUERY_LIMIT_EXCEEDED', {
      option: '$expand',
      limit: budget.limit,
      detail: `the response would hold more than ${budget.limit} expanded entries (limits.maxExpandedEntities); ask for fewer with $top, $filter or a narrower $expand.`,
    });
  }
}

/** True for an async iterable (a streamed feed) rather than an array. */
export function isAsyncIterable<T>(items: unknown): items is AsyncIterable<T> {
  return typeof items === 'object' && items !== null && typeof (items as Partial<AsyncIterable<T>>)[Symbol.asyncIterator] === 'function';
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Where streaming writers put their text. `release` hands on a full chunk (or holds it back) and gives the event loop a turn. */
export class ChunkOut {
  text = '';
  private held: string[] = [];
  private heldLength = 0;
  private holding: boolean;

  /** `hold`: characters to keep back before the first chunk (0: none). */
  constructor(private readonly hold: number) {
    this.holding = hold > 0;
  }

  /** True when a chunk's worth of text has collected. */
  get full(): boolean {
    return this.text.length >= CHUNK_SIZE;
  }

  /** Hand on the text collected so far (kept back while holding), then let other work run. */
  async *release(): AsyncGenerator<string, void, undefined> {
    const text = this.text;
    this.text = '';
    if (!this.holding) {
      yield text;
    } else {
      this.held.push(text);
      this.heldLength += text.length;
      if (this.heldLength >= this.hold) {
        this.holding = false;
        yield* this.takeHeld();
      }
    }
    await nextTurn();
  }

  /** Everything not handed on yet, at the end, as chunks. */
  *finish(): Generator<string, void, undefined> {
    yield* this.takeHeld();
    const text = this.text;
    this.text = '';
    yield text;
  }

  /** The held chunks, one by one (never joined: that would double the memory held). */
  private *takeHeld(): Generator<string, void, undefined> {
    const held = this.held;
    this.held = [];
    this.heldLength = 0;
    yield* held;
  }
}

/** How a sequence writes each item: at once, or piece by piece when it holds streams or many expanded entries. */
export interface ItemWriter<T> {
  readonly write: (item: T, index: number) => string;
  /**
   * Only for items with expansions: the expanded entries of the item when it can be written at
   * once (arrays only, at most `cap`), else -1.
   */
  readonly count?: (item: T, cap: number) => number;
  /** Only for items with expansions: write the item into `out`, streaming its expanded feeds. */
  readonly stream?: (item: T, index: number, out: ChunkOut) => AsyncGenerator<string, void, undefined>;
  /** True when items carry expanded entries (counted while written): a streamed sequence then holds its first HOLD_SIZE characters. */
  readonly expands?: boolean;
}

/**
 * Write `head`, each item (with its index, for separators), then `tail`: one string when the
 * items are an array whose expanded entries are few (at most SYNC_EXPANDED in all), else chunks.
 * With no items at all, `emptyHead` (when given) is written instead of `head`: a streamed sequence
 * writes its head with the first item, or at the end.
 */
export function writeSequence<T>(
  head: string,
  items: readonly T[] | AsyncIterable<T>,
  writer: ItemWriter<T>,
  tail: () => string,
  budget: ExpansionBudget | undefined,
  emptyHead: string = head,
): string | AsyncIterable<string> {
  if (!isAsyncIterable(items)) {
    if (items.length === 0) return emptyHead + tail();
    const counted = writer.count === undefined ? 0 : countAll(items, writer.count);
    if (counted >= 0) {
      chargeExpanded(budget, counted);
      let out = head;
      for (let i = 0; i < items.length; i++) out += writer.write(items[i], i);
      return out + tail();
    }
  }
  return streamSequence(head, items, writer, tail, budget, emptyHead);
}

/** Expanded entries of all items, or -1 when one holds a stream or they are more than SYNC_EXPANDED. */
function countAll<T>(items: readonly T[], count: (item: T, cap: number) => number): number {
  let total = 0;
  for (let i = 0; i < items.length; i++) {
    const found = count(items[i], SYNC_EXPANDED - total);
    if (found < 0) return -1;
    total += found;
  }
  return total;
}

async function* streamSequence<T>(
  head: string,
  items: readonly T[] | AsyncIterable<T>,
  writer: ItemWriter<T>,
  tail: () => string,
  budget: ExpansionBudget | undefined,
  emptyHead: string,
): AsyncIterable<string> {
  const { count, stream } = writer;
  const out = new ChunkOut(writer.expands === true ? HOLD_SIZE : 0);
  let index = 0;
  for await (const item of items) {
    if (index === 0) out.text += head;
    const found = count === undefined ? 0 : count(item, SYNC_EXPANDED);
    if (found >= 0 || stream === undefined) {
      chargeExpanded(budget, found);
      out.text += writer.write(item, index);
    } else {
      yield* stream(item, index, out);
    }
    index++;
    if (out.full) yield* out.release();
  }
  out.text += (index === 0 ? emptyHead : '') + tail();
  yield* out.finish();
}

/** One item written at once when it can be, else streamed (an entry with many or streamed expanded entries). */
export function writeItem<T>(
  item: T,
  writer: ItemWriter<T>,
  wrap: { readonly head: string; readonly tail: string },
  budget: ExpansionBudget | undefined,
): string | AsyncIterable<string> {
  const found = writer.count === undefined ? 0 : writer.count(item, SYNC_EXPANDED);
  if (found >= 0 || writer.stream === undefined) {
    chargeExpanded(budget, found);
    return wrap.head + writer.write(item, 0) + wrap.tail;
  }
  const stream = writer.stream;
  return (async function* () {
    const out = new ChunkOut(HOLD_SIZE);
    out.text = wrap.head;
    yield* stream(item, 0, out);
    out.text += wrap.tail;
    yield* out.finish();
  })();
}
