import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { AppError, errorMessage } from '../core/errors.js';
import { PROJECT_ROOT } from '../core/version.js';
import { BUILTIN_SOURCE } from './community-store-contract.js';
import { checkAgainstIndex, checkIndex, checkItemFile, itemKey, parseText, type StoreIndexEntry, type StoreItemFile } from './item-format.js';

/** The shipped catalog's folder: `store` beside the packaged app (process.resourcesPath), else resources/store. */
export function defaultStoreDir(): string {
  const resourcesPath = (process as NodeJS.Process & { resourcesPath?: string }).resourcesPath;
  if (resourcesPath) {
    const packaged = path.join(resourcesPath, 'store');
    if (existsSync(packaged)) return packaged;
  }
  return path.join(PROJECT_ROOT, 'resources', 'store');
}

/** A loaded source: its index entries and their item files, all checked. */
export interface LoadedCatalog {
  entries: readonly StoreIndexEntry[];
  items: ReadonlyMap<string, StoreItemFile>;
}

/**
 * Reads the shipped catalog (index.yaml and the item files it lists) and
 * checks it as a feed is checked: item shape, identity and payload digest
 * against the index. A broken shipped catalog is a build error, so this
 * throws (the area then refuses to start, like the netboot catalog).
 */
export async function loadBuiltinCatalog(dir: string): Promise<LoadedCatalog> {
  const indexFile = path.join(dir, 'index.yaml');
  const index = checkIndex(parseText(await readFile(indexFile, 'utf8'), indexFile), 'index');
  const items = new Map<string, StoreItemFile>();
  for (const entry of index.items) {
    const file = path.join(dir, entry.file);
    try {
      const item = checkItemFile(parseText(await readFile(file, 'utf8'), file), entry.file);
      checkAgainstIndex(item, entry, BUILTIN_SOURCE);
      items.set(itemKey(entry.type, entry.id), item);
    } catch (err) {
      throw new AppError('INTERNAL', `the shipped store catalog is broken at ${file}: ${errorMessage(err)}`);
    }
  }
  return { entries: index.items, items };
}
