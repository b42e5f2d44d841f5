import { serverEndpointFor } from '../boot-scripts/server-endpoint.js';
import type { AreaModule } from '../core/area.js';
import type { HostService } from '../hosts/index.js';
import type { ProfileService } from '../profiles/index.js';
import type { ScriptsFacade } from '../scripts/scripts-facade.js';
import { errorMessage } from '../core/errors.js';
import type { BaselineRunnerSource } from '../netboot/netboot-ports.js';
import { baselineRuntime, type BaselineRuntimeService, type RuntimeRateLimits } from './runtime/index.js';
import type { TemplateRenderer } from '../templates/index.js';
import { BaselineService } from './baseline-service.js';
import type { TaskFacts } from './baseline-types.js';
import { baselineRoutes } from './baselines-routes.js';
import type { BaselinesFacade } from './baselines-facade.js';

export * from './baselines-contract.js';
export type { AssignedContext, BaselinesFacade } from './baselines-facade.js';
export { BaselineService, BASELINES_COLLECTION, type BaselineServiceDeps } from './baseline-service.js';
export { baselineRoutes } from './baselines-routes.js';
export type { BaselineRow, BaselineStep, BaselineLookups, TaskFacts } from './baseline-types.js';

/** Test seams of the baselines area. */
export interface BaselinesAreaOptions {
  /** A scripts facade in place of the scripts area's (tests written before the scripts area landed). */
  scripts?: ScriptsFacade;
  /** Which baseline the runtime hands a machine, in place of this area's resolution (runtime tests). */
  runtimeResolver?: Pick<BaselinesFacade, 'assigned'>;
  /** Rate limits of the machine-facing runtime routes (tests lower them). */
  runtimeLimits?: Partial<RuntimeRateLimits>;
}

/** What the baselines read of the netboot area: install tasks by id and a MAC's active one. */
interface NetbootTasks {
  tasks: { service: { get(id: number): TaskFacts | undefined; activeForMac(mac: string): TaskFacts | undefined }; setBaselineRunner(source: BaselineRunnerSource): void };
}

/** How often running baseline runs are checked for machines that went silent. */
const SILENT_RUN_SWEEP_MS = 5 * 60_000;

/**
 * The baselines area (docs/baselines.md): ordered script lists, their
 * assignment and resolution. It registers with the scripts area who uses a
 * script (a delete of a script a baseline runs is a 409 naming the baselines).
 */
export function baselinesArea(
  options: BaselinesAreaOptions = {},
): AreaModule<'baselines', BaselinesFacade & { runtime: BaselineRuntimeService }, { templates: TemplateRenderer; profiles: ProfileService; hosts: HostService; netboot: NetbootTasks; scripts: ScriptsFacade }> {
  return {
    name: 'baselines',
    needs: ['templates', 'profiles', 'hosts', 'netboot', 'scripts'],
    create(kernel, deps) {
      const scripts = options.scripts ?? deps.scripts;
      const baselines = new BaselineService({
        store: kernel.store,
        events: kernel.events,
        log: kernel.log,
        lookups: { scripts, hosts: deps.hosts, profiles: deps.profiles, tasks: deps.netboot.tasks.service },
        templates: deps.templates,
        server: (clientIp) => {
          const endpoint = serverEndpointFor(clientIp, kernel.network, kernel.http);
          return { name: kernel.settings.general().server_name, ip: endpoint.ip, http_url: endpoint.base_url, base_url: endpoint.base_url };
        },
      });
      scripts.addUsageCheck((scriptId) => baselines.usersOfScript(scriptId));
      // The runtime (tokens, runners, runs) also hooks the runner URLs into the netboot answer files.
      const runtime = baselineRuntime({ kernel, hosts: deps.hosts, netboot: deps.netboot, baselines: options.runtimeResolver ?? baselines, ...(options.runtimeLimits ? { limits: options.runtimeLimits } : {}) });
      // Runs whose machine went silent are closed as failed (checked at start and every few minutes).
      let sweep: NodeJS.Timeout | null = null;
      const abandonSilent = () => {
        runtime.runtime.runs.abandonSilent().catch((err: unknown) => kernel.log.scope('baselines').warn(`closing silent baseline runs failed: ${errorMessage(err)}`));
      };
      return {
        facade: Object.assign(baselines, { runtime: runtime.runtime }),
        routes: [baselineRoutes(baselines), ...runtime.routes],
        services: [],
        start: async () => {
          abandonSilent();
          sweep = setInterval(abandonSilent, SILENT_RUN_SWEEP_MS);
          sweep.unref();
        },
        stop: async () => {
          if (sweep) clearInterval(sweep);
          sweep = null;
        },
      };
    },
  };
}
