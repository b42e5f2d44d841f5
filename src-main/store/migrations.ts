import type { Migration } from './store-file.js';

/**
 * Ordered migrations per store file. Append, never edit: a file records the
 * version it reached and only later migrations run on it at start.
 */
export const STORE_MIGRATIONS: Record<StoreFileName, readonly Migration[]> = {
  config: [{ version: 1, description: 'initial layout', up: () => undefined }],
  auth: [{ version: 1, description: 'initial layout', up: () => undefined }],
  events: [{ version: 1, description: 'initial layout', up: () => undefined }],
  audit: [{ version: 1, description: 'initial layout', up: () => undefined }],
};

/**
 * The store's files: configuration apart from the hot collections, so event,
 * audit and session churn never rewrites the configuration.
 */
export type StoreFileName = 'config' | 'auth' | 'events' | 'audit';

export const STORE_FILE_NAMES: readonly StoreFileName[] = ['config', 'auth', 'events', 'audit'];
