import type { AreaModule } from '../core/area.js';
import type { ServiceManager } from './service-manager.js';
import { serviceRoutes } from './services-routes.js';

export { ServiceManager, type ManagedService } from './service-manager.js';
export * from './services-contract.js';
export { serviceRoutes } from './services-routes.js';

/**
 * The services area (docs/architecture.md, "Area folders"): the facade is the
 * kernel's service manager; the routes list the services, start, stop and
 * restart them (one or a batch) and set their auto-start flags.
 */
export function servicesArea(): AreaModule<'services', ServiceManager, Record<string, never>> {
  return {
    name: 'services',
    needs: [],
    create(kernel) {
      return { facade: kernel.services, routes: [serviceRoutes(kernel.services)], services: [] };
    },
  };
}
