import type { WakeResult } from '@contracts/power';

/** "Magic packet sent on eth0, eth1" or the reason nothing went out. */
export function describeWake(result: WakeResult): string {
  if (result.ok) return `Magic packet sent to ${result.mac ?? 'the host'} on ${result.interfaces.join(', ') || 'no interface'}${result.error ? ` (${result.error})` : ''}.`;
  return `Nothing sent to ${result.mac ?? 'the host'}: ${result.error ?? 'unknown reason'}`;
}
