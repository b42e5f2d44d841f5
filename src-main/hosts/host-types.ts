import type { EffectiveBoot, Host, HostLifecycle } from './hosts-contract.js';

// The API shapes are the contract's (Static<> of its schemas); this file adds the domain-only ones.
export type { EffectiveBoot, Host, HostInput, HostLifecycle, HostView } from './hosts-contract.js';

/** What a later area adds to every host read (HostService.setBootSummary). */
export type HostBootSummary = (host: Host) => { effective_boot: EffectiveBoot | null; lifecycle: HostLifecycle };

/** List filters beyond the common q/sort/page/size. */
export interface HostFilter {
  group?: string;
  tag?: string;
  profile_id?: number;
  discovered?: boolean;
  enabled?: boolean;
  lifecycle?: HostLifecycle;
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
  /** Bulk forms (imports, batches); without them the hosts fall back to one call per host. */
  checkForHosts?(hosts: readonly { id: number; mac: string; ip: string | null; hostname: string | null }[]): { index: number; field: string | null; message: string }[];
  setForHosts?(hosts: readonly { id: number; mac: string; ip: string | null; hostname: string | null }[]): Promise<unknown>;
  removeForHosts?(hostIds: readonly number[]): Promise<unknown>;
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
