import { describe, expect, it } from 'vitest';
import { runBatch } from '../../../src-main/power/batch-runner.js';

describe('batch runner', () => {
  it('keeps at most `concurrency` items in flight and answers in input order', async () => {
    let inFlight = 0;
    let peak = 0;
    const progress: number[] = [];
    const items = Array.from({ length: 20 }, (_, i) => i);
    const outcomes = await runBatch(
      items,
      3,
      async (item) => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight -= 1;
        if (item % 5 === 0) throw new Error(`item ${item} failed`);
        return item * 2;
      },
      (done) => progress.push(done),
    );
    expect(peak).toBe(3);
    expect(progress).toEqual(items.map((i) => i + 1));
    expect(outcomes.map((o) => (o.ok ? o.value : `error: ${(o.error as Error).message}`))).toEqual(
      items.map((i) => (i % 5 === 0 ? `error: item ${i} failed` : i * 2)),
    );
  });

  it('survives a throwing progress callback and an empty batch', async () => {
    expect(await runBatch([], 8, async () => 1)).toEqual([]);
    const outcomes = await runBatch([1, 2], 8, async (x) => x, () => {
      throw new Error('observer broke');
    });
    expect(outcomes).toEqual([{ ok: true, value: 1 }, { ok: true, value: 2 }]);
  });
});
