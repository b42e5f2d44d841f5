import path from 'node:path';
import type { AreaModule } from '../core/area.js';
import type { DnsService } from '../dns/index.js';
import type { AlertsFacade } from '../alerts/index.js';
import { guardAlerts } from './guard-alerts.js';
import type { NetworkService } from '../network/network-service.js';
import { AccessPolicy } from './access-policy.js';
import { accessRoutes } from './access-routes.js';
import { Archmap } from './archmap.js';
import { dhcpSettingsRoutes } from './dhcp-settings-routes.js';
import { DhcpSettings } from './dhcp-settings.js';
import { leaseRoutes } from './lease-routes.js';
import { LeaseDatabase, leaseNameSource } from './leases.js';
import { reservationRoutes } from './reservation-routes.js';
import { rogueRoutes } from './rogue-routes.js';
import { Reservations } from './reservations.js';
import { DhcpService, type DhcpServiceOptions } from './server/dhcp-service.js';
import type { RogueGuard } from './server/rogue-guard.js';
import { observeJournal, registerLeaseGauges } from './server/lease-gauges.js';

export { AccessPolicy, type AccessMode, type UnauthorizedInfo } from './access-policy.js';
export { Archmap, type ArchmapEntry } from './archmap.js';
export { DhcpSettings } from './dhcp-settings.js';
export { LeaseDatabase, leaseNameSource, type Lease } from './leases.js';
export { Reservations, type DhcpReservation, type HostReservationInput } from './reservations.js';
export { DhcpService, type DhcpServiceDeps, type DhcpServiceOptions } from './server/dhcp-service.js';
export type { RogueGuard } from './server/rogue-guard.js';

/** The DHCP area's facade (`ctx.dhcpSettings`, `ctx.leases`, … while AppContext lasts). */
export interface DhcpFacade {
  settings: DhcpSettings;
  leases: LeaseDatabase;
  reservations: Reservations;
  /** MAC access control; the boot chain (TFTP/HTTP script serving) checks it too. */
  access: AccessPolicy;
  /** Option 93 code → boot files; the boot loader check reads it. */
  archmap: Archmap;
  /** The rogue-DHCP guard: on-demand probes (POST /dhcp/probe) and what it decided and saw (GET /dhcp/guard). */
  guard: RogueGuard;
}

/** What DHCP takes from the DNS area: option 15's default domain, and a name source for leases with a hostname. */
export type DhcpDnsNeeds = Pick<DnsService, 'settings' | 'addNameSource'>;

/** Options of the DHCP area the core passes through from its own (tests set them). */
export type DhcpAreaOptions = Pick<DhcpServiceOptions, 'ping' | 'ports' | 'sweepMs' | 'prober' | 'recheckMs'>;

/** Every IPv4 address of this machine (validation: a pool must not hold one of ours). */
export function ownIpv4Addresses(network: NetworkService): string[] {
  const out = new Set<string>();
  for (const nic of network.list()) for (const address of nic.addresses) if (address.family === 'ipv4') out.add(address.address);
  for (const resolved of network.resolvedAddresses()) if (!resolved.address.includes(':')) out.add(resolved.address);
  return [...out];
}

/**
 * The DHCP area module (docs/architecture.md, "Area folders"): the facade is
 * the settings, lease journal (`<data-dir>/dhcp/`), reservations, access
 * policy and architecture map; the routes are /services/dhcp,
 * /services/archmap, /leases, /dhcp/reservations and /access; the service is
 * the DHCP server. It needs DNS: active leases with a hostname answer there,
 * and DNS's local domain is option 15's default.
 */
export function dhcpArea(options: DhcpAreaOptions = {}): AreaModule<'dhcp', DhcpFacade, { dns: DhcpDnsNeeds; alerts: Pick<AlertsFacade, 'addSource'> }> {
  return {
    name: 'dhcp',
    needs: ['dns', 'alerts'],
    async create(kernel, { dns, alerts }) {
      const { store, log, network, metrics, http } = kernel;
      const ownAddresses = () => ownIpv4Addresses(network);
      const settings = new DhcpSettings({ store, ownAddresses, log });
      const leases = await LeaseDatabase.open({ dir: path.join(kernel.config.dataDir, 'dhcp'), log });
      const parts = {
        settings,
        leases,
        access: new AccessPolicy({ store, mode: () => settings.current().access_mode, log }),
        reservations: new Reservations({ store, settings, ownAddresses }),
        archmap: new Archmap(store),
      };
      registerLeaseGauges({ metrics, settings, leases });
      observeJournal({ metrics, leases });
      dns.addNameSource(leaseNameSource(leases));
      const service = new DhcpService(
        { ...kernel, ...parts },
        {
          ...options,
          // Boot URLs point at the HTTP server; its port is known only once it listens (port 0 in tests).
          httpBase: (address) => `${http.scheme}://${address}:${http.port()}`,
          localDomain: () => dns.settings.get().local_domain,
        },
      );
      const facade: DhcpFacade = { ...parts, guard: service.guard };
      alerts.addSource('dhcp', () => guardAlerts(service.guard.status()));
      return {
        facade,
        routes: [dhcpSettingsRoutes(facade), leaseRoutes(facade), reservationRoutes(facade.reservations), accessRoutes(facade.access), rogueRoutes(facade.guard)],
        services: [service],
        // After every service stopped: the server's last lease write is in the journal.
        close: () => leases.close(),
      };
    },
  };
}
