import type { AreaModule } from '../core/area.js';

export * from './community-store-contract.js';

export type CommunityStoreFacade = Record<string, never>;

/**
 * The community store area (docs/store.md): the shipped catalog under
 * resources/store/, verified remote feeds, and transactional import.
 */
export function communityStoreArea(): AreaModule<'community-store', CommunityStoreFacade, Record<string, never>> {
  return {
    name: 'community-store',
    needs: ['settings', 'profiles', 'netboot', 'scripts', 'baselines'],
    create() {
      return { facade: {}, routes: [], services: [] };
    },
  };
}
