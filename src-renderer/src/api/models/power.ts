export type PowerState = 'on' | 'off' | 'unknown';
export type BmcProtocol = 'ipmi' | 'redfish';
export type BmcFailureReason = 'timeout' | 'unreachable' | 'auth_failed' | 'unsupported_cipher_suite' | 'tls' | 'protocol' | 'command_failed' | 'unsupported';

export interface BmcConfig {
  id: number;
  name: string;
  address: string;
  port: number;
  protocol: BmcProtocol;
  username: string;
  has_password: boolean;
  host_id: number | null;
  verify_tls: boolean;
  cipher_suite: number | null;
  privilege: 'operator' | 'administrator';
  power_state: PowerState | null;
  vendor: string | null;
  model: string | null;
  last_checked_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface BmcConfigInput {
  name?: string;
  address?: string;
  port?: number;
  protocol?: BmcProtocol;
  username?: string;
  password?: string;
  host_id?: number | null;
  verify_tls?: boolean;
  cipher_suite?: 3 | 17 | null;
  privilege?: 'operator' | 'administrator';
}

export interface BmcProbeResult {
  reachable: boolean;
  authenticated: boolean;
  protocol: BmcProtocol | null;
  port: number;
  session: string | null;
  cipher_suite: number | null;
  vendor: string | null;
  model: string | null;
  firmware: string | null;
  power_state: PowerState | null;
  error: string | null;
  error_reason: BmcFailureReason | null;
}

export interface BmcImportResult {
  imported: BmcConfig[];
  errors: { line: number; column: string | null; message: string }[];
  rows: number;
}

export const BMC_BATCH_ACTIONS = ['power-on', 'power-off', 'restart', 'status'] as const;
export type BmcBatchAction = (typeof BMC_BATCH_ACTIONS)[number];

export interface BmcBatchResult {
  batch_id: string;
  results: { id: number; ok: boolean; power_state: PowerState | null; error: string | null; code: string | null; reason: BmcFailureReason | null }[];
}

export interface PowerActionResult {
  action: string;
  power_state: PowerState | null;
  config: BmcConfig;
}

export const HOST_POWER_ACTIONS = ['on', 'off', 'cycle', 'reset', 'soft', 'status'] as const;
export type HostPowerAction = (typeof HOST_POWER_ACTIONS)[number];

export interface WolInterface {
  name: string;
  mac: string | null;
  address: string;
  prefix: number;
  subnet: string;
  broadcast: string;
  served: boolean;
}

export interface WolHistoryEntry {
  id: number;
  mac: string | null;
  host_id: number | null;
  interface: string | null;
  port: number;
  trigger: 'manual' | 'schedule' | 'batch';
  user: string;
  result: 'sent' | 'failed';
  error: string | null;
  created_at: string;
}

export interface WakeResult {
  ok: boolean;
  host_id: number | null;
  mac: string | null;
  interfaces: string[];
  history: WolHistoryEntry;
  error: string | null;
}

export interface WolSchedule {
  id: number;
  name: string;
  host_ids: number[] | null;
  macs: string[] | null;
  cron: string | null;
  at: string | null;
  timezone: string;
  enabled: boolean;
  next_run_at: string | null;
  last_run_at: string | null;
  last_result: 'ok' | 'partial' | 'failed' | 'missed' | null;
  created_at: string;
  updated_at: string;
}

export interface WolScheduleInput {
  name: string;
  host_ids?: number[];
  macs?: string[];
  cron?: string;
  at?: string;
  enabled?: boolean;
  timezone?: string;
}
