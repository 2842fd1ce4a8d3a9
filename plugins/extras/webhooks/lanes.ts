/**
 * Runs `work` for each item in order, at most `limit` at once. A failure stops the items not started yet; the ones
 * under way end first, then the first failure is thrown.
 */
export async function eachAtMost<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++];
      await work(item).catch((err: unknown) => {
        next = items.length;
        throw err;
      });
    }
  };
  const ended = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, lane));
  const failed = ended.find((e): e is PromiseRejectedResult => e.status === 'rejected');
  if (failed) throw failed.reason;
}
