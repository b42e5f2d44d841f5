import type { AreaModule } from '../core/area.js';
import type { DnsService } from '../dns/index.js';
import type { ProfileService } from '../profiles/index.js';
import type { DiscoveryLimits } from './discovery-limiter.js';
import { BootTimelines } from './boot-timeline-service.js';
import { bootTimelineRoutes } from './boot-timeline-routes.js';
import { hostNameSource } from './host-name-source.js';
import { HostService } from './host-service.js';
import type { HostReservationLink } from './host-types.js';
import { hostRoutes } from './hosts-routes.js';

export { BOOT_RECORD_INTERVAL_MS, HostService, type HostServiceDeps } from './host-service.js';
export { DISCOVERY_LIMITS, DiscoveryLimiter, type DiscoveryLimits, type DiscoveryRefusal } from './discovery-limiter.js';
export { hostNameSource } from './host-name-source.js';
export { BootTimelines, type BootTimelineDeps } from './boot-timeline-service.js';
export { BOOT_GAP_MS, BOOT_QUIET_MS, BOOTING_NOW_MS, splitBoots, stepEventsByMac } from './boot-timeline.js';
export { hostRoutes, type HostRouteOperations } from './hosts-routes.js';
export type { BootObservation, Host, HostFilter, HostInput, HostReservationLink } from './host-types.js';

/** Options of the hosts area the core passes through from its own (tests set them). */
export interface HostsAreaOptions {
  /** The clock of boot records and the discovery limits (tests); default the system clock. */
  now?: () => Date;
  /** Bounds on recording unknown machines; default DISCOVERY_LIMITS. */
  discoveryLimits?: Partial<DiscoveryLimits>;
}

/**
 * The hosts area module (docs/architecture.md, "Area folders"): the facade is
 * the HostService (`ctx.hosts`), the routes are /hosts. In create() it joins
 * the areas it needs: its writes run on the profiles' write queue (a profile
 * delete and a host assignment never interleave), it tells the profiles which
 * hosts use a profile (the 409 of a delete), and it feeds DNS the names of
 * hosts with a hostname and a fixed IP.
 */
export function hostsArea(options: HostsAreaOptions = {}): AreaModule<'hosts', HostService, { profiles: ProfileService; dns: DnsService; dhcp: { reservations: HostReservationLink & { list(): readonly { host_id: number | null }[] } } }> {
  return {
    name: 'hosts',
    needs: ['profiles', 'dns', 'dhcp'],
    create(kernel, { profiles, dns, dhcp }) {
      const hosts = new HostService({
        store: kernel.store,
        events: kernel.events,
        log: kernel.log,
        queue: profiles.queue,
        profileExists: (profileId) => profiles.get(profileId) !== undefined,
        profileIdByName: (name) => profiles.all().find((profile) => profile.name.toLowerCase() === name.trim().toLowerCase())?.id,
        reservations: () => dhcp.reservations,
        ...(options.now ? { now: options.now } : {}),
        ...(options.discoveryLimits ? { discoveryLimits: options.discoveryLimits } : {}),
      });
      profiles.setUsageCounter(() => hosts.profileUsage());
      profiles.addUsageCheck((profileId) => hosts.usingProfile(profileId).map((host) => ({ id: host.id, name: host.hostname ?? host.mac })));
      dns.addNameSource(hostNameSource(hosts));
      // Events about a host show its name, not "host #14" (issue 18).
      kernel.events.setHostNamer((hostId) => {
        const host = hosts.get(hostId);
        return host ? (host.hostname ?? host.mac) : null;
      });
      return {
        facade: hosts,
        routes: [
          hostRoutes(hosts),
          bootTimelineRoutes(new BootTimelines({ events: () => kernel.events.all(), hosts, ...(options.now ? { now: options.now } : {}) }), hosts),
        ],
        services: [],
        // Hosts and their reservations live in two journals: a crash between the two writes of a host create,
        // delete or import can leave a reservation whose host was never written (or is gone). Before anything
        // serves, such reservations are removed, so a machine never keeps an address for a host that does not exist.
        async prepare() {
          const orphans = [...new Set(dhcp.reservations.list().flatMap((row) => (row.host_id !== null && hosts.get(row.host_id) === undefined ? [row.host_id] : [])))];
          if (orphans.length === 0) return;
          for (const hostId of orphans) await dhcp.reservations.removeForHost(hostId);
          const message = `removed the DHCP reservations of ${orphans.length} host(s) that do not exist (a write interrupted by a crash): host ids ${orphans.slice(0, 20).join(', ')}`;
          kernel.log.warn(message);
          kernel.events.emit({ kind: 'hosts.reservations.orphaned', level: 'warn', message, detail: { host_ids: orphans } });
        },
      };
    },
  };
}
