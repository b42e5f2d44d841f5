import type { BootDecision } from '../../boot-scripts/boot-resolver.js';
import { effectiveBoot } from '../../boot-scripts/effective-boot.js';
import { hostLifecycle } from '../../hosts/host-lifecycle.js';
import type { EffectiveBoot, Host, HostLifecycle } from '../../hosts/host-types.js';
import { taskLabel, type InstallTaskService } from './install-task-service.js';

/**
 * What a host boots next and where it is in its life, for host reads
 * (HostService.setBootSummary): the boot path's order — the access lists,
 * then an install task (its installer while active; the local disk after one
 * finished with "install once"), then host, group and netboot default.
 */
export function hostBootSummary(
  host: Host,
  decision: BootDecision,
  tasks: Pick<InstallTaskService, 'activeForMac' | 'latestForMac'>,
): { effective_boot: EffectiveBoot; lifecycle: HostLifecycle } {
  const active = tasks.activeForMac(host.mac);
  const latest = tasks.latestForMac(host.mac);
  const lifecycle = hostLifecycle(host, active, latest);
  if (decision.action === 'denied') return { effective_boot: effectiveBoot(decision, host.group), lifecycle };
  if (active && (active.state === 'pending' || active.state === 'booting' || active.state === 'installing')) {
    return {
      effective_boot: { action: 'install', profile_id: null, profile_name: null, task_id: active.id, source: 'task', text: `install task ${active.id}: ${taskLabel(active)} (${active.state})` },
      lifecycle,
    };
  }
  if (latest?.state === 'done' && latest.after_install === 'local_disk') {
    return {
      effective_boot: { action: 'local', profile_id: null, profile_name: null, task_id: latest.id, source: 'task', text: `its local disk (install task ${latest.id} is done, installed once)` },
      lifecycle,
    };
  }
  return { effective_boot: effectiveBoot(decision, host.group), lifecycle };
}
