export const SERVICE_STATES = ['stopped', 'starting', 'running', 'stopping', 'failed'] as const;
export type ServiceState = (typeof SERVICE_STATES)[number];
export const SERVICE_ACTIONS = ['start', 'stop', 'restart'] as const;
export type ServiceAction = (typeof SERVICE_ACTIONS)[number];

/** GET /services item (the server's ServiceStatus schema). */
export interface ServiceStatus {
  name: string;
  description: string;
  state: ServiceState;
  auto_start: boolean;
  /** The HTTP service: the API that would stop it is served by it. */
  protected: boolean;
  listen: string[];
  started_at: string | null;
  uptime_seconds: number | null;
  last_error: string | null;
}

/** POST /services/batch/{action}: one result per name. */
export interface ServiceBatchResult {
  name: string;
  ok: boolean;
  service?: ServiceStatus;
  error?: string;
  code?: string;
}
