import type { ApiClient } from './api-client.js';

export const SERVICE_STATES = ['stopped', 'starting', 'running', 'stopping', 'failed'] as const;
export type ServiceState = (typeof SERVICE_STATES)[number];
export type ServiceAction = 'start' | 'stop' | 'restart';

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

const servicePath = (name: string) => `/services/${encodeURIComponent(name)}`;

export function listServices(client: ApiClient): Promise<ServiceStatus[]> {
  return client.get<ServiceStatus[]>('/services');
}

export function runServiceAction(client: ApiClient, name: string, action: ServiceAction): Promise<ServiceStatus> {
  return client.post<ServiceStatus>(`${servicePath(name)}/${action}`);
}

export function setServiceAutoStart(client: ApiClient, name: string, autoStart: boolean): Promise<ServiceStatus> {
  return client.put<ServiceStatus>(`${servicePath(name)}/auto-start`, { auto_start: autoStart });
}
