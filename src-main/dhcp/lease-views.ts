import { intToIpv4, parseIpv4 } from '../network/ip-math.js';
import type { DhcpSettings } from './dhcp-settings.js';
import type { LeaseStats, LeaseState, LeaseView, RangeStats } from './dhcp-contract.js';
import { LeaseDatabase, type Lease } from './leases.js';
import type { Reservations } from './reservations.js';
import type { Archmap } from './archmap.js';

export type { LeaseView, LeaseStats, RangeStats } from './dhcp-contract.js';

/** What a lease view reads besides the lease: subnets, reservations, and the architecture map for `arch_name`. */
export interface LeaseViewDeps {
  settings: DhcpSettings;
  reservations: Reservations;
  archmap: Pick<Archmap, 'lookup'>;
}

export function leaseView(lease: Lease, now: number, deps: LeaseViewDeps): LeaseView {
  const { settings, reservations } = deps;
  return {
    mac: lease.mac,
    ip: intToIpv4(lease.ip),
    hostname: lease.hostname,
    state: LeaseDatabase.state(lease, now),
    subnet: settings.subnetFor(lease.ip)?.subnet.cidr ?? null,
    starts_at: new Date(lease.starts).toISOString(),
    expires_at: new Date(lease.expires).toISOString(),
    client_id: lease.clientId,
    vendor_class: lease.vendorClass,
    arch: lease.arch,
    arch_name: lease.arch === null ? null : (deps.archmap.lookup(lease.arch)?.name ?? `type ${lease.arch}`),
    reserved: reservations.byMac(lease.mac)?.ip === intToIpv4(lease.ip),
  };
}

export interface LeaseFilter {
  state?: LeaseState;
  /** CIDR of a configured subnet, or any IPv4 CIDR. */
  subnet?: string;
}

/** Every lease matching the filter, as views. */
export function leaseViews(deps: LeaseViewDeps & { leases: LeaseDatabase }, filter: LeaseFilter, now: number): LeaseView[] {
  const out: LeaseView[] = [];
  const subnet = filter.subnet ? parseCidr(filter.subnet) : null;
  for (const lease of deps.leases.all()) {
    if (filter.state && LeaseDatabase.state(lease, now) !== filter.state) continue;
    if (subnet && ((lease.ip & subnet.mask) >>> 0) !== subnet.network) continue;
    out.push(leaseView(lease, now, deps));
  }
  return out;
}

function parseCidr(text: string): { network: number; mask: number } {
  const [address, prefixText] = text.split('/');
  const network = parseIpv4(address ?? '') ?? 0;
  const prefix = Number(prefixText);
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return { network: (network & mask) >>> 0, mask };
}

/** Utilisation per range and overall (GET /leases/stats). */
export function leaseStats(deps: { leases: LeaseDatabase; settings: DhcpSettings; reservations: Reservations }, now: number): LeaseStats {
  const ranges = deps.settings.subnets().flatMap((entry) =>
    entry.config.ranges.map((range) => {
      const start = parseIpv4(range.start) ?? 0;
      const end = parseIpv4(range.end) ?? 0;
      return { entry, start, end, used: 0, expired: 0, reserved: 0, quarantined: 0 };
    }),
  );
  const find = (ip: number) => ranges.find((range) => ip >= range.start && ip <= range.end);
  let leases = 0;
  for (const lease of deps.leases.all()) {
    leases += 1;
    const range = find(lease.ip);
    if (!range) continue;
    if (lease.expires > now) range.used += 1;
    else range.expired += 1;
  }
  for (const reservation of deps.reservations.list()) {
    const ip = parseIpv4(reservation.ip);
    if (ip === null) continue;
    const range = find(ip);
    if (range && !deps.leases.heldByOther(ip, '', now)) range.reserved += 1;
  }
  for (const { ip } of deps.leases.quarantinedAddresses(now)) {
    const range = find(ip);
    if (range && !deps.leases.heldByOther(ip, '', now)) range.quarantined += 1;
  }
  const rows: RangeStats[] = ranges.map((range) => {
    const size = range.end - range.start + 1;
    const free = Math.max(0, size - range.used - range.reserved - range.quarantined);
    return {
      subnet: range.entry.subnet.cidr,
      start: intToIpv4(range.start),
      end: intToIpv4(range.end),
      size,
      used: range.used,
      reserved: range.reserved,
      quarantined: range.quarantined,
      free,
      utilisation_percent: percent(range.used, size),
      expired: range.expired,
    };
  });
  const sum = (key: 'size' | 'used' | 'reserved' | 'quarantined' | 'free' | 'expired') => rows.reduce((total, row) => total + row[key], 0);
  const size = sum('size');
  return {
    overall: {
      leases,
      size,
      used: sum('used'),
      reserved: sum('reserved'),
      quarantined: sum('quarantined'),
      free: sum('free'),
      utilisation_percent: percent(sum('used'), size),
      expired: sum('expired'),
    },
    ranges: rows,
  };
}

function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10;
}
