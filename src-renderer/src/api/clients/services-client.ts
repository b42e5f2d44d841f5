import type { ServiceAction, ServiceBatchResult, ServiceStatus } from '@contracts/services';
import type { ApiClient } from '../api-client.js';
import { segment } from '../query-string.js';

/** The services area's API (src-main/services/services-routes.ts). */
export function servicesClient(client: ApiClient) {
  return {
    list: (): Promise<ServiceStatus[]> => client.get('/services'),
    run: (name: string, action: ServiceAction): Promise<ServiceStatus> => client.post(`/services/${segment(name)}/${action}`),
    batch: (action: ServiceAction, names: string[]): Promise<ServiceBatchResult[]> => client.post(`/services/batch/${action}`, { names }),
    setAutoStart: (name: string, autoStart: boolean): Promise<ServiceStatus> => client.put(`/services/${segment(name)}/auto-start`, { auto_start: autoStart }),
  };
}
