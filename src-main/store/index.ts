export { Store, type StoreOptions } from './store.js';
export { Collection, type Row, type NewRow, type RowPatch } from './collection.js';
export { Section } from './section.js';
export type { RecoveryReport } from './durable-json-adapter.js';
export type { StoreFileName } from './migrations.js';
