import type { StoreConflict, StoreImportResult, StoreItemType } from '@contracts/community-store';

export type Resolution = 'rename' | 'skip' | 'overwrite';

/** What is being imported: a catalog item, or a file the user chose (its text). */
export type ImportTarget =
  | { kind: 'item'; type: StoreItemType; id: string; source: string; name: string }
  | { kind: 'local'; content: string; filename: string };

/**
 * Where the import dialog stands. It always checks first (a dry run), asks
 * about every conflict the server reports (nothing is overwritten or renamed
 * without a choice), shows the plan, and only then imports.
 */
export type ImportPhase =
  | { step: 'checking' }
  | { step: 'conflicts'; conflicts: StoreConflict[] }
  | { step: 'plan'; plan: StoreImportResult }
  | { step: 'importing'; plan: StoreImportResult }
  | { step: 'failed'; message: string };

/** Conflicts known so far plus the new ones (a later check may find more), by key. */
export function mergeConflicts(known: readonly StoreConflict[], found: readonly StoreConflict[]): StoreConflict[] {
  const byKey = new Map(known.map((conflict) => [conflict.key, conflict]));
  for (const conflict of found) byKey.set(conflict.key, conflict);
  return [...byKey.values()];
}

/** Every conflict has a choice. */
export function allResolved(conflicts: readonly StoreConflict[], resolutions: Readonly<Record<string, Resolution>>): boolean {
  return conflicts.every((conflict) => resolutions[conflict.key] !== undefined);
}

export function targetName(target: ImportTarget): string {
  return target.kind === 'item' ? target.name : target.filename;
}
