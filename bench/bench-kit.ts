import { open } from 'node:fs/promises';

const MiB = 1024 * 1024;

/**
 * A file of `bytes` non-repeating-ish bytes, written a MiB at a time: nothing
 * on either side of a bench can shortcut zeros or holes, and making it costs
 * no random-number generation.
 */
export async function patternFile(file: string, bytes: number): Promise<void> {
  const block = Buffer.allocUnsafe(MiB);
  for (let i = 0; i < MiB; i += 4) block.writeUInt32LE((i * 2654435761) >>> 0, i);
  const handle = await open(file, 'w');
  try {
    for (let written = 0; written < bytes; written += MiB) {
      block.writeUInt32LE(written >>> 0, 0);
      await handle.write(block, 0, Math.min(MiB, bytes - written));
    }
  } finally {
    await handle.close();
  }
}

/** The middle value; of an even count, the upper of the two middle ones. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Seconds `work` took (wall time). */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e9;
}
