import type { AreaModule } from '../core/area.js';

export * from './baselines-contract.js';

import type { BaselinesFacade } from './baselines-facade.js';

export type { BaselinesFacade } from './baselines-facade.js';

/**
 * The baselines area (docs/baselines.md): ordered script lists, their
 * assignment and resolution, per-host runtime tokens and run results.
 */
export function baselinesArea(): AreaModule<'baselines', BaselinesFacade, Record<string, never>> {
  return {
    name: 'baselines',
    needs: ['templates', 'profiles', 'hosts', 'netboot', 'scripts'],
    create() {
      // Placeholder until the baselines service lands (issue 16 work in progress).
      const notBuilt = (): never => {
        throw new Error('the baselines area is not built yet');
      };
      const facade: BaselinesFacade = { get: notBuilt, byName: notBuilt, list: notBuilt, validate: notBuilt, create: notBuilt, update: notBuilt, remove: notBuilt, assigned: notBuilt };
      return { facade, routes: [], services: [] };
    },
  };
}
