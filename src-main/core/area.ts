import type { FastifyPluginAsync } from 'fastify';
import type { EventLog } from '../events/event-log.js';
import type { Metrics } from '../metrics/metrics.js';
import type { NetworkService } from '../network/network-service.js';
import type { ManagedService, ServiceManager } from '../services/service-manager.js';
import type { SettingsService } from '../settings/settings-service.js';
import type { Store } from '../store/store.js';
import type { AppConfig } from './config.js';
import type { Logger } from './logger.js';

/*
 * Area modules (docs/architecture.md, "Area folders"). This file is ground
 * layer: it imports no area. An area folder exports one AreaModule; the core
 * walks an ordered list of them, creating each after the areas it needs.
 */

/** The ground services every area receives (none of them is an area). */
export interface Kernel {
  config: AppConfig;
  store: Store;
  events: EventLog;
  log: Logger;
  settings: SettingsService;
  network: NetworkService;
  metrics: Metrics;
  services: ServiceManager;
}

/** What an area's create() hands back to the core. */
export interface AreaParts<Facade> {
  /** The area's operations as routes, IPC and other areas see them (`ctx.<name>`). */
  facade: Facade;
  /** Route plugins, registered under /api/v1 after the audit hook. */
  routes: readonly FastifyPluginAsync[];
  /** Network servers the service manager owns, registered after the core's own (HTTP first). */
  services: readonly ManagedService[];
  /** Background work besides the managed services; run once the auto-start services are up. */
  start?(): Promise<void>;
  /** Stops what start() began; called before the services stop. */
  stop?(): Promise<void>;
}

export interface AreaModule<Name extends string = string, Facade = unknown, Deps extends object = Record<string, unknown>> {
  name: Name;
  /** The areas whose facades create() receives in `deps`, by name; they must come earlier in the list. */
  needs: readonly string[];
  // Method syntax on purpose: a list holds areas with different Deps.
  create(kernel: Kernel, deps: Deps): AreaParts<Facade> | Promise<AreaParts<Facade>>;
}

/** The created areas of one core, in list order. */
export class Areas {
  private readonly created = new Map<string, AreaParts<unknown>>();

  /** Creates the areas of `list` in order; an area whose needs are not created before it is a wiring mistake and throws. */
  static async create(list: readonly AreaModule[], kernel: Kernel): Promise<Areas> {
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
    const parts = this.created.get(area.name);
    if (!parts) throw new Error(`area "${area.name}" is not in the area list`);
    return parts.facade as Facade;
  }

  routes(): FastifyPluginAsync[] {
    return [...this.created.values()].flatMap((parts) => parts.routes);
  }

  services(): ManagedService[] {
    return [...this.created.values()].flatMap((parts) => parts.services);
  }

  async start(): Promise<void> {
    for (const parts of this.created.values()) await parts.start?.();
  }

  /** Stops in reverse list order (an area stops before the areas it needs). */
  async stop(): Promise<void> {
    for (const parts of [...this.created.values()].reverse()) await parts.stop?.();
  }
}
