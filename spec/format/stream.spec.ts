/** Streaming: a feed from an async iterable comes out in bounded chunks equal to the string form. */
import { CHUNK_SIZE, writeResult } from '../../lib/format';
import type { Entity } from '../../lib/provider/types';
import type { FeedResult } from '../../lib/result';
import { ALL, context, entitySet, expandItem, text } from './support';

const COUNT = 10_000;

function product(id: number): Entity {
  return {
    ID: id,
    Name: `Product ${id}`,
    Description: 'x',
    ReleaseDate: new Date(Date.UTC(2000, 0, 1) + id * 1000),
    DiscontinuedDate: null,
    Rating: id % 5,
    Price: `${id}.5`,
  };
}

async function* generate(count: number): AsyncIterable<Entity> {
  for (let id = 0; id < count; id++) {
    if (id % 1000 === 0) await Promise.resolve();
    yield product(id);
  }
}

function feed(entities: FeedResult['entities']): FeedResult {
  const set = entitySet('Products');
  return {
    kind: 'Feed',
    entitySet: set,
    entityType: set.entityType,
    selfPath: 'Products',
    title: 'Products',
    entities,
    count: COUNT,
    nextLink: undefined,
    selectExpand: ALL,
  };
}

describe.each([
  ['atom', '2.0'],
  ['json', '2.0'],
  ['json', '1.0'],
] as const)('a streamed %s feed (version %s)', (format, version) => {
  it('yields several bounded chunks whose concatenation equals the string form', async () => {
    const output = writeResult(feed(generate(COUNT)), format, context(version));
    expect(typeof output).not.toBe('string');
    if (typeof output === 'string') return;
    const chunks: string[] = [];
    for await (const chunk of output) chunks.push(chunk);
    const whole = text(writeResult(feed(Array.from({ length: COUNT }, (_, id) => product(id))), format, context(version)));
    expect(chunks.length).toBeGreaterThan(10);
    expect(chunks.join('')).toBe(whole);
    // A chunk is flushed as soon as it reaches CHUNK_SIZE: at most one entry beyond it.
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(CHUNK_SIZE + 4096);
  });

  it('writes an empty streamed feed', async () => {
    const output = writeResult(feed(generate(0)), format, context(version));
    expect(typeof output).not.toBe('string');
    if (typeof output === 'string') return;
    const chunks: string[] = [];
    for await (const chunk of output) chunks.push(chunk);
    expect(chunks.join('')).toBe(text(writeResult(feed([]), format, context(version))));
  });
});

it('consumes the source lazily: nothing is read before the first chunk is asked for', async () => {
  let read = 0;
  async function* counting(): AsyncIterable<Entity> {
    for (let id = 0; id < COUNT; id++) {
      read++;
      yield product(id);
    }
  }
  const output = writeResult(feed(counting()), 'json', context('2.0'));
  if (typeof output === 'string') throw new Error('expected a stream');
  expect(read).toBe(0);
  const iterator = output[Symbol.asyncIterator]();
  await iterator.next();
  expect(read).toBeGreaterThan(0);
  expect(read).toBeLessThan(COUNT);
  await iterator.return?.();
});

// --- expanded feeds that stream (issue 11, item 8) ---------------------------------------------

describe('expanded feeds', () => {
  const suppliers = entitySet('Suppliers');
  const products = entitySet('Products');
  // Suppliers?$expand=Products/Supplier: every product with its supplier inline.
  const below = { select: undefined, expand: [expandItem(products, 'Supplier')] };
  const expandProducts = { select: undefined, expand: [expandItem(suppliers, 'Products', below)] };

  function supplier(id: number, productCount: number, stream: boolean): Entity {
    const base: Entity = { ID: id, Name: `Supplier ${id}`, Address: null, Concurrency: 0 };
    const items = Array.from({ length: productCount }, (_, i) => ({ ...product(id * 10_000 + i), Supplier: { ...base } }));
    return { ...base, Products: stream ? toStream(items) : items };
  }

  async function* toStream(items: readonly Entity[]): AsyncIterable<Entity> {
    for (const item of items) {
      await Promise.resolve();
      yield item;
    }
  }

  async function all(output: string | AsyncIterable<string>): Promise<{ streamed: boolean; text: string }> {
    if (typeof output === 'string') return { streamed: false, text: output };
    let text = '';
    for await (const chunk of output) text += chunk;
    return { streamed: true, text };
  }

  const budget = (limit: number) => ({ remaining: limit, limit });
  const supplierFeed = (entities: FeedResult['entities']): FeedResult => ({
    ...feed(entities),
    entitySet: suppliers,
    entityType: suppliers.entityType,
    selfPath: 'Suppliers',
    title: 'Suppliers',
    count: undefined,
    selectExpand: expandProducts,
  });

  describe.each(['json', 'atom'] as const)('in %s', (format) => {
    it('writes an async iterable inside an entry exactly as the array it stands for, chunked', async () => {
      const whole = await all(
        writeResult(supplierFeed([supplier(0, 300, false), supplier(1, 2, false)]), format, context('2.0', undefined, { expansionBudget: budget(10_000) })),
      );
      const streamed = await all(
        writeResult(supplierFeed([supplier(0, 300, true), supplier(1, 2, true)]), format, context('2.0', undefined, { expansionBudget: budget(10_000) })),
      );
      expect(whole.streamed).toBe(false);
      expect(streamed.streamed).toBe(true);
      expect(streamed.text).toBe(whole.text);
    });

    it('streams an array expansion of more than 1,000 entries, with the same text', async () => {
      const big = [supplier(0, 1200, false)];
      const output = await all(writeResult(supplierFeed(big), format, context('2.0', undefined, { expansionBudget: budget(10_000) })));
      expect(output.streamed).toBe(true);
      const entry = await all(
        writeResult(
          { kind: 'Entry', entitySet: suppliers, entityType: suppliers.entityType, entity: big[0], selectExpand: expandProducts },
          format,
          context('2.0', undefined, { expansionBudget: budget(10_000) }),
        ),
      );
      expect(entry.streamed).toBe(true);
      expect(output.text).toContain(format === 'json' ? '"ID":1199' : '<d:ID m:type="Edm.Int32">1199</d:ID>');
    });

    it.each([
      ['at once (arrays)', false, 10],
      ['while streaming', true, 10],
      ['while streaming a large array', false, 1100],
    ])('refuses more expanded entries than the budget allows, %s, before any text is handed on', async (_case, stream, count) => {
      // 2 entries per product (itself and its supplier): 2 * count > count + 1.
      const chunks: string[] = [];
      const failure = await (async () => {
        // At once: writeResult itself throws; streaming: the chunks do.
        const output = writeResult(supplierFeed([supplier(0, count, stream)]), format, context('2.0', undefined, { expansionBudget: budget(count + 1) }));
        if (typeof output === 'string') return undefined;
        for await (const chunk of output) chunks.push(chunk);
        return undefined;
      })().catch((error: unknown) => error);
      expect(failure).toMatchObject({ status: 400, code: 'QUERY_LIMIT_EXCEEDED' });
      expect(chunks).toEqual([]);
    });
  });
});
