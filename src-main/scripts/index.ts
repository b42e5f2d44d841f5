import type { AreaModule } from '../core/area.js';

export * from './scripts-contract.js';

import type { ScriptsFacade } from './scripts-facade.js';

export type { ScriptsFacade } from './scripts-facade.js';

/**
 * The scripts area (docs/scripts.md): post-install scripts with versions,
 * diff and rollback (core/text-versions.ts) and a per-kind check.
 */
export function scriptsArea(): AreaModule<'scripts', ScriptsFacade, Record<string, never>> {
  return {
    name: 'scripts',
    needs: ['templates'],
    create() {
      // Placeholder until the scripts service lands (issue 16 work in progress).
      const notBuilt = (): never => {
        throw new Error('the scripts area is not built yet');
      };
      const facade: ScriptsFacade = { get: notBuilt, byName: notBuilt, list: notBuilt, validate: notBuilt, create: notBuilt, update: notBuilt, remove: notBuilt, check: notBuilt, addUsageCheck: () => undefined };
      return { facade, routes: [], services: [] };
    },
  };
}
