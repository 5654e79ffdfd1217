/**
 * `work` applied to every item with at most `limit` calls running at once; the results in item
 * order. After a failure no further item starts, the running ones settle (none is left running
 * unobserved), and the first failure is thrown.
 */
export async function mapConcurrently<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { readonly error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index]);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  const workers: Promise<void>[] = [];
  for (let i = 0; i < Math.min(Math.max(1, limit), items.length); i++) workers.push(worker());
  await Promise.all(workers);
  if (failure !== undefined) throw failure.error;
  return results;
}

/** Resolves after `milliseconds` (at once for 0 or less): the pause between retries. */
export function pause(milliseconds: number): Promise<void> {
  return milliseconds > 0 ? new Promise((resolve) => setTimeout(resolve, milliseconds)) : Promise.resolve();
}
