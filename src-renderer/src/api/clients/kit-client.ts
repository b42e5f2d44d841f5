import { KIT_SECTIONS, type KitExport, type KitImport, type KitImportResult, type KitSection } from '@contracts/kit';
import type { ApiClient } from '../api-client.js';
import { isApiError } from '../api-error.js';

/** The kit API (src-main/kit/kit-routes.ts), typed by its contract. */
export function kitClient(client: ApiClient) {
  return {
    /** The kit file's text (YAML). */
    export: (body: KitExport): Promise<string> => client.postText('/kit/export', body),
    /** `on_conflict: 'ask'` (the default) answers 409 with the open conflicts in the error's details (kitConflicts). */
    import: (body: KitImport): Promise<KitImportResult> => client.post('/kit/import', body),
  };
}

/** One open conflict of a kit import (the 409's details). */
export interface KitConflict {
  key: string;
  section: KitSection;
  name: string;
  existing_id: number;
}

function asConflict(value: unknown): KitConflict | null {
  if (typeof value !== 'object' || value === null) return null;
  const item = value as Record<string, unknown>;
  if (typeof item.key !== 'string' || typeof item.type !== 'string' || !(KIT_SECTIONS as readonly string[]).includes(item.type) || typeof item.name !== 'string' || typeof item.existing_id !== 'number') return null;
  return { key: item.key, section: item.type as KitSection, name: item.name, existing_id: item.existing_id };
}

/** The conflicts of an import refused with 409; null for any other failure. */
export function kitConflicts(error: unknown): KitConflict[] | null {
  if (!isApiError(error) || error.status !== 409) return null;
  const conflicts = error.rawDetails.map(asConflict).filter((conflict): conflict is KitConflict => conflict !== null);
  return conflicts.length > 0 ? conflicts : null;
}
