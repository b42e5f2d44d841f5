import type { BootFilesFacade } from '../boot-files/index.js';
import type { BootScriptService } from '../boot-scripts/index.js';
import type { AreaModule } from '../core/area.js';
import type { DhcpFacade } from '../dhcp/index.js';
import type { HostService } from '../hosts/index.js';
import { hostBootSummary } from './tasks/host-boot-summary.js';
import type { ProfileService } from '../profiles/index.js';
import type { TemplateRenderer } from '../templates/index.js';
import { serverEndpointFor } from '../boot-scripts/server-endpoint.js';
import { AnswerTemplateService, answerRoutes, PresetCatalog } from './answers/index.js';
import { createCatalogPart, type NetbootCatalog } from './catalog/index.js';
import { createNetbootFilesPart, type CatalogListing, type NetbootFilesFacade } from './files/index.js';
import type { AnswerRenderer, CatalogReader, LocalBootSource } from './netboot-ports.js';
import { catalogMenu } from './tasks/catalog-menu.js';
import { createTasksPart, type TasksFacade } from './tasks/index.js';
import type { RuntimeLimits } from './tasks/runtime-limiter.js';

export * from './netboot-ports.js';
export * from './catalog/index.js';

/** Test seams and tuning of the netboot area. */
export interface NetbootAreaOptions {
  /** The shipped catalog file; default resources/netboot/catalog.yaml. */
  catalogFile?: string;
  /** The clock of task expiry and the cache's LRU (tests). */
  now?: () => Date;
  /** The shipped answer presets (index.yaml and template files); default resources/netboot/presets. */
  presetDir?: string;
  /** Test seam: a catalog in place of the shipped one (files and tasks tests use small fakes). */
  catalogReader?: CatalogReader & CatalogListing;
  /** Test seam: an answer renderer in place of the answers part's. */
  answerRenderer?: AnswerRenderer;
  /** files: observes the headers of every mirror request (tests assert Range on a resumed download). */
  onMirrorRequest?: (url: string, headers: Record<string, string>) => void;
  /** Rate limits of the PXE runtime endpoints (tests lower them). */
  runtimeLimits?: Partial<RuntimeLimits>;
  /** How often overdue install tasks are expired (tests shorten it). */
  taskExpiryCheckMs?: number;
}

/** The netboot area's operations as other areas, routes and tests see them (filled in by its parts). */
export interface NetbootFacade {
  /** The OS catalog with overlays (catalog/): the CatalogReader of the other parts. */
  catalog: NetbootCatalog;
  /** Where entries' boot files come from, the download cache, prefetch jobs (files/). */
  files: NetbootFilesFacade;
  /** Answer templates (answers/): CRUD, versions, presets, validation, preview; the AnswerRenderer of install tasks. */
  answers: AnswerTemplateService;
  /** Install tasks and the PXE runtime endpoints (tasks/). */
  tasks: TasksFacade;
  /** Registered by os-images (listed after netboot): install tasks boot from a ready image linked to their entry. */
  addLocalSource(source: LocalBootSource): void;
}

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
    async create(kernel, { templates, profiles, hosts, dhcp, 'boot-files': bootFiles, 'boot-scripts': bootScripts }) {
      // catalog/: the shipped catalog (checked here, refused in prepare()) and the overlays.
      const catalogPart = await createCatalogPart({ ...(options.catalogFile ? { file: options.catalogFile } : {}), store: kernel.store, events: kernel.events, log: kernel.log });
      const catalog = options.catalogReader ?? catalogPart.catalog;
      // files/: boot root, download cache and prefetch behind the entries' served paths.
      const files = await createNetbootFilesPart({
        kernel,
        bootFiles: bootFiles.files,
        catalog,
        ...(options.now ? { now: options.now } : {}),
        ...(options.onMirrorRequest ? { onMirrorRequest: options.onMirrorRequest } : {}),
      });
      // answers/: presets are read (and checked) once here; a broken preset index fails the start.
      const answers = new AnswerTemplateService({
        store: kernel.store,
        log: kernel.log,
        secrets: kernel.secrets,
        templates,
        presets: PresetCatalog.load(options.presetDir),
        hosts,
        server: (clientIp) => {
          const endpoint = serverEndpointFor(clientIp ?? '127.0.0.1', kernel.network, kernel.http);
          return { ip: endpoint.ip, http_url: endpoint.base_url, boot_url: endpoint.boot_url, name: kernel.settings.general().server_name };
        },
      });
      // tasks/: install tasks, the installer boot override and the PXE runtime endpoints.
      const tasks = createTasksPart(kernel, {
        catalog,
        answers: options.answerRenderer ?? answers,
        templates,
        hosts,
        profiles,
        leases: dhcp.leases,
        files: {
          problem: async (resolved) => (await files.facade.source.check(resolved)).problem,
          prefetch: async (resolved) => {
            if ((await files.facade.source.check(resolved)).availability === 'remote') await files.facade.jobs.start(resolved);
          },
        },
        ...(options.now ? { now: options.now } : {}),
        ...(options.runtimeLimits ? { runtimeLimits: options.runtimeLimits } : {}),
        ...(options.taskExpiryCheckMs !== undefined ? { expiryCheckMs: options.taskExpiryCheckMs } : {}),
      });
      bootScripts.addBootOverride(tasks.facade.bootOverride);
      // Host reads say what each host boots next (its task first) and its lifecycle state.
      hosts.setBootSummary((host) => hostBootSummary(host, bootScripts.effectiveDecision(host), tasks.facade.service));
      // The catalog's entries in the netboot default menu, for interactive installs (not with a test's stand-in catalog).
      if (!options.catalogReader) {
        bootScripts.addMenuSource(catalogMenu({ catalog: catalogPart.catalog, check: (resolved) => files.facade.source.check(resolved), templates, log: kernel.log }));
      }
      // A template an active task uses is not deleted.
      answers.addUsageCheck(tasks.facade.templateUsage);
      answers.setTaskLookup(tasks.facade.previewContext);
      return {
        facade: { catalog: catalogPart.catalog, files: files.facade, answers, tasks: tasks.facade, addLocalSource: (source) => tasks.facade.addLocalSource(source) },
        routes: [catalogPart.routes, ...files.routes, answerRoutes(answers), ...tasks.routes],
        services: [],
        async prepare() {
          catalogPart.prepare();
        },
        start: async () => tasks.start(),
        stop: async () => tasks.stop(),
        async close() {
          await files.close();
        },
      };
    },
  };
}
