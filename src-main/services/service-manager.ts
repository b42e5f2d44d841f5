import { AppError, errorMessage } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { EventLog } from '../events/event-log.js';
import type { Store } from '../store/store.js';
import type { Section } from '../store/section.js';

import { SERVICE_ACTIONS, SERVICE_STATES, type ServiceAction, type ServiceState, type ServiceStatus } from './services-contract.js';

export { SERVICE_ACTIONS, SERVICE_STATES, type ServiceAction, type ServiceState, type ServiceStatus };

/**
 * One network server the manager owns. This is the one way to add a server:
 * implement it in its area's `server/` folder (`src-main/<area>/server/`) and
 * return it from the area module's `services` (docs/architecture.md).
 */
export interface ManagedService {
  readonly name: string;
  readonly description: string;
  /** Started at launch unless the user changed the flag. */
  readonly defaultAutoStart: boolean;
  /** The API cannot stop it (the HTTP server that serves the API itself). */
  readonly protected?: boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Addresses it listens on while running, e.g. "udp 0.0.0.0:53". */
  listenAddresses(): string[];
  /** What a running service waits for or lacks, e.g. "br0: no link (cable unplugged?)"; null when nothing. */
  notice?(): string | null;
}

interface Runtime {
  service: ManagedService;
  state: ServiceState;
  startedAt: Date | null;
  lastError: string | null;
  /** Serialises transitions of one service. */
  queue: Promise<unknown>;
}

interface AutoStartSettings {
  auto_start: Record<string, boolean>;
}


/**
 * Owns every network server: their states, auto-start flags and transitions.
 * Transitions of one service run one after another; start of a running
 * service and stop of a stopped one succeed without doing anything.
 */
export class ServiceManager {
  private readonly runtimes = new Map<string, Runtime>();
  private readonly settings: Section<AutoStartSettings>;
  private readonly events: EventLog;
  private readonly log: Logger;

  constructor(deps: { store: Store; events: EventLog; log: Logger }) {
    this.settings = deps.store.section<AutoStartSettings>('services', { auto_start: {} });
    this.events = deps.events;
    this.log = deps.log.scope('services');
  }

  register(service: ManagedService): void {
    if (this.runtimes.has(service.name)) throw new Error(`service ${service.name} is registered twice`);
    this.runtimes.set(service.name, { service, state: 'stopped', startedAt: null, lastError: null, queue: Promise.resolve() });
  }

  names(): string[] {
    return [...this.runtimes.keys()];
  }

  has(name: string): boolean {
    return this.runtimes.has(name);
  }

  list(now: Date = new Date()): ServiceStatus[] {
    return [...this.runtimes.values()].map((runtime) => this.status(runtime, now));
  }

  get(name: string, now: Date = new Date()): ServiceStatus {
    return this.status(this.runtime(name), now);
  }

  autoStart(name: string): boolean {
    const runtime = this.runtime(name);
    return this.settings.get().auto_start[name] ?? runtime.service.defaultAutoStart;
  }

  async setAutoStart(name: string, autoStart: boolean): Promise<ServiceStatus> {
    this.runtime(name);
    const current = this.settings.get();
    await this.settings.set({ auto_start: { ...current.auto_start, [name]: autoStart } });
    return this.get(name);
  }

  /**
   * Starts every service whose auto-start flag is set (optionally only among
   * `allowed`); failures are recorded as the service's state, not thrown.
   */
  async startAutoStart(allowed: boolean | readonly string[] = true): Promise<void> {
    if (allowed === false) return;
    for (const name of this.names()) {
      if (Array.isArray(allowed) && !allowed.includes(name)) continue;
      if (this.autoStart(name)) await this.start(name).catch(() => undefined);
    }
  }

  /** Stops everything (app quit); never throws. */
  async stopAll(): Promise<void> {
    for (const name of [...this.names()].reverse()) {
      await this.transition(name, 'stop', { force: true }).catch(() => undefined);
    }
  }

  start(name: string): Promise<ServiceStatus> {
    return this.transition(name, 'start');
  }

  stop(name: string): Promise<ServiceStatus> {
    return this.transition(name, 'stop');
  }

  restart(name: string): Promise<ServiceStatus> {
    return this.transition(name, 'restart');
  }

  /** Restarts a running service (after its settings changed); leaves a stopped one stopped. */
  async reload(name: string): Promise<ServiceStatus> {
    const runtime = this.runtime(name);
    await runtime.queue.catch(() => undefined);
    if (runtime.state === 'running' || runtime.state === 'failed') return this.transition(name, 'restart', { force: true });
    return this.status(runtime, new Date());
  }

  private transition(name: string, action: ServiceAction, options: { force?: boolean } = {}): Promise<ServiceStatus> {
    const runtime = this.runtime(name);
    if (action !== 'start' && runtime.service.protected && !options.force) {
      return Promise.reject(
        new AppError('INVALID_STATE', `service ${name} serves this API and cannot be ${action === 'stop' ? 'stopped' : 'restarted'} through it`),
      );
    }
    if (runtime.state === 'starting' || runtime.state === 'stopping') {
      if (!options.force) {
        return Promise.reject(new AppError('INVALID_STATE', `service ${name} is ${runtime.state}; try again when it has settled`));
      }
    }
    const run = runtime.queue.catch(() => undefined).then(async () => {
      if (action === 'stop' || action === 'restart') await this.doStop(runtime);
      if (action === 'start' || action === 'restart') await this.doStart(runtime);
      return this.status(runtime, new Date());
    });
    runtime.queue = run;
    return run;
  }

  private async doStart(runtime: Runtime): Promise<void> {
    if (runtime.state === 'running') return;
    const { service } = runtime;
    runtime.state = 'starting';
    try {
      await service.start();
      runtime.state = 'running';
      runtime.startedAt = new Date();
      runtime.lastError = null;
      this.log.info(`${service.name} started`, { listen: service.listenAddresses() });
      this.events.emit({ kind: 'service.started', message: `${service.name} started`, detail: { service: service.name, listen: service.listenAddresses() } });
    } catch (err) {
      runtime.state = 'failed';
      runtime.startedAt = null;
      runtime.lastError = errorMessage(err);
      // Release whatever the half-started service holds.
      await service.stop().catch(() => undefined);
      this.log.error(`${service.name} failed to start: ${runtime.lastError}`);
      this.events.emit({ kind: 'service.failed', level: 'error', message: `${service.name} failed: ${runtime.lastError}`, detail: { service: service.name, error: runtime.lastError } });
    }
  }

  private async doStop(runtime: Runtime): Promise<void> {
    const { service } = runtime;
    if (runtime.state === 'stopped') return;
    if (runtime.state === 'failed') {
      runtime.state = 'stopped';
      return;
    }
    runtime.state = 'stopping';
    try {
      await service.stop();
    } catch (err) {
      this.log.warn(`${service.name} did not stop cleanly: ${errorMessage(err)}`);
    }
    runtime.state = 'stopped';
    runtime.startedAt = null;
    this.log.info(`${service.name} stopped`);
    this.events.emit({ kind: 'service.stopped', message: `${service.name} stopped`, detail: { service: service.name } });
  }

  private runtime(name: string): Runtime {
    const runtime = this.runtimes.get(name);
    if (!runtime) throw new AppError('NOT_FOUND', `service "${name}" not found; services are ${this.names().join(', ')}`);
    return runtime;
  }

  private status(runtime: Runtime, now: Date): ServiceStatus {
    const { service } = runtime;
    return {
      name: service.name,
      description: service.description,
      state: runtime.state,
      auto_start: this.settings.get().auto_start[service.name] ?? service.defaultAutoStart,
      protected: service.protected ?? false,
      listen: runtime.state === 'running' ? service.listenAddresses() : [],
      started_at: runtime.startedAt?.toISOString() ?? null,
      uptime_seconds: runtime.startedAt ? Math.floor((now.getTime() - runtime.startedAt.getTime()) / 1000) : null,
      last_error: runtime.lastError,
      notice: runtime.state === 'running' ? (service.notice?.() ?? null) : null,
    };
  }
}
