import type { AreaModule } from '../core/area.js';
import { AlertCenter } from './alert-center.js';
import { alertRoutes } from './alerts-routes.js';
import { missingFileAlerts, serviceAlerts } from './core-sources.js';

export { AlertCenter, type AlertSource } from './alert-center.js';
export type { Alert, RaisedAlert } from './alerts-contract.js';

/** What later areas use: add their alert source (`alerts.addSource('dhcp', …)`). */
export type AlertsFacade = Pick<AlertCenter, 'addSource' | 'current' | 'dismiss'>;

/**
 * The alerts area (docs/alerts.md): the alert centre, GET /alerts and
 * POST /alerts/{id}/dismiss. It watches the services and the TFTP failures
 * in the event log itself; later areas add their own sources (DHCP's foreign
 * servers, the boot-loader check, failing BMCs).
 */
export function alertsArea(): AreaModule<'alerts', AlertsFacade> {
  return {
    name: 'alerts',
    needs: [],
    create(kernel) {
      const center = new AlertCenter({ store: kernel.store, log: kernel.log });
      center.addSource('services', () => serviceAlerts(kernel.services.list()));
      center.addSource('tftp', () => missingFileAlerts(kernel.events.all(), Date.now()));
      return { facade: center, routes: [alertRoutes(center)], services: [] };
    },
  };
}


