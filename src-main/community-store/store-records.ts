import type { Collection, Row } from '../store/collection.js';
import type { Store } from '../store/store.js';
import type { StoreItemType } from './community-store-contract.js';
import type { PlannedAction } from './import-plan.js';
import type { TargetType } from './import-targets.js';

/*
 * The store's own collections (docs/store.md, "Provenance" and "All or
 * nothing"): where each installed item came from, and the record of an
 * import in progress, written before its first write so a crash part-way
 * can be undone at the next start.
 */

export const PROVENANCE_COLLECTION = 'store_provenance';
export const IMPORTS_COLLECTION = 'store_imports';

/** What one import installed of one catalog item. The newest row per (type, store id, source) is the current one. */
export interface ProvenanceRow extends Row {
  type: StoreItemType;
  store_id: string;
  source: string;
  version: string;
  sha256: string;
  local: { type: StoreItemType; id: number; name: string }[];
  imported_at: string;
  imported_by: string;
  import_id: number;
}

/** One write of an import: recorded before it is made (local_id null until it is done). */
export interface ImportStep {
  key: string;
  type: TargetType;
  action: Exclude<PlannedAction, 'skipped'>;
  name: string;
  local_id: number | null;
  /** The overwritten resource as read before the write (restored on undo). */
  before: unknown;
  done: boolean;
}

export interface ImportRow extends Row {
  status: 'pending' | 'done' | 'rolled_back';
  key: string;
  source: string;
  by: string;
  steps: ImportStep[];
  /** Why it was rolled back (the error of the failed write, or "interrupted"). */
  error: string | null;
}

export function provenanceRows(store: Store): Collection<ProvenanceRow> {
  return store.collection<ProvenanceRow>(PROVENANCE_COLLECTION);
}

export function importRows(store: Store): Collection<ImportRow> {
  return store.collection<ImportRow>(IMPORTS_COLLECTION);
}

/** The current provenance of a catalog item (newest import), if any. */
export function latestProvenance(rows: Collection<ProvenanceRow>, type: StoreItemType, storeId: string, source: string): ProvenanceRow | undefined {
  let latest: ProvenanceRow | undefined;
  for (const row of rows.filter((item) => item.type === type && item.store_id === storeId && item.source === source)) {
    if (!latest || row.id > latest.id) latest = row;
  }
  return latest;
}
