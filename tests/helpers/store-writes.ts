import type { Store } from '../../src-main/store/store.js';

/**
 * Counts the rewrites of config.json made while `run` runs, by watching its
 * data object being serialised (what the durable write does once per write).
 */
export async function countConfigWrites(store: Store, run: () => Promise<unknown>): Promise<number> {
  const data = store.file('config').data;
  let writes = 0;
  const stringify = JSON.stringify;
  JSON.stringify = ((...args: Parameters<typeof JSON.stringify>) => {
    if (args[0] === data) writes += 1;
    return stringify(...args);
  }) as typeof JSON.stringify;
  try {
    await run();
  } finally {
    JSON.stringify = stringify;
  }
  return writes;
}
