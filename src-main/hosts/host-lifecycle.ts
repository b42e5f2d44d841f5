import type { Host, HostLifecycle } from './hosts-contract.js';

/** The parts of an install task the lifecycle reads (the netboot area's tasks fit). */
export interface LifecycleTask {
  state: 'pending' | 'booting' | 'installing' | 'done' | 'failed' | 'cancelled' | 'expired';
}

/**
 * A host's lifecycle state (hosts-contract.ts HOST_LIFECYCLES): an install
 * task under way or its last one's outcome wins; otherwise discovered, new
 * (never booted) or ready. A cancelled task leaves the host as it was.
 */
export function hostLifecycle(host: Pick<Host, 'discovered' | 'last_boot_at'>, active: LifecycleTask | undefined, latest: LifecycleTask | undefined): HostLifecycle {
  if (active && (active.state === 'pending' || active.state === 'booting' || active.state === 'installing')) return 'installing';
  if (latest?.state === 'done') return 'deployed';
  if (latest?.state === 'failed' || latest?.state === 'expired') return 'failed';
  if (host.discovered) return 'discovered';
  return host.last_boot_at === null ? 'new' : 'ready';
}
