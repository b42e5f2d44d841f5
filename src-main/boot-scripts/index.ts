import type { Logger } from '../core/logger.js';
import type { EventLog } from '../events/event-log.js';
import { HostService } from '../hosts/host-service.js';
import type { HostReservationLink } from '../hosts/host-types.js';
import { SerialQueue } from '../hosts/serial-queue.js';
import type { Metrics } from '../metrics/metrics.js';
import type { NetworkService } from '../network/network-service.js';
import { ProfileService } from '../profiles/profile-service.js';
import type { SettingsService } from '../settings/settings-service.js';
import type { Store } from '../store/store.js';
import { BootScriptService, type BootAccessCheck } from './boot-script-service.js';
import { EntryScriptStore } from './entry-script.js';
import type { HttpEndpoint } from './server-endpoint.js';
import { WorkerTemplateRenderer, type TemplateRenderer } from './template-renderer.js';

export { BootScriptService, type BootAccessCheck, type BootPreview, type BootRequest } from './boot-script-service.js';
export { bootScriptProvider, bootRequestFrom } from './boot-script-provider.js';
export { DEFAULT_ENTRY_TEMPLATE, EntryScriptStore, type EntryScriptView } from './entry-script.js';
export { BOOT_ACTIONS, BOOT_REASONS, type BootAction, type BootReason } from './boot-resolver.js';
export { ENTRY_SCRIPT_PATH, HOST_SCRIPT_PATH, BOOT_HTTP_PREFIX, type HttpEndpoint, type ServerEndpoint } from './server-endpoint.js';
export { TemplateEngine, TemplateError, TEMPLATE_LIMITS, type TemplateData } from './template-engine.js';
export { WorkerTemplateRenderer, TEMPLATE_WORKER_DEFAULTS, type TemplateRenderer, type TemplateWorkerOptions } from './template-renderer.js';

export interface BootAreaDeps {
  store: Store;
  events: EventLog;
  log: Logger;
  settings: SettingsService;
  network: NetworkService;
  metrics: Metrics;
  http: HttpEndpoint;
  /** Looked up at call time, so the DHCP area may be wired after this one. */
  reservations: () => HostReservationLink | undefined;
  access: () => BootAccessCheck | undefined;
  /** The clock of boot records and discovery limits (tests); default the system clock. */
  now?: () => Date;
}

export interface BootArea {
  hosts: HostService;
  profiles: ProfileService;
  bootScripts: BootScriptService;
  /** The one renderer of user templates (a worker thread); closed by the core at stop. */
  templates: TemplateRenderer;
}

/**
 * Hosts, profiles and the boot scripts built from them, wired to each other:
 * one write queue for hosts and profiles, the profile-in-use check over the
 * hosts, and the settings rule that netboot.default_profile_id names a profile.
 */
export function createBootArea(deps: BootAreaDeps): BootArea {
  const templates = new WorkerTemplateRenderer({ log: deps.log });
  const queue = new SerialQueue();
  let hosts: HostService | undefined;
  const profiles = new ProfileService({
    store: deps.store,
    log: deps.log,
    queue,
    templates,
    hostsUsing: (profileId) => (hosts?.usingProfile(profileId) ?? []).map((host) => ({ id: host.id, name: host.hostname ?? host.mac })),
    netbootDefaultProfileId: () => deps.settings.netboot().default_profile_id,
  });
  hosts = new HostService({
    store: deps.store,
    events: deps.events,
    log: deps.log,
    queue,
    profileExists: (profileId) => profiles.get(profileId) !== undefined,
    reservations: deps.reservations,
    ...(deps.now ? { now: deps.now } : {}),
  });
  deps.settings.addCheck('netboot', (value, field) => profiles.netbootDefaultErrors(value, field));
  const bootScripts = new BootScriptService({
    hosts,
    profiles,
    entry: new EntryScriptStore(deps.store, templates),
    templates,
    settings: deps.settings,
    network: deps.network,
    http: deps.http,
    events: deps.events,
    log: deps.log,
    metrics: deps.metrics,
    access: deps.access,
  });
  return { hosts, profiles, bootScripts, templates };
}
