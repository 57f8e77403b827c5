/**
 * Runs `items` in `lanes` side by side: item i goes to lane i mod lanes, and each lane takes its items one after
 * another, in order. A lane stops at its first error and the others run on to their end; the error of the lowest
 * lane that failed is thrown once all have settled, so that no lane is still writing when the caller cleans up.
 */
export async function inLanes<T, L>(items: readonly T[], lanes: readonly L[], run: (item: T, lane: L) => Promise<void>): Promise<void> {
  if (!lanes.length) throw new Error('inLanes needs at least one lane');
  const settled = await Promise.allSettled(
    lanes.map(async (lane, l) => {
      for (let i = l; i < items.length; i += lanes.length) await run(items[i]!, lane);
    }),
  );
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
}
