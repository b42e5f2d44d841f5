import type { FastifyPluginAsync } from 'fastify';
import { serverEndpointFor } from '../../boot-scripts/server-endpoint.js';
import type { BootOverride } from '../../boot-scripts/boot-override.js';
import type { Kernel } from '../../core/area.js';
import type { Host } from '../../hosts/host-types.js';
import type { Profile } from '../../profiles/profile-types.js';
import type { ChangeNote, ProfileInput } from '../../profiles/profile-types.js';
import type { TemplateRenderer } from '../../templates/template-renderer.js';
import type { InstallTask, ProfileFromNetboot } from '../netboot-contract.js';
import type { AnswerContext, AnswerRenderer, BaselineRunnerSource, CatalogReader, LocalBootSource } from '../netboot-ports.js';
import { InstallTaskService, type TaskFiles } from './install-task-service.js';
import type { LeaseLookup } from './machine-address.js';
import { profileFromNetboot } from './profile-from-netboot.js';
import { RuntimeLimiter, type RuntimeLimits } from './runtime-limiter.js';
import { runtimeRoutes } from './runtime-routes.js';
import { taskBootOverride } from './task-boot.js';
import { imageAwareFiles, LocalBootSources } from './task-boot-plan.js';
import { TaskInstaller, type TaskServer } from './task-installer.js';
import { TaskRuntime } from './task-runtime.js';
import { taskView } from './task-view.js';
import { taskRoutes } from './tasks-routes.js';
import type { TaskRow } from './task-types.js';

export { InstallTaskService, TASKS_COLLECTION, type TaskFilter, type TaskFiles } from './install-task-service.js';
export { TASK_TRANSITIONS, canTransition, isFinalState } from './task-states.js';
export type { TaskRow, TaskTransition } from './task-types.js';

/**
 * The answers part's template usage check: which tasks would break if a
 * template were deleted. Registered with the answers part when it offers a
 * registration (a later merge wires it; see netboot/index.ts).
 */
export type TemplateUsageCheck = (templateId: number) => { id: number; name: string }[];

/** Stands for the task's token in previews: the real one appears only in what the machine fetches. */
const PREVIEW_TOKEN = 'TOKEN';

export interface TasksPartDeps {
  catalog: CatalogReader;
  answers: AnswerRenderer;
  templates: TemplateRenderer;
  hosts: { get(id: number): Host | undefined; findByMac(mac: string): Host | undefined };
  profiles: { create(input: ProfileInput, note: ChangeNote): Promise<Profile> };
  leases: LeaseLookup;
  /** The files part, as the tasks use it (absent in tests without one). */
  files?: TaskFiles;
  now?: () => Date;
  runtimeLimits?: Partial<RuntimeLimits>;
  expiryCheckMs?: number;
}

/** The install tasks as other areas, routes and tests see them (the netboot facade's `tasks`). */
export interface TasksFacade {
  service: InstallTaskService;
  /** A task as the API shows it. */
  view(row: TaskRow, options: { operator: boolean; full: boolean }): Promise<InstallTask>;
  /** For the boot scripts' override hook. */
  bootOverride: BootOverride;
  /** For the answers part: tasks that still render a template. */
  templateUsage: TemplateUsageCheck;
  /** For the answers part's preview "as task N": the task's answer context, its token replaced by a placeholder. */
  previewContext(taskId: number): Promise<AnswerContext | undefined>;
  /** For the baselines area: the runner URLs answer files get as `baseline` (docs/baselines.md, "Runtime"). */
  setBaselineRunner(source: BaselineRunnerSource): void;
  /** For the os-images area: boots an entry from a ready image linked to it (docs/netboot.md, "Installing from an OS image (offline)"). */
  addLocalSource(source: LocalBootSource): void;
}

export interface TasksPart {
  facade: TasksFacade;
  routes: FastifyPluginAsync[];
  start(): void;
  stop(): void;
}

/** Builds the install tasks part (docs/netboot.md, "Install tasks and the PXE runtime endpoints"). */
export function createTasksPart(kernel: Kernel, deps: TasksPartDeps): TasksPart {
  const local = new LocalBootSources();
  const files = deps.files ? imageAwareFiles(deps.files, local) : undefined;
  const service = new InstallTaskService({
    store: kernel.store,
    events: kernel.events,
    log: kernel.log,
    secrets: kernel.secrets,
    settings: kernel.settings,
    catalog: deps.catalog,
    answers: deps.answers,
    hosts: deps.hosts,
    ...(files ? { files } : {}),
    ...(deps.now ? { now: deps.now } : {}),
    ...(deps.expiryCheckMs !== undefined ? { expiryCheckMs: deps.expiryCheckMs } : {}),
  });
  const server = (clientIp: string): TaskServer => ({ ...serverEndpointFor(clientIp, kernel.network, kernel.http), name: kernel.settings.general().server_name });
  const installer = new TaskInstaller({ tasks: service, templates: deps.templates, local });
  const runtime = new TaskRuntime({
    tasks: service,
    installer,
    answers: deps.answers,
    hosts: deps.hosts,
    leases: deps.leases,
    events: kernel.events,
    log: kernel.log,
    limiter: new RuntimeLimiter(deps.runtimeLimits),
    local,
    server,
  });
  const bootSource = async (row: TaskRow) => {
    try {
      // A view never mounts: it says what a boot would use now.
      return (await local.plan(service.resolve(row), { mount: false })).source;
    } catch {
      return undefined;
    }
  };
  const viewDeps = { tasks: service, events: kernel.events, hosts: deps.hosts, leases: deps.leases, server, bootSource };
  const facade: TasksFacade = {
    service,
    view: (row, options) => taskView(viewDeps, row, options),
    bootOverride: taskBootOverride({ tasks: service, installer, catalog: deps.catalog, ...(deps.files ? { files: deps.files } : {}), prerender: (row, ip) => runtime.prerender(row, ip), leases: deps.leases, events: kernel.events, log: kernel.log }),
    templateUsage: (templateId) => service.usingTemplate(templateId).map((row) => ({ id: row.id, name: `install task ${row.id} (${row.mac})` })),
    previewContext: async (taskId) => {
      const row = service.get(taskId);
      if (!row) return undefined;
      const host = row.host_id === null ? undefined : deps.hosts.get(row.host_id);
      return runtime.answerContext(row, PREVIEW_TOKEN, host?.last_seen_ip ?? host?.ip ?? '0.0.0.0', true);
    },
    setBaselineRunner: (source) => runtime.setBaselineRunner(source),
    addLocalSource: (source) => local.add(source),
  };
  const profileDeps = { catalog: deps.catalog, profiles: deps.profiles, templates: deps.templates };
  return {
    facade,
    routes: [
      taskRoutes({
        tasks: service,
        view: facade.view,
        profileFromNetboot: (input: ProfileFromNetboot, author: string) => profileFromNetboot(profileDeps, input, author),
      }),
      runtimeRoutes(runtime, kernel.log),
    ],
    start: () => service.start(),
    stop: () => service.stop(),
  };
}
