import path from 'node:path';
import type { Logger } from '../core/logger.js';
import type { NetworkService } from '../network/network-service.js';
import type { Store } from '../store/store.js';
import { AccessPolicy } from './access-policy.js';
import { Archmap } from './archmap.js';
import { DhcpSettings } from './dhcp-settings.js';
import { LeaseDatabase } from './leases.js';
import { Reservations } from './reservations.js';

export { AccessPolicy, type AccessMode, type UnauthorizedInfo } from './access-policy.js';
export { Archmap, type ArchmapEntry } from './archmap.js';
export { DhcpSettings } from './dhcp-settings.js';
export { LeaseDatabase, leaseNameSource, type Lease } from './leases.js';
export { Reservations, type DhcpReservation, type HostReservationInput } from './reservations.js';

/** The DHCP area's shared parts, as the core's context holds them. */
export interface DhcpArea {
  access: AccessPolicy;
  reservations: Reservations;
  archmap: Archmap;
  dhcpSettings: DhcpSettings;
  leases: LeaseDatabase;
}

/** Every IPv4 address of this machine (validation: a pool must not hold one of ours). */
export function ownIpv4Addresses(network: NetworkService): string[] {
  const out = new Set<string>();
  for (const nic of network.list()) for (const address of nic.addresses) if (address.family === 'ipv4') out.add(address.address);
  for (const resolved of network.resolvedAddresses()) if (!resolved.address.includes(':')) out.add(resolved.address);
  return [...out];
}

/** Opens the lease journal (`<data-dir>/dhcp/`) and builds the settings, reservations, archmap and access policy. */
export async function createDhcpArea(deps: { store: Store; network: NetworkService; log: Logger; dataDir: string }): Promise<DhcpArea> {
  const ownAddresses = () => ownIpv4Addresses(deps.network);
  const dhcpSettings = new DhcpSettings({ store: deps.store, ownAddresses, log: deps.log });
  return {
    dhcpSettings,
    access: new AccessPolicy({ store: deps.store, mode: () => dhcpSettings.current().access_mode, log: deps.log }),
    reservations: new Reservations({ store: deps.store, settings: dhcpSettings, ownAddresses }),
    archmap: new Archmap(deps.store),
    leases: await LeaseDatabase.open({ dir: path.join(deps.dataDir, 'dhcp'), log: deps.log }),
  };
}
