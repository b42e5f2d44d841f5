import type { FastifyPluginAsync } from 'fastify';
import { serverEndpointFor } from '../../boot-scripts/server-endpoint.js';
import type { Kernel } from '../../core/area.js';
import type { BaselineRunnerSource } from '../../netboot/netboot-ports.js';
import type { BaselinesFacade } from '../baselines-facade.js';
import type { RuntimeRateLimits } from './runtime-limits.js';
import { runtimeAdminRoutes, runtimePublicRoutes } from './runtime-routes.js';
import { BaselineRuntimeService, type RuntimeHost } from './runtime-service.js';

export { BaselineRuntimeService, type RuntimeHost, type RuntimeServiceDeps } from './runtime-service.js';
export { BASELINE_RUNS_COLLECTION, outputTail, runStatus, runView } from './runtime-runs.js';
export { BASELINE_TOKEN_PREFIX, BASELINE_TOKENS_COLLECTION, deriveTaskToken } from './runtime-tokens.js';
export { RUNTIME_RATE_LIMITS, type RuntimeRateLimits } from './runtime-limits.js';
export { MANIFEST_HEADER, powershellRunner, scriptManifest, shellRunner } from './runtime-runners.js';

/** Stands for the token in answer previews: the real one appears only in what the machine fetches. */
const PREVIEW_TOKEN = 'TOKEN';

export interface BaselineRuntimeDeps {
  kernel: Pick<Kernel, 'store' | 'events' | 'log' | 'network' | 'http'>;
  hosts: { get(id: number): RuntimeHost | undefined };
  /** The netboot area: the answer files get the runner URLs through its hook; tokens' tasks are checked against its tasks. */
  netboot?: { tasks: { service: { get(id: number): { id: number; host_id: number | null } | undefined }; setBaselineRunner(source: BaselineRunnerSource): void } };
  /** Which baseline applies to a machine (the baselines core; tests pass a fake). */
  baselines: Pick<BaselinesFacade, 'assigned'>;
  /** Rate limits of the runtime routes (tests lower them). */
  limits?: Partial<RuntimeRateLimits>;
  now?: () => Date;
}

export interface BaselineRuntime {
  /** For the baselines facade: tokens, runs and the machine-facing operations. */
  runtime: BaselineRuntimeService;
  /** Routes under /api/v1: tokens and runs (operators, viewers) and the public runtime under /baselines/runtime/{token}/. */
  routes: FastifyPluginAsync[];
}

/**
 * The baselines runtime (docs/baselines.md, "Runtime"): per-host tokens, the
 * runner a machine fetches with one, its results as runs, and the netboot
 * hook that puts the runner URLs into install tasks' answer files.
 */
export function baselineRuntime(deps: BaselineRuntimeDeps): BaselineRuntime {
  const { kernel } = deps;
  const runtime = new BaselineRuntimeService({
    store: kernel.store,
    events: kernel.events,
    log: kernel.log,
    hosts: deps.hosts,
    ...(deps.netboot ? { tasks: deps.netboot.tasks.service } : {}),
    resolver: deps.baselines,
    baseUrl: (clientIp) => serverEndpointFor(clientIp, kernel.network, kernel.http).base_url,
    ...(deps.limits ? { limits: deps.limits } : {}),
    ...(deps.now ? { now: deps.now } : {}),
  });
  deps.netboot?.tasks.setBaselineRunner(async (request) => {
    if (!request.preview) return runtime.forTask(request);
    // A preview shows the step only when a baseline applies, with a placeholder token: nothing is minted.
    const assigned = await deps.baselines.assigned({ host_id: request.host_id, task_id: request.task_id });
    if (assigned.baseline === null || assigned.scripts.length === 0) return null;
    const url = runtime.runtimeUrl(request.base_url, PREVIEW_TOKEN);
    return { run_sh: `${url}/run.sh`, run_ps1: `${url}/run.ps1` };
  });
  return { runtime, routes: [runtimeAdminRoutes(runtime), runtimePublicRoutes(runtime, kernel.log)] };
}
