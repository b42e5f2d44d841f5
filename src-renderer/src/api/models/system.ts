import type { ServiceState, ServiceStatus } from './services.js';

/** GET /status. */
export interface ServerStatus {
  version: string;
  server_name: string;
  started_at: string;
  uptime_seconds: number;
  services: { total: number; by_state: Record<ServiceState, number>; list: ServiceStatus[] };
  data_dir: { path: string; bytes_used: number; usage_truncated: boolean; fs_free_bytes: number | null; fs_total_bytes: number | null };
}

/** GET /version. */
export interface VersionInfo {
  version: string;
  commit: string | null;
  build_date: string | null;
  node: string;
  electron: string | null;
  platform: string;
  arch: string;
}

/** POST /version/check. */
export interface UpdateCheck {
  current: string;
  latest: string;
  update_available: boolean;
  url: string;
  notes: string | null;
  published_at: string | null;
}

export interface NicAddress {
  address: string;
  family: 'ipv4' | 'ipv6';
  prefix: number;
  cidr: string;
  subnet: string;
}

/** A network interface of this machine. */
export interface Nic {
  name: string;
  mac: string | null;
  addresses: NicAddress[];
  mtu: number | null;
  up: boolean;
  internal: boolean;
}

export type EventLevel = 'info' | 'warn' | 'error';

/** An event (GET /events item and the data of a stream message). */
export interface AppEvent {
  id: number;
  kind: string;
  level: EventLevel;
  message: string;
  mac: string | null;
  ip: string | null;
  host_id: number | null;
  detail: Record<string, unknown> | null;
  created_at: string;
}

/** GET /audit-logs item. */
export interface AuditEntry {
  id: number;
  created_at: string;
  user: string;
  via: 'http' | 'ipc';
  remote_address: string | null;
  method: string;
  path: string;
  action: string;
  resource_type: string;
  resource_id: string | null;
  outcome: 'success' | 'failure';
  status: number;
  request_id: string;
  /** false for requests without valid credentials (kept apart, aggregated per source and minute). */
  authenticated: boolean;
  /** Requests the row stands for: 1, or an aggregate's size. */
  count: number;
  aggregate: AuditAggregate | null;
}

/** Unauthenticated requests of one source in one minute, folded into one audit row. */
export interface AuditAggregate {
  window_start: string;
  last_at: string;
  breakdown: { method: string; route: string; status: number; count: number }[];
  other: number;
}

export interface LogFile {
  name: string;
  size: number;
  modified_at: string;
  current: boolean;
}

export interface LogDiskUsage {
  bytes: number;
  files: number;
  fs_free_bytes: number;
  fs_total_bytes: number;
}

export interface LogCleanupResult {
  deleted: LogFile[];
  bytes_freed: number;
  failed: { name: string; error: string }[];
  remaining_bytes: number;
  remaining_files: number;
}

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

/** The data of a `log` message on the log stream. */
export interface LogRecord {
  time: string;
  level: LogLevel;
  scope: string;
  message: string;
  context?: Record<string, unknown>;
}
