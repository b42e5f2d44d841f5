import type { AlertsFacade } from '../alerts/index.js';
import { bmcAlerts } from './bmc-alerts.js';
import type { AreaModule } from '../core/area.js';
import { bmcRoutes } from './bmc-routes.js';
import type { HostDirectory } from './host-directory.js';
import { hostPowerRoutes } from './host-power-routes.js';
import { PowerService, type PowerOptions } from './power-service.js';
import { wolRoutes } from './wol-routes.js';

/** The power area's public surface (docs/power.md). */
export { PowerService, type PowerDeps, type PowerOptions } from './power-service.js';
export type { HostDirectory, HostDirectorySource, PowerHost } from './host-directory.js';
export { BmcError } from './bmc-error.js';
export type { BmcConnection, BmcTarget } from './bmc-client.js';
export {
  BMC_BATCH_ACTIONS,
  BMC_ERROR_REASONS,
  BMC_PROTOCOLS,
  BOOT_DEVICES,
  HOST_POWER_ACTIONS,
  POWER_ACTIONS,
  POWER_STATES,
  type BmcConfigView,
  type BmcErrorReason,
  type PowerOutcome,
  type WakeResult,
} from './power-contract.js';
export { ManualClock, systemClock, type SchedulerClock } from './wol/scheduler-clock.js';
export type { WolDatagram, WolTransport } from './wol/wol-sender.js';
export { bmcRoutes } from './bmc-routes.js';
export { wolRoutes } from './wol-routes.js';
export { hostPowerRoutes } from './host-power-routes.js';

/** Options of the power area: the test seams (clock, WOL socket, BMC timing and connector). */
export type PowerAreaOptions = PowerOptions;

/**
 * The power area module (docs/architecture.md, "Area folders"): the facade
 * is the PowerService (`ctx.power`: WOL, schedules, BMC), the routes are
 * /wol/*, /bmc/* and /hosts/{id}/{wake,power}; it has no network server of
 * its own (magic packets and BMC sessions are outgoing). start() arms the WOL
 * schedules, stop() clears them and waits for a run in progress.
 */
export function powerArea(seams: PowerAreaOptions = {}): AreaModule<'power', PowerService, { hosts: HostDirectory; alerts: Pick<AlertsFacade, 'addSource'> }> {
  return {
    name: 'power',
    needs: ['hosts', 'alerts'],
    create(kernel, { hosts: directory, alerts }) {
      const hosts = () => directory;
      const power = new PowerService(
        { secrets: kernel.secrets, store: kernel.store, events: kernel.events, log: kernel.log, metrics: kernel.metrics, network: kernel.network, hosts },
        seams,
      );
      alerts.addSource('power', () => bmcAlerts(power.bmc.configs.all()));
      return {
        facade: power,
        routes: [wolRoutes(power), bmcRoutes(power.bmc), hostPowerRoutes(power)],
        services: [],
        start: () => power.start(),
        stop: () => power.stop(),
      };
    },
  };
}
