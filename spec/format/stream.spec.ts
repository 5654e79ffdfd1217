/** Streaming: a feed from an async iterable comes out in bounded chunks equal to the string form. */
import { CHUNK_SIZE, writeResult } from '../../lib/format';
import type { Entity } from '../../lib/provider/types';
import type { FeedResult } from '../../lib/result';
import { ALL, context, entitySet, text } from './support';

const COUNT = 10_000;

function product(id: number): Entity {
  return { ID: id, Name: `Product ${id}`, Description: 'x', ReleaseDate: new Date(Date.UTC(2000, 0, 1) + id * 1000), DiscontinuedDate: null, Rating: id % 5, Price: `${id}.5` };
}

async function* generate(count: number): AsyncIterable<Entity> {
  for (let id = 0; id < count; id++) {
    if (id % 1000 === 0) await Promise.resolve();
    yield product(id);
  }
}

function feed(entities: FeedResult['entities']): FeedResult {
  const set = entitySet('Products');
  return { kind: 'Feed', entitySet: set, entityType: set.entityType, selfPath: 'Products', title: 'Products', entities, count: COUNT, nextLink: undefined, selectExpand: ALL };
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
