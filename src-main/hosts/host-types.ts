import type { Row } from '../store/collection.js';

/** A machine Bootwright knows, by MAC address (docs/hosts-and-profiles.md). */
export interface Host extends Row {
  /** Canonical lowercase-colon form; unique. */
  mac: string;
  hostname: string | null;
  /** Fixed IPv4 address; a DHCP reservation follows it. */
  ip: string | null;
  profile_id: number | null;
  group: string | null;
  tags: string[];
  description: string;
  /** iPXE's `${buildarch}` (i386, x86_64, arm64…): set by hand or learned at boot. */
  arch: string | null;
  /** iPXE's `${platform}` (pcbios, efi): learned at boot. */
  platform: string | null;
  /** A disabled host boots from its local disk whatever its profile. */
  enabled: boolean;
  /** Recorded automatically when an unknown machine booted; cleared when a technician adopts it. */
  discovered: boolean;
  last_boot_at: string | null;
  last_seen_ip: string | null;
}

/** The fields a client sets (create: mac required; update: any subset). */
export interface HostInput {
  mac?: string;
  hostname?: string | null;
  ip?: string | null;
  profile_id?: number | null;
  group?: string | null;
  tags?: string[];
  description?: string;
  arch?: string | null;
  enabled?: boolean;
  discovered?: boolean;
}

/** List filters beyond the common q/sort/page/size. */
export interface HostFilter {
  group?: string;
  tag?: string;
  profile_id?: number;
  discovered?: boolean;
  enabled?: boolean;
}

/** What a boot teaches us about a machine. */
export interface BootObservation {
  ip: string;
  arch: string | null;
  platform: string | null;
  at?: Date;
}

/**
 * The DHCP reservation that follows a host's `ip` (implemented by the DHCP
 * area as `ctx.reservations`). Both reject a bad or taken address with a
 * 400/409 AppError before changing anything.
 */
export interface HostReservationLink {
  setForHost(host: { id: number; mac: string; ip: string; hostname: string | null }): Promise<unknown>;
  removeForHost(hostId: number): Promise<unknown>;
}

export const HOST_SORT_FIELDS = [
  'id',
  'mac',
  'hostname',
  'ip',
  'group',
  'profile_id',
  'arch',
  'enabled',
  'discovered',
  'last_boot_at',
  'last_seen_ip',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof Host)[];
