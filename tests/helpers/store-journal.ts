import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * What a store collection holds on disk (docs/architecture.md, "The store"):
 * the text of its snapshot and journals under `collections/<file>/`, each
 * journal up to its zero-filled stretch. For tests that check what reaches
 * the disk (no secret in it, how much is written).
 */
export async function collectionOnDisk(dataDir: string, file: string, name: string): Promise<string> {
  const dir = path.join(dataDir, 'collections', file);
  const names = (await readdir(dir).catch(() => [] as string[])).filter((entry) => /^(.+)\.(snapshot|\d+)\.jsonl$/.exec(entry)?.[1] === name).sort();
  const texts = await Promise.all(names.map(async (entry) => {
    const text = await readFile(path.join(dir, entry), 'utf8');
    const nul = text.indexOf('\0');
    return nul < 0 ? text : text.slice(0, nul);
  }));
  return texts.join('');
}
