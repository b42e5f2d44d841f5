import type { Collection, Row } from '../store/collection.js';
import type { Store } from '../store/store.js';
import type { KitSection } from './kit-contract.js';

/*
 * The record of a kit import in progress (docs/kit.md, "All or nothing"),
 * written before its first write so a crash part-way is undone at the next
 * start — the store import's scheme (docs/store.md).
 */

export const KIT_IMPORTS_COLLECTION = 'kit_imports';

/** One write of an import: recorded before it is made (local_id null until it is done). */
export interface KitImportStep {
  key: string;
  section: KitSection;
  action: 'created' | 'overwritten' | 'renamed';
  /** What the target's lookup finds the written item by (the undo of a write a crash cut short). */
  lookup_key: string;
  local_id: number | null;
  /** The overwritten item as read before the write (restored on undo); never a secret in clear. */
  before: unknown;
  done: boolean;
}

export interface KitImportRow extends Row {
  status: 'pending' | 'done' | 'rolled_back';
  by: string;
  steps: KitImportStep[];
  /** Why it was rolled back. */
  error: string | null;
}

export function kitImportRows(store: Store): Collection<KitImportRow> {
  return store.collection<KitImportRow>(KIT_IMPORTS_COLLECTION);
}
