import type { Store } from '../../src-main/store/store.js';

/**
 * Counts the writes to the configuration made while `run` runs: records
 * appended to the journals of its collections, plus rewrites of config.json
 * (its sections), seen as the serialisation of its sections object (what the
 * durable write does once per write).
 */
export async function countConfigWrites(store: Store, run: () => Promise<unknown>): Promise<number> {
  const sections = store.file('config').data.sections;
  const recordsBefore = store.recordsWritten('config');
  let rewrites = 0;
  const stringify = JSON.stringify;
  JSON.stringify = ((...args: Parameters<typeof JSON.stringify>) => {
    const value = args[0] as { sections?: unknown } | null;
    if (typeof value === 'object' && value !== null && value.sections === sections) rewrites += 1;
    return stringify(...args);
  }) as typeof JSON.stringify;
  try {
    await run();
  } finally {
    JSON.stringify = stringify;
  }
  return rewrites + store.recordsWritten('config') - recordsBefore;
}
