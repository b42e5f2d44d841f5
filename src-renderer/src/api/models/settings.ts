import type { LogLevel, Nic } from './system.js';

export interface GeneralSettings {
  server_name: string;
  update_feed_url: string | null;
  allowed_hosts: string[];
}

export interface ServerAddressOverride {
  subnet: string;
  address: string;
}

export interface InterfacesSettings {
  served: 'auto' | string[];
  server_addresses: ServerAddressOverride[];
}

export interface ResolvedServerAddress {
  interface: string | null;
  subnet: string;
  address: string;
  source: 'detected' | 'override';
  served: boolean;
}

/** GET /settings/interfaces: the stored settings plus what was detected (read-only). */
export interface InterfacesView extends InterfacesSettings {
  detected_interfaces: Nic[];
  resolved_addresses: ResolvedServerAddress[];
}

export type NetbootDefaultAction = 'menu' | 'local' | 'profile';

export interface NetbootSettings {
  default_action: NetbootDefaultAction;
  default_profile_id: number | null;
  menu_timeout_seconds: number;
  record_unknown_hosts: boolean;
}

export interface LoggingSettings {
  level: LogLevel;
  event_retention_count: number;
  event_retention_days: number;
  audit_retention_days: number;
}
