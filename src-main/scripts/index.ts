import type { AreaModule } from '../core/area.js';

export * from './scripts-contract.js';

/** The facade other areas use (baselines, store). Filled in by the scripts service. */
export type ScriptsFacade = Record<string, never>;

/**
 * The scripts area (docs/scripts.md): post-install scripts with versions,
 * diff and rollback (core/text-versions.ts) and a per-kind check.
 */
export function scriptsArea(): AreaModule<'scripts', ScriptsFacade, Record<string, never>> {
  return {
    name: 'scripts',
    needs: ['templates'],
    create() {
      return { facade: {}, routes: [], services: [] };
    },
  };
}
