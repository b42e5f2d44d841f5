import type { ServiceManager } from './service-manager.js';

/** The part of the service manager the policy drives (a fake in unit tests). */
export type ServiceControl = Pick<ServiceManager, 'get' | 'autoStart' | 'setAutoStart' | 'start' | 'stop' | 'reload'>;

export interface ServiceSettingsChange {
  services: ServiceControl;
  /** The managed service the settings belong to (`dns`, `tftp`, `dhcp`…). */
  name: string;
  /** The API's on/off switch when the request sent it; undefined when it did not. */
  enabled?: boolean | undefined;
  /** Whether the stored settings changed (validated and persisted before this is called). */
  changed: boolean;
  /**
   * For a service whose settings alone decide whether it has anything to
   * serve (DHCP: an interface in server or proxy mode): before and after the
   * change. Omitted: the settings can always run.
   */
  runnable?: { before: boolean; now: boolean };
}

/**
 * The one rule for applying an area's new settings to its service, after the
 * settings were validated and persisted (docs/architecture.md, "Settings
 * apply"):
 *
 * - `enabled` sent: it becomes the auto-start flag (the one truth the API
 *   shows as `enabled`); false stops the service, true starts it unless it
 *   runs — whatever the flag was before, so `enabled: true` after a manual
 *   stop starts it again; a running service with changed settings restarts.
 * - the settings leave nothing to serve (`runnable.now` false): a running
 *   (or failed) service stops; auto-start is left alone, so the service
 *   comes back when there is something to serve again.
 * - otherwise a change restarts a running (or failed) service and leaves a
 *   stopped one stopped — except that settings which just became runnable
 *   start it when its auto-start flag is on (the same rule as at launch).
 */
export async function applyServiceSettings(change: ServiceSettingsChange): Promise<void> {
  const { services, name, enabled, changed, runnable } = change;
  if (enabled !== undefined && enabled !== services.autoStart(name)) await services.setAutoStart(name, enabled);
  if (enabled === false) {
    await services.stop(name);
    return;
  }
  if (enabled === true && services.get(name).state !== 'running') {
    await services.start(name);
    return;
  }
  const state = services.get(name).state;
  if (runnable && !runnable.now) {
    if (state === 'running' || state === 'failed') await services.stop(name);
    return;
  }
  if (!changed) return;
  if (runnable && !runnable.before && state === 'stopped' && services.autoStart(name)) await services.start(name);
  // Waits for a transition under way, then restarts a running (or failed) service; a stopped one stays stopped.
  else await services.reload(name);
}
