import type { BootFilesFacade } from '../boot-files/index.js';
import type { BootScriptService } from '../boot-scripts/index.js';
import type { AreaModule } from '../core/area.js';
import { AppError } from '../core/errors.js';
import type { DhcpFacade } from '../dhcp/index.js';
import type { HostService } from '../hosts/index.js';
import type { ProfileService } from '../profiles/index.js';
import type { TemplateRenderer } from '../templates/index.js';
import type { AnswerRenderer, CatalogReader } from './netboot-ports.js';
import { createTasksPart, type TasksFacade } from './tasks/index.js';
import type { RuntimeLimits } from './tasks/runtime-limiter.js';

export * from './netboot-ports.js';

/** Test seams and tuning of the netboot area. */
export interface NetbootAreaOptions {
  /** The shipped catalog file; default resources/netboot/catalog.yaml. */
  catalogFile?: string;
  /** The clock of task expiry and the cache's LRU (tests). */
  now?: () => Date;
  /** Test seam: a catalog in place of the catalog part's (install task tests use a small fake). */
  catalogReader?: CatalogReader;
  /** Test seam: an answer renderer in place of the answers part's. */
  answerRenderer?: AnswerRenderer;
  /** Rate limits of the PXE runtime endpoints (tests lower them). */
  runtimeLimits?: Partial<RuntimeLimits>;
  /** How often overdue install tasks are expired (tests shorten it). */
  taskExpiryCheckMs?: number;
}

/** The netboot area's operations as other areas, routes and tests see them (filled in by its parts). */
export interface NetbootFacade {
  /** Install tasks (tasks/). */
  tasks: TasksFacade;
}

/*
 * Stand-ins for the parts not merged into this branch yet: an empty catalog
 * and no templates (every lookup is a 404 naming the missing part). The lead
 * replaces them with the real parts at merge (see WIRING below).
 */
function notWired(what: string, part: string): never {
  throw new AppError('NOT_FOUND', `${what} not found (the netboot ${part} is not wired into this build)`);
}
const UNWIRED_CATALOG: CatalogReader = { resolve: (distro) => notWired(`catalog entry ${distro}`, 'catalog'), supports: () => false };
const UNWIRED_ANSWERS: AnswerRenderer = {
  render: () => notWired('answer template', 'answer templates part'),
  require: (id) => notWired(`answer template ${id}`, 'answer templates part'),
};

/**
 * The netboot area module (docs/netboot.md): the OS catalog and overlays
 * (catalog/), where entries' boot files come from and the download cache
 * (files/), answer-file templates with versions (answers/), install tasks and
 * the PXE runtime endpoints (tasks/). A machine with an active task boots its
 * installer through the boot scripts' override hook.
 */
export function netbootArea(
  options: NetbootAreaOptions = {},
): AreaModule<
  'netboot',
  NetbootFacade,
  {
    templates: TemplateRenderer;
    profiles: ProfileService;
    hosts: HostService;
    dhcp: Pick<DhcpFacade, 'leases'>;
    'boot-files': BootFilesFacade;
    'boot-scripts': BootScriptService;
  }
> {
  return {
    name: 'netboot',
    needs: ['templates', 'profiles', 'hosts', 'dhcp', 'boot-files', 'boot-scripts'],
    create(kernel, { templates, profiles, hosts, dhcp, 'boot-scripts': bootScripts }) {
      // ---- tasks part (helper D)
      // WIRING (lead, at merge): catalog = options.catalogReader ?? <the catalog part's CatalogReader>;
      //                          answers = options.answerRenderer ?? <the answers part's AnswerRenderer>.
      const catalog = options.catalogReader ?? UNWIRED_CATALOG;
      const answers = options.answerRenderer ?? UNWIRED_ANSWERS;
      const tasks = createTasksPart(kernel, {
        catalog,
        answers,
        templates,
        hosts,
        profiles,
        leases: dhcp.leases,
        ...(options.now ? { now: options.now } : {}),
        ...(options.runtimeLimits ? { runtimeLimits: options.runtimeLimits } : {}),
        ...(options.taskExpiryCheckMs !== undefined ? { expiryCheckMs: options.taskExpiryCheckMs } : {}),
      });
      bootScripts.addBootOverride(tasks.facade.bootOverride);
      // WIRING (lead, at merge): <answers part>.addUsageCheck(tasks.facade.templateUsage) — a template in use by an active task is not deleted.
      // ---- end of tasks part
      return {
        facade: { tasks: tasks.facade },
        routes: [...tasks.routes],
        services: [],
        start: async () => tasks.start(),
        stop: async () => tasks.stop(),
      };
    },
  };
}
