import type { PingRequest, PingResult, TracerouteRequest, TracerouteResult } from '@contracts/diagnostics';
import type { ApiClient } from '../api-client.js';

/**
 * The diagnostics area's API (src-main/diagnostics/diagnostics-routes.ts).
 * The UI uses the plain routes: the /stream variants take a POST body, which
 * the transports' streams (GET, reconnecting, and the IPC stream hub) do not
 * carry; see docs/diagnostics.md.
 */
export function diagnosticsClient(client: ApiClient) {
  return {
    ping: (body: PingRequest): Promise<PingResult> => client.post('/network/ping', body),
    traceroute: (body: TracerouteRequest): Promise<TracerouteResult> => client.post('/network/traceroute', body),
  };
}
