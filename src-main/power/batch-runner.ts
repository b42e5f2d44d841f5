/** The outcome of one item of a batch: its value, or the error it failed with. */
export type BatchOutcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

export const DEFAULT_BATCH_CONCURRENCY = 8;

/**
 * Runs `worker` over `items` with at most `concurrency` in flight and
 * returns one outcome per item, in input order. One item's failure never
 * fails the batch; `onSettled` is told after each item (for progress).
 */
export async function runBatch<T, R>(
  items: readonly T[],
  concurrency: number,
  worker: (item: T, index: number) => Promise<R>,
  onSettled?: (done: number, outcome: BatchOutcome<R>, item: T) => void,
): Promise<BatchOutcome<R>[]> {
  const outcomes: BatchOutcome<R>[] = new Array<BatchOutcome<R>>(items.length);
  let next = 0;
  let done = 0;
  const lanes = Math.max(1, Math.min(Math.floor(concurrency) || 1, items.length));
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next;
      next += 1;
      const item = items[index]!;
      let outcome: BatchOutcome<R>;
      try {
        outcome = { ok: true, value: await worker(item, index) };
      } catch (error) {
        outcome = { ok: false, error };
      }
      outcomes[index] = outcome;
      done += 1;
      try {
        onSettled?.(done, outcome, item);
      } catch {
        // Progress reporting must not change the batch's outcome.
      }
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return outcomes;
}
