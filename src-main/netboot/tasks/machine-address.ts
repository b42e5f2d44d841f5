import type { Host } from '../../hosts/host-types.js';
import { intToIpv4, unmapIpv4 } from '../../network/ip-math.js';

/** The DHCP leases as the tasks read them (the dhcp area's LeaseDatabase fits). */
export interface LeaseLookup {
  get(mac: string): { ip: number; expires: number } | undefined;
}

/** The address our DHCP server leased to `mac`, while the lease runs; null when we gave it none (proxy mode, another DHCP server). */
export function leasedAddress(leases: LeaseLookup, mac: string, nowMs: number): string | null {
  const lease = leases.get(mac);
  return lease && lease.expires > nowMs ? intToIpv4(lease.ip) : null;
}

/**
 * The addresses a request for `mac`'s own task may come from: its running
 * lease when our DHCP server gave one (nothing else then), else the address
 * it fetched its installer from (`bootIp`), the host's last seen address
 * (recorded when it fetched its boot script) and its fixed address. Empty
 * when nothing is known: nobody is that machine yet.
 */
export function machineAddresses(leases: LeaseLookup, mac: string, host: Host | null, nowMs: number, bootIp: string | null = null): string[] {
  const leased = leasedAddress(leases, mac, nowMs);
  if (leased !== null) return [leased];
  return [bootIp, host?.last_seen_ip, host?.ip].filter((ip): ip is string => typeof ip === 'string' && ip !== '');
}

export function sameAddress(a: string, b: string): boolean {
  return unmapIpv4(a).toLowerCase() === unmapIpv4(b).toLowerCase();
}
