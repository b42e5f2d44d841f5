import type { FastifyPluginAsync } from 'fastify';
import type { AuditLog } from '../audit/audit-log.js';
import type { EventLog } from '../events/event-log.js';
import type { Metrics } from '../metrics/metrics.js';
import type { NetworkService } from '../network/network-service.js';
import type { ManagedService, ServiceManager } from '../services/service-manager.js';
import type { ServedRoots } from '../settings/served-roots.js';
import type { SettingsService } from '../settings/settings-service.js';
import type { Store } from '../store/store.js';
import type { AppConfig } from './config.js';
import type { Authenticator } from './http-kit/access.js';
import type { HttpEndpoint } from './http-kit/http-endpoint.js';
import type { RequestGuard } from './http-kit/route-table.js';
import type { SseSettings } from './http-kit/sse-settings.js';
import type { LogSink, Logger } from './logger.js';
import type { SecretBox } from './secret-box.js';
import type { BuildInfo } from './version.js';

/*
 * Area modules (docs/architecture.md, "Area folders"). This file is ground
 * layer: it imports no area. An area folder exports one AreaModule; the core
 * walks an ordered list of them, creating each after the areas it needs.
 */

/** The ground services every area receives (none of them is an area). */
export interface Kernel {
  config: AppConfig;
  /** This build's version (and Electron's, in the desktop shell). */
  build: BuildInfo & { electron: string | null };
  /** When this core was created (uptime in /status). */
  startedAt: Date;
  store: Store;
  events: EventLog;
  /** The audit trail of mutating API requests (docs/events-and-logs.md). */
  audit: AuditLog;
  /** The log files and live log stream; `log` is the core's own logger on it. */
  logs: LogSink;
  log: Logger;
  /** The settings sections with change subscriptions (docs/settings-and-status.md). */
  settings: SettingsService;
  /** The served-root policy every area that serves a folder to the LAN checks its root with (docs/boot-files.md). */
  servedRoots: ServedRoots;
  /** Encryption at rest of the secrets areas keep (BMC passwords, answer-template secrets): one key file per data dir. */
  secrets: SecretBox;
  network: NetworkService;
  metrics: Metrics;
  services: ServiceManager;
  /** Where the main HTTP server is reachable (the port is known only once it listens). */
  http: HttpEndpoint;
  /** Heartbeat and retry timing of the SSE streams. */
  sse: SseSettings;
}

/** What an area's create() hands back to the core. */
export interface AreaParts<Facade> {
  /** The area's operations as routes, IPC and other areas see them (`ctx.<name>`). */
  facade: Facade;
  /** Route plugins, registered under /api/v1 after the audit hook. */
  routes: readonly FastifyPluginAsync[];
  /** API plugins registered under /api/v1 before any area's routes (hooks that must see every route: the audit hook). */
  hooks?: readonly FastifyPluginAsync[];
  /** Plugins registered at the HTTP root, outside /api/v1 (/metrics, /boot/). */
  rootRoutes?: readonly FastifyPluginAsync[];
  /** The API's authenticator; exactly one area (auth) contributes it. */
  authenticator?: Authenticator;
  /** Request guards run before authentication (the Host and CSRF guards). */
  guards?: readonly RequestGuard[];
  /** Network servers the service manager owns, registered after the core's own (HTTP first). */
  services: readonly ManagedService[];
  /** Work that must be done before anything serves (HTTP starts after it): creating and checking a served root. */
  prepare?(): Promise<void>;
  /** Background work besides the managed services; run once the auto-start services are up. */
  start?(): Promise<void>;
  /** Stops what start() began; called before the services stop. */
  stop?(): Promise<void>;
  /** Releases what create() opened (a journal, a worker thread); called after every service stopped, before the store closes. */
  close?(): Promise<void>;
}

export interface AreaModule<Name extends string = string, Facade = unknown, Deps extends object = Record<string, unknown>> {
  name: Name;
  /** The areas whose facades create() receives in `deps`, by name; they must come earlier in the list. */
  needs: readonly string[];
  // Method syntax on purpose: a list holds areas with different Deps.
  create(kernel: Kernel, deps: Deps): AreaParts<Facade> | Promise<AreaParts<Facade>>;
}

/** The facade type an area module creates. */
export type FacadeOf<M> = M extends AreaModule<string, infer Facade, never> ? Facade : never;

/** name → facade type, for a list of area modules (`as const`). */
export type FacadesOf<List extends readonly AreaModule<string, unknown, never>[]> = { [M in List[number] as M['name']]: FacadeOf<M> };

/**
 * The wiring mistakes of an area list, as sentences (empty when it is sound):
 * a name listed twice, a need no area provides, a cycle among the needs, and
 * a need listed after the area that needs it (creation walks the list in order).
 */
export function areaListProblems(list: readonly AreaModule<string, unknown, never>[]): string[] {
  const problems: string[] = [];
  const byName = new Map<string, AreaModule<string, unknown, never>>();
  for (const area of list) {
    if (byName.has(area.name)) problems.push(`"${area.name}" is listed twice`);
    byName.set(area.name, area);
  }
  for (const area of list) for (const need of area.needs) if (!byName.has(need)) problems.push(`"${area.name}" needs "${need}", which is not in the list`);
  // Depth-first search over the needs; a need met again while still on the path closes a cycle.
  const done = new Set<string>();
  const visit = (name: string, path: readonly string[]): void => {
    if (path.includes(name)) {
      problems.push(`the needs form a cycle: ${[...path.slice(path.indexOf(name)), name].join(' → ')}`);
      return;
    }
    if (done.has(name)) return;
    for (const need of byName.get(name)?.needs ?? []) visit(need, [...path, name]);
    done.add(name);
  };
  for (const area of list) visit(area.name, []);
  const position = new Map(list.map((area, index) => [area.name, index]));
  for (const [index, area] of list.entries()) {
    for (const need of area.needs) {
      const at = position.get(need);
      if (at !== undefined && at > index) problems.push(`"${area.name}" needs "${need}", which is listed after it`);
    }
  }
  return [...new Set(problems)];
}

/** The created areas of one core, in list order. */
export class Areas {
  private readonly created = new Map<string, AreaParts<unknown>>();

  /** Creates the areas of `list` in order; an area whose needs are not created before it is a wiring mistake and throws. */
  static async create(list: readonly AreaModule[], kernel: Kernel): Promise<Areas> {
    const problems = areaListProblems(list);
    if (problems.length > 0) throw new Error(`area list: ${problems.join('; ')}`);
    const areas = new Areas();
    for (const area of list) {
      if (areas.created.has(area.name)) throw new Error(`area list: "${area.name}" is listed twice`);
      const deps: Record<string, unknown> = {};
      for (const need of area.needs) {
        const parts = areas.created.get(need);
        if (!parts) throw new Error(`area list: "${area.name}" needs "${need}", which is not listed before it`);
        deps[need] = parts.facade;
      }
      areas.created.set(area.name, await area.create(kernel, deps));
    }
    return areas;
  }

  /** The facade `area` created (typed by the module object). */
  facade<Facade>(area: AreaModule<string, Facade, never>): Facade {
    return this.facadeNamed(area.name) as Facade;
  }

  /** The facade of the area named `name` (the caller types it, e.g. through FacadesOf). */
  facadeNamed(name: string): unknown {
    const parts = this.created.get(name);
    if (!parts) throw new Error(`area "${name}" is not in the area list`);
    return parts.facade;
  }

  routes(): FastifyPluginAsync[] {
    return [...this.created.values()].flatMap((parts) => parts.routes);
  }

  hooks(): FastifyPluginAsync[] {
    return [...this.created.values()].flatMap((parts) => parts.hooks ?? []);
  }

  rootRoutes(): FastifyPluginAsync[] {
    return [...this.created.values()].flatMap((parts) => parts.rootRoutes ?? []);
  }

  guards(): RequestGuard[] {
    return [...this.created.values()].flatMap((parts) => parts.guards ?? []);
  }

  /** The one contributed authenticator, or null when no area contributes one; two are a wiring mistake. */
  authenticator(): Authenticator | null {
    const found = [...this.created.entries()].filter(([, parts]) => parts.authenticator);
    if (found.length > 1) throw new Error(`area list: ${found.map(([name]) => name).join(' and ')} both contribute an authenticator`);
    return found[0]?.[1].authenticator ?? null;
  }

  services(): ManagedService[] {
    return [...this.created.values()].flatMap((parts) => parts.services);
  }

  /** Runs every area's prepare() in list order; the core calls it before the HTTP service starts. */
  async prepare(): Promise<void> {
    for (const parts of this.created.values()) await parts.prepare?.();
  }

  async start(): Promise<void> {
    for (const parts of this.created.values()) await parts.start?.();
  }

  /** Stops in reverse list order (an area stops before the areas it needs). */
  async stop(): Promise<void> {
    for (const parts of [...this.created.values()].reverse()) await parts.stop?.();
  }

  /** Closes in reverse list order, once every service has stopped. */
  async close(): Promise<void> {
    for (const parts of [...this.created.values()].reverse()) await parts.close?.();
  }
}
