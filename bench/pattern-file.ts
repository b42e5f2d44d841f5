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
