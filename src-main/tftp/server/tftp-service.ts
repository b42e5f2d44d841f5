import type { BootFiles } from '../../boot-files/boot-files.js';
import type { Bootloaders } from '../../boot-files/bootloaders.js';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { EventLog } from '../../events/event-log.js';
import { isIpv6LinkLocal } from '../../network/ip-math.js';
import type { NetworkService } from '../../network/network-service.js';
import type { ManagedService } from '../../services/service-manager.js';
import { InlineTftpEngine, WorkerTftpEngine, WorkerUnavailableError, type TftpEngine, type TftpEngineHooks } from './tftp-engine.js';
import { TftpMetrics } from './tftp-metrics.js';
import type { TftpServerConfig, TftpServerEvent } from './tftp-server.js';
import type { TftpSettings } from '../tftp-settings.js';
import type { Metrics } from '../../metrics/metrics.js';

export type TftpThreading = 'worker' | 'inline';

export interface TftpServiceDeps {
  settings: TftpSettings;
  bootFiles: BootFiles;
  bootloaders: Bootloaders;
  network: NetworkService;
  events: EventLog;
  metrics: Metrics;
  log: Logger;
  /** Default: a worker thread, falling back to inline when the worker cannot load. */
  threading?: TftpThreading;
}

/** File chunks kept in memory across transfers (shared by all clients). */
const CACHE_BYTES = 64 * 1024 * 1024;
const MAX_TRANSFERS = 2000;
const MAX_CRASH_RESTARTS = 5;
/** Refused requests recorded as events per second at most; the metric counts them all. */
const REFUSAL_EVENTS_PER_SECOND = 50;

/**
 * The TFTP server as a managed service: reads its settings at start, listens
 * on the served interfaces' addresses (following them as they change), and
 * turns the server's reports into events and metrics.
 */
export class TftpService implements ManagedService {
  readonly name = 'tftp';
  readonly description = 'TFTP: boot loaders and boot scripts for PXE clients (read-only)';
  readonly defaultAutoStart = true;
  private readonly deps: TftpServiceDeps;
  private readonly log: Logger;
  private readonly metrics: TftpMetrics;
  private engine: TftpEngine | null = null;
  private listen: string[] = [];
  private unsubscribe: (() => void) | null = null;
  private crashRestarts = 0;
  /** The real path of the root the policy accepted at start; the server refuses requests if it stops resolving to itself. */
  private servedRoot: string | null = null;
  private readonly refusalBudget = new EventBudget(REFUSAL_EVENTS_PER_SECOND);
  /** Serialises start/stop with rebinds triggered by interface changes. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(deps: TftpServiceDeps) {
    this.deps = deps;
    this.log = deps.log.scope('tftp');
    this.metrics = new TftpMetrics(deps.metrics);
  }

  start(): Promise<void> {
    return this.serialise(async () => {
      // The boot root is ours to create; any other root was checked to exist when it was set.
      if (this.deps.settings.get().root === null) await this.deps.bootFiles.ensureRoot();
      // The served-root policy runs before anything is written into or served from the root: a refused root fails the service.
      this.servedRoot = await this.deps.settings.checkedRoot();
      await this.deps.bootloaders.installMissing([this.servedRoot]).catch((err: unknown) => this.log.warn(`installing boot loaders: ${errorMessage(err)}`));
      const config = this.serverConfig();
      this.listen = await this.startEngine(config);
      this.metrics.resetActive();
      this.crashRestarts = 0;
      this.unsubscribe = this.deps.network.onChange(() => {
        void this.serialise(() => this.rebind());
      });
    });
  }

  stop(): Promise<void> {
    return this.serialise(async () => {
      this.unsubscribe?.();
      this.unsubscribe = null;
      const engine = this.engine;
      this.engine = null;
      this.listen = [];
      this.servedRoot = null;
      await engine?.stop();
      this.metrics.resetActive();
    });
  }

  listenAddresses(): string[] {
    return this.listen;
  }

  /** What it waits for: served interfaces without a link or an address (`br0: no link (cable unplugged?)`). */
  notice(): string | null {
    return this.deps.network.noticeFor('served');
  }

  /** Every address of the served interfaces (IPv6 link-local left out: binding needs a scope). */
  servedAddresses(): string[] {
    const served = new Set(this.deps.network.served().map((nic) => nic.name));
    const addresses = new Set<string>();
    for (const nic of this.deps.network.list()) {
      if (!served.has(nic.name)) continue;
      for (const address of nic.addresses) if (!isIpv6LinkLocal(address.address)) addresses.add(address.address);
    }
    return [...addresses];
  }

  private serverConfig(): TftpServerConfig {
    const settings = this.deps.settings.get();
    if (this.servedRoot === null) throw new Error('TFTP root was not checked before serving');
    return {
      addresses: this.servedAddresses(),
      port: settings.port,
      root: this.servedRoot,
      maxBlksize: settings.max_blksize,
      maxWindowsize: settings.max_windowsize,
      timeoutMs: settings.timeout * 1000,
      retries: settings.retries,
      maxTransfers: MAX_TRANSFERS,
      cacheBytes: CACHE_BYTES,
    };
  }

  private async startEngine(config: TftpServerConfig): Promise<string[]> {
    const hooks = this.engineHooks();
    if ((this.deps.threading ?? 'worker') === 'worker') {
      const engine = new WorkerTftpEngine(hooks);
      this.engine = engine;
      try {
        return await engine.start(config);
      } catch (err) {
        if (!(err instanceof WorkerUnavailableError)) throw err;
        this.log.warn(`TFTP runs on the main thread: its worker thread could not start (${err.message})`);
      }
    }
    const engine = new InlineTftpEngine(hooks);
    this.engine = engine;
    return engine.start(config);
  }

  private async rebind(): Promise<void> {
    if (!this.engine) return;
    try {
      this.listen = await this.engine.rebind(this.servedAddresses());
    } catch (err) {
      this.log.warn(`rebinding TFTP after an interface change failed: ${errorMessage(err)}`);
    }
  }

  private engineHooks(): TftpEngineHooks {
    return {
      resolveVirtual: (path, client) => this.deps.bootFiles.resolveVirtual(path, { ip: client.ip, protocol: 'tftp', query: new URLSearchParams() }),
      onEvent: (event) => this.onServerEvent(event),
      log: (level, message) => this.log[level](message),
      onCrash: (error) => {
        this.log.error(error);
        this.listen = [];
        if (this.crashRestarts >= MAX_CRASH_RESTARTS) return;
        this.crashRestarts++;
        void this.serialise(async () => {
          if (!this.engine) return;
          this.listen = await this.engine.start(this.serverConfig()).catch((err: unknown) => {
            this.log.error(`restarting the TFTP worker failed: ${errorMessage(err)}`);
            return [];
          });
        });
      },
    };
  }

  private onServerEvent(event: TftpServerEvent): void {
    this.metrics.record(event);
    const { events } = this.deps;
    switch (event.type) {
      case 'started':
        events.emit({
          kind: 'tftp.transfer.started',
          ip: event.client.ip,
          message: `TFTP ${event.client.ip} started ${event.file} (${event.size} bytes, blksize ${event.blksize}, windowsize ${event.windowsize})`,
          detail: transferDetail(event),
        });
        return;
      case 'completed':
        events.emit({
          kind: 'tftp.transfer.completed',
          ip: event.client.ip,
          message: `TFTP ${event.client.ip} received ${event.file} (${event.bytes} bytes in ${Math.round(event.durationMs)} ms)`,
          detail: { ...transferDetail(event), bytes: event.bytes, duration_ms: Math.round(event.durationMs), retransmits: event.retransmits },
        });
        return;
      case 'failed':
        events.emit({
          kind: 'tftp.transfer.failed',
          level: 'warn',
          ip: event.client.ip,
          message: `TFTP ${event.client.ip} failed to receive ${event.file}: ${event.error}`,
          detail: { ...transferDetail(event), bytes: event.bytes, duration_ms: Math.round(event.durationMs), retransmits: event.retransmits, error: event.error },
        });
        return;
      case 'refused':
        // A scanner hammering port 69 must not flood the event log: refusals beyond the budget are only counted.
        if (!this.refusalBudget.take()) return;
        events.emit({
          kind: 'tftp.transfer.failed',
          level: 'warn',
          ip: event.client.ip,
          message: `TFTP ${event.client.ip} was refused ${event.file}: ${event.error}`,
          detail: { client: `${event.client.ip}:${event.client.port}`, file: event.file, bytes: 0, duration_ms: 0, error: event.error, error_code: event.code },
        });
        return;
      case 'probe':
        this.log.debug(`${event.client.ip} asked for the size of ${event.file} and stopped (PXE tsize probe)`);
        return;
    }
  }

  private serialise<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.catch(() => undefined).then(task);
    this.queue = run;
    return run;
  }
}

/** A per-second allowance (token bucket refilled once a second). */
class EventBudget {
  private readonly perSecond: number;
  private tokens: number;
  private second = 0;

  constructor(perSecond: number) {
    this.perSecond = perSecond;
    this.tokens = perSecond;
  }

  take(now: number = Date.now()): boolean {
    const second = Math.floor(now / 1000);
    if (second !== this.second) {
      this.second = second;
      this.tokens = this.perSecond;
    }
    if (this.tokens <= 0) return false;
    this.tokens--;
    return true;
  }
}

function transferDetail(event: Extract<TftpServerEvent, { type: 'started' | 'completed' | 'failed' }>) {
  return {
    transfer_id: event.id,
    client: `${event.client.ip}:${event.client.port}`,
    file: event.file,
    size: event.size,
    mode: event.mode,
    virtual: event.virtual,
    blksize: event.blksize,
    windowsize: event.windowsize,
  };
}
