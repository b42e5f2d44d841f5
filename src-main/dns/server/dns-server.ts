import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { DnsSettingsStore } from '../dns-settings.js';
import type { NetworkService } from '../../network/network-service.js';
import type { ManagedService } from '../../services/service-manager.js';
import { bindTargets } from './bind-targets.js';
import type { DnsMetrics } from './dns-metrics.js';
import { supportsReusePort } from './runtime-support.js';
import { DnsWorkerPool } from './worker-pool.js';
import type { ZoneSnapshot } from './zone-snapshot.js';

/** How many times the last publish's duration the publisher rests before the next one (see publish()). */
const PUBLISH_REST_FACTOR = 4;
/** The longest a change waits for its turn to be published. */
const MAX_PUBLISH_REST_MS = 250;

/** The answer data the server publishes to its workers, and its change signal. */
export interface ZoneSource {
  snapshot(): ZoneSnapshot;
  onChange(listener: () => void): () => void;
}

export interface DnsServerDeps {
  settings: DnsSettingsStore;
  network: NetworkService;
  zone: ZoneSource;
  metrics: DnsMetrics;
  log: Logger;
  /** Runs at every start before the workers answer (the auto-records). */
  beforeStart: () => Promise<void>;
  /** Worker threads; more than one needs SO_REUSEPORT (see runtime-support.ts). */
  workers: number;
}

/**
 * The DNS server as a managed service. The main thread only publishes: the
 * answer data on every change, the served addresses on every interface
 * change. Worker threads own the sockets and answer.
 */
export class DnsServer implements ManagedService {
  readonly name = 'dns';
  readonly description = 'DNS: local records, host and lease names, subnet-aware answers, upstream forwarding';
  readonly defaultAutoStart = true;
  private readonly deps: DnsServerDeps;
  private readonly log: Logger;
  private pool: DnsWorkerPool | null = null;
  private listen: string[] = [];
  private unsubscribers: (() => void)[] = [];
  private publishing: Promise<void> | null = null;
  private dirty = false;
  private rebinding: Promise<void> = Promise.resolve();

  constructor(deps: DnsServerDeps) {
    this.deps = deps;
    this.log = deps.log.scope('dns');
  }

  async start(): Promise<void> {
    const settings = this.deps.settings.get();
    await this.deps.beforeStart();
    const workers = supportsReusePort() ? this.deps.workers : 1;
    const pool = new DnsWorkerPool({ count: workers, port: settings.port, reusePort: workers > 1, log: this.log, onMetrics: (delta) => this.deps.metrics.apply(delta) });
    this.pool = pool;
    await pool.ready();
    await pool.applyZone(this.deps.zone.snapshot());
    const targets = bindTargets(this.deps.network);
    const result = await pool.bind(targets);
    const [failure] = result.failures;
    if (failure) throw new Error(failure.message);
    this.listen = result.listen;
    if (targets.length === 0) this.log.warn('no served interface has an address; DNS answers once one appears');
    this.unsubscribers = [
      this.deps.zone.onChange(() => void this.publish()),
      this.deps.network.onChange(() => {
        void this.publish();
        void this.rebind();
      }),
    ];
  }

  async stop(): Promise<void> {
    for (const unsubscribe of this.unsubscribers) unsubscribe();
    this.unsubscribers = [];
    const pool = this.pool;
    this.pool = null;
    this.listen = [];
    await pool?.stop();
  }

  listenAddresses(): string[] {
    return this.listen;
  }

  /** What it waits for: served interfaces without a link or an address (`br0: no link (cable unplugged?)`). */
  notice(): string | null {
    return this.deps.network.noticeFor('served');
  }

  /** Resolves once every change made before the call is in the workers' hands (answers use it). */
  sync(): Promise<void> {
    return this.publishing ?? Promise.resolve();
  }

  /** Pulls the workers' metric counts into the registry now (they report every second anyway). */
  async flushMetrics(): Promise<void> {
    await this.pool?.flushMetrics();
  }

  /**
   * Publishes the current snapshot; changes arriving meanwhile are published
   * once more after it. A snapshot costs time in proportion to the zone (tens
   * of thousands of host names), so before publishing again the loop rests
   * PUBLISH_REST_FACTOR times as long as the last publish took (at most
   * MAX_PUBLISH_REST_MS): a stream of host writes then spends at most a fifth
   * of the main thread on DNS snapshots, and a small zone is republished at once.
   */
  private publish(): Promise<void> {
    this.dirty = true;
    if (!this.publishing) {
      this.publishing = (async () => {
        let rest = 0;
        while (this.dirty && this.pool) {
          if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
          if (!this.pool) break;
          this.dirty = false;
          const started = performance.now();
          await this.pool.applyZone(this.deps.zone.snapshot()).catch((err) => this.log.error(`publishing DNS data failed: ${errorMessage(err)}`));
          rest = Math.min(MAX_PUBLISH_REST_MS, (performance.now() - started) * PUBLISH_REST_FACTOR);
        }
      })().finally(() => {
        this.publishing = null;
      });
    }
    return this.publishing;
  }

  /** Follows the served addresses: listens on new ones, lets go of vanished ones. */
  private rebind(): Promise<void> {
    this.rebinding = this.rebinding.then(async () => {
      const pool = this.pool;
      if (!pool) return;
      try {
        const result = await pool.bind(bindTargets(this.deps.network));
        if (this.pool === pool) this.listen = result.listen;
        for (const failure of result.failures) this.log.warn(`DNS cannot listen on ${failure.address}: ${failure.message}`);
      } catch (err) {
        this.log.error(`DNS rebinding failed: ${errorMessage(err)}`);
      }
    });
    return this.rebinding;
  }
}
