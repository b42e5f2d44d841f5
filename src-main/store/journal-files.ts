import { promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * Writes `lines` to `file` so that it is complete and on disk when the
 * promise resolves: a temporary file written in slices (yielding between
 * them, so a snapshot of 100,000 rows does not stall the event loop),
 * fsync'ed, renamed over the old file, then the directory fsync'ed. A crash
 * at any point leaves either the old file or the new one.
 */
export async function writeAtomicLines(file: string, lines: Iterable<string>): Promise<void> {
  const temp = `${file}.tmp`;
  const handle = await fs.open(temp, 'w', 0o600);
  try {
    let chunk: string[] = [];
    let size = 0;
    for (const line of lines) {
      chunk.push(line);
      size += line.length;
      if (size >= 1 << 20) {
        await handle.write(chunk.join(''));
        chunk = [];
        size = 0;
      }
    }
    await handle.write(chunk.join(''));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(temp, file);
  await syncDirectory(path.dirname(file));
}

/** fsync of the directory makes a rename or a new entry durable (POSIX leaves it to the directory). */
export async function syncDirectory(dir: string): Promise<void> {
  // Windows cannot open directories.
  if (process.platform === 'win32') return;
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
