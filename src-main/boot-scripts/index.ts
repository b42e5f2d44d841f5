import type { AreaModule } from '../core/area.js';
import type { HostService } from '../hosts/index.js';
import type { ProfileService } from '../profiles/index.js';
import { BootScriptService, type BootAccessCheck } from './boot-script-service.js';
import { bootScriptRoutes } from './boot-scripts-routes.js';
import { EntryScriptStore } from './entry-script.js';

export { BootScriptService, type BootAccessCheck, type BootPreview, type BootRequest } from './boot-script-service.js';
export { bootScriptProvider, bootRequestFrom } from './boot-script-provider.js';
export { bootScriptRoutes, type BootScriptRouteOperations } from './boot-scripts-routes.js';
export { DEFAULT_ENTRY_TEMPLATE, EntryScriptStore, type EntryScriptView } from './entry-script.js';
export { BOOT_ACTIONS, BOOT_REASONS, type BootAction, type BootReason } from './boot-scripts-contract.js';
export { ENTRY_SCRIPT_PATH, HOST_SCRIPT_PATH, BOOT_HTTP_PREFIX, type HttpEndpoint, type ServerEndpoint } from './server-endpoint.js';
export { TemplateEngine, TemplateError, TEMPLATE_LIMITS, type TemplateData } from './template-engine.js';
export { WorkerTemplateRenderer, TEMPLATE_WORKER_DEFAULTS, type TemplateRenderer, type TemplateWorkerOptions } from './template-renderer.js';

/** Options of the boot scripts area: for now, its link to DHCP. */
export interface BootScriptsAreaOptions {
  /**
   * The MAC access lists, looked up at call time; absent means every MAC may boot.
   * A closure while DHCP is wired outside the area list; it becomes needs ['dhcp'].
   */
  access: () => BootAccessCheck | undefined;
}

/**
 * The boot scripts area module (docs/architecture.md, "Area folders"): the
 * facade is the BootScriptService (`ctx.bootScripts`: the entry script and
 * per-host scripts, the boot-config preview), the routes are
 * /services/ipxe-script and /hosts/{id}/boot-config. It renders with the
 * profiles' template renderer. Its scripts are served as virtual files by the
 * boot files (bootScriptProvider, wired in core/app-core.ts for now).
 */
export function bootScriptsArea(
  options: BootScriptsAreaOptions,
): AreaModule<'boot-scripts', BootScriptService, { profiles: ProfileService; hosts: HostService }> {
  return {
    name: 'boot-scripts',
    needs: ['profiles', 'hosts'],
    create(kernel, { profiles, hosts }) {
      const bootScripts = new BootScriptService({
        hosts,
        profiles,
        entry: new EntryScriptStore(kernel.store, profiles.templates),
        templates: profiles.templates,
        settings: kernel.settings,
        network: kernel.network,
        http: kernel.http,
        events: kernel.events,
        log: kernel.log,
        metrics: kernel.metrics,
        access: options.access,
      });
      return { facade: bootScripts, routes: [bootScriptRoutes(bootScripts)], services: [] };
    },
  };
}
