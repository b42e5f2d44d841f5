export const DHCP_MODES = ['server', 'proxy', 'off'] as const;
export type DhcpMode = (typeof DHCP_MODES)[number];

export const DHCP_OPTION_TYPES = ['ip', 'ips', 'string', 'uint8', 'uint16', 'uint32', 'bool', 'hex'] as const;
export type DhcpOptionType = (typeof DHCP_OPTION_TYPES)[number];

export interface DhcpOption {
  code: number;
  type: DhcpOptionType;
  value: string | number | boolean | string[];
}

export interface DhcpRange {
  start: string;
  end: string;
}

export interface DhcpSubnet {
  subnet: string;
  ranges: DhcpRange[];
  lease_time_seconds: number | null;
  router: string | null;
  dns_servers: string[] | null;
  domain_name: string | null;
  ntp_servers: string[];
  options: DhcpOption[];
}

export type AccessMode = 'open' | 'whitelist';

export interface DhcpSettings {
  interfaces: { name: string; mode: DhcpMode }[];
  subnets: DhcpSubnet[];
  default_lease_time_seconds: number;
  authoritative: boolean;
  ping_check: boolean;
  decline_quarantine_seconds: number;
  access_mode: AccessMode;
}

/** One row of the architecture map: DHCP option 93 code → boot files. */
export interface ArchMapEntry {
  code: number;
  name: string;
  boot_file: string | null;
  http_boot_url_path: string | null;
  alternatives: string[];
}

export interface Lease {
  mac: string;
  ip: string;
  hostname: string | null;
  state: 'active' | 'expired';
  subnet: string | null;
  starts_at: string;
  expires_at: string;
  client_id: string | null;
  vendor_class: string | null;
  arch: number | null;
  reserved: boolean;
}

export interface LeaseUsage {
  size: number;
  used: number;
  reserved: number;
  quarantined: number;
  free: number;
  utilisation_percent: number;
  expired: number;
}

export interface LeaseStats {
  overall: LeaseUsage & { leases: number };
  ranges: (LeaseUsage & { subnet: string; start: string; end: string })[];
}

export interface Reservation {
  id: number;
  mac: string;
  ip: string;
  hostname: string | null;
  boot_file: string | null;
  options: DhcpOption[];
  host_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface AccessEntry {
  id: number;
  mac: string;
  comment: string;
  created_at: string;
}

export interface UnauthorizedDevice {
  id: number;
  mac: string;
  first_seen: string;
  last_seen: string;
  count: number;
  vendor_class: string | null;
  arch: number | null;
  hostname: string | null;
}

export interface MoveResult {
  id: number;
  ok: boolean;
  mac?: string;
  entry_id?: number;
  error?: string;
  code?: string;
}
