import { STORE_ITEM_TYPES, type StoreCatalogQuery, type StoreConflict, type StoreFeedStatus, type StoreImport, type StoreImportLocal, type StoreImportResult, type StoreItem, type StoreItemDetail, type StoreItemType } from '@contracts/community-store';
import type { ApiClient } from '../api-client.js';
import { isApiError } from '../api-error.js';
import { segment, withQuery } from '../query-string.js';

/**
 * The store's API (src-main/community-store/…-routes.ts), typed by its
 * contract. The catalog is read with `get`, which takes the data of a paged
 * answer as well as of a plain one.
 */
export function storeClient(client: ApiClient) {
  return {
    /** Filters type, source and q (words in name, summary, tags). */
    catalog: (query: StoreCatalogQuery = {}): Promise<StoreItem[]> => client.get(withQuery('/store/catalog', query)),
    item: (type: StoreItemType, id: string, source?: string): Promise<StoreItemDetail> => client.get(withQuery(`/store/items/${segment(type)}/${segment(id)}`, { source })),
    /** `on_conflict: 'ask'` (the default) answers 409 with the conflicts in the error's details (importConflicts). */
    import: (body: StoreImport): Promise<StoreImportResult> => client.post('/store/import', body),
    importLocal: (body: StoreImportLocal): Promise<StoreImportResult> => client.post('/store/import-local', body),
    feeds: (): Promise<StoreFeedStatus[]> => client.get('/store/feeds'),
  };
}

function isItemType(value: unknown): value is StoreItemType {
  return typeof value === 'string' && (STORE_ITEM_TYPES as readonly string[]).includes(value);
}

function asConflict(value: unknown): StoreConflict | null {
  if (typeof value !== 'object' || value === null) return null;
  const item = value as Record<string, unknown>;
  if (typeof item.key !== 'string' || !isItemType(item.type) || typeof item.name !== 'string' || typeof item.existing_id !== 'number') return null;
  return { key: item.key, type: item.type, name: item.name, existing_id: item.existing_id };
}

/**
 * The conflicts of an import the server refused with 409 (`on_conflict:
 * ask`), from the error's details; null for any other failure (including a
 * 409 without conflict details, which is then just an error to show).
 */
export function importConflicts(error: unknown): StoreConflict[] | null {
  if (!isApiError(error) || error.status !== 409) return null;
  const conflicts = error.rawDetails.map(asConflict).filter((conflict): conflict is StoreConflict => conflict !== null);
  return conflicts.length > 0 ? conflicts : null;
}
