import type { Alert } from '@contracts/alerts';
import type { ApiClient } from '../api-client.js';
import { segment, withQuery } from '../query-string.js';

/** The alerts area's API (src-main/alerts/alerts-routes.ts). */
export function alertsClient(client: ApiClient) {
  return {
    list: (params: { include_dismissed?: boolean } = {}): Promise<Alert[]> => client.get(withQuery('/alerts', params)),
    dismiss: (id: string): Promise<Alert> => client.post(`/alerts/${segment(id)}/dismiss`),
  };
}
