import type { AreaModule } from '../core/area.js';

export * from './baselines-contract.js';

/** The facade other areas use (store). Filled in by the baselines service. */
export type BaselinesFacade = Record<string, never>;

/**
 * The baselines area (docs/baselines.md): ordered script lists, their
 * assignment and resolution, per-host runtime tokens and run results.
 */
export function baselinesArea(): AreaModule<'baselines', BaselinesFacade, Record<string, never>> {
  return {
    name: 'baselines',
    needs: ['templates', 'profiles', 'hosts', 'netboot', 'scripts'],
    create() {
      return { facade: {}, routes: [], services: [] };
    },
  };
}
