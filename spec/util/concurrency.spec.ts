/** mapConcurrently: results in item order, never more than `limit` calls at once, the first failure thrown after the running calls settle. */
import { mapConcurrently } from '../../lib/util';

const tick = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('mapConcurrently', () => {
  it.each([
    [0, 3, 0],
    [1, 3, 1],
    [7, 1, 1],
    [7, 3, 3],
    [2, 5, 2],
  ])('of %i items with limit %i runs at most %i at once, results in item order', async (count, limit, most) => {
    let running = 0;
    let seen = 0;
    const items = Array.from({ length: count }, (_, i) => i);
    const results = await mapConcurrently(items, limit, async (item) => {
      running++;
      seen = Math.max(seen, running);
      // Later items finish first: the order of the results is still the items'.
      await tick(count - item);
      running--;
      return item * 10;
    });
    expect(results).toEqual(items.map((item) => item * 10));
    expect(seen).toBe(most);
  });

  it('starts no item after a failure, lets the running ones settle, and throws the first failure', async () => {
    const started: number[] = [];
    const settled: number[] = [];
    const failing = mapConcurrently([0, 1, 2, 3, 4, 5], 2, async (item) => {
      started.push(item);
      await tick(item === 1 ? 1 : 5);
      settled.push(item);
      if (item === 1) throw new Error('item 1 failed');
      return item;
    });
    await expect(failing).rejects.toThrow('item 1 failed');
    expect(started).toEqual([0, 1]);
    expect(settled.sort()).toEqual([0, 1]);
  });
});
