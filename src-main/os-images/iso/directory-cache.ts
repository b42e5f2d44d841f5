import type { IsoEntry } from './iso-directory.js';

/** A parsed directory with its name lookups. */
export interface ParsedDirectory {
  entries: IsoEntry[];
  byName: Map<string, IsoEntry>;
  /** Lower-cased names that name exactly one entry (null: more than one), for a case-insensitive second try. */
  byFoldedName: Map<string, IsoEntry | null>;
}

export function parsedDirectory(entries: IsoEntry[]): ParsedDirectory {
  const byName = new Map<string, IsoEntry>();
  const byFoldedName = new Map<string, IsoEntry | null>();
  for (const entry of entries) {
    if (!byName.has(entry.name)) byName.set(entry.name, entry);
    const folded = entry.name.toLowerCase();
    byFoldedName.set(folded, byFoldedName.has(folded) ? null : entry);
  }
  return { entries, byName, byFoldedName };
}

/**
 * Parsed directories by extent offset, least recently used out first, bounded
 * by the entries they hold. Concurrent lookups of one directory share one
 * read; a failed read is not kept.
 */
export class DirectoryCache {
  private readonly directories = new Map<number, { promise: Promise<ParsedDirectory>; entries: number }>();
  private held = 0;

  constructor(private readonly maxEntries: number) {}

  get(offset: number, load: () => Promise<IsoEntry[]>): Promise<ParsedDirectory> {
    const cached = this.directories.get(offset);
    if (cached) {
      this.directories.delete(offset);
      this.directories.set(offset, cached);
      return cached.promise;
    }
    const slot = { promise: load().then(parsedDirectory), entries: 0 };
    this.directories.set(offset, slot);
    slot.promise.then(
      (directory) => {
        if (this.directories.get(offset) !== slot) return;
        slot.entries = directory.entries.length;
        this.held += slot.entries;
        this.evict();
      },
      () => {
        if (this.directories.get(offset) === slot) this.directories.delete(offset);
      },
    );
    return slot.promise;
  }

  private evict(): void {
    for (const [offset, slot] of this.directories) {
      if (this.held <= this.maxEntries || this.directories.size <= 1) return;
      this.directories.delete(offset);
      this.held -= slot.entries;
    }
  }

  clear(): void {
    this.directories.clear();
    this.held = 0;
  }
}
