import type { WakeResult } from '@contracts/power';
import type { ApiClient } from '../../api/api-client.js';
import { powerClient } from '../../api/clients/power-client.js';

export function wakeHost(client: ApiClient, id: number): Promise<WakeResult> {
  return powerClient(client).hosts.wake(id);
}

export function wakeHosts(client: ApiClient, ids: number[]): Promise<WakeResult[]> {
  return powerClient(client).hosts.wakeMany({ ids });
}

/** "Magic packet sent on eth0, eth1" or the reason nothing went out. */
export function describeWake(result: WakeResult): string {
  if (result.ok) return `Magic packet sent to ${result.mac ?? 'the host'} on ${result.interfaces.join(', ') || 'no interface'}${result.error ? ` (${result.error})` : ''}.`;
  return `Nothing sent to ${result.mac ?? 'the host'}: ${result.error ?? 'unknown reason'}`;
}
