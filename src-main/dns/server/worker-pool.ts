import type { Logger } from '../../core/logger.js';
import { hostWorker, workerModule, type HostedWorker } from '../../core/worker-host.js';
import type { BindTarget } from './dns-listeners.js';
import type { WorkerMetricsDelta } from './worker-metrics.js';
import type { BindFailure, DnsWorkerConfig, FromWorker, ToWorker } from './worker-protocol.js';
import type { ZoneSnapshot } from './zone-snapshot.js';

/** A worker that does not answer a request in this time is treated as failed. */
const REQUEST_TIMEOUT_MS = 10_000;
/** A worker that died is started again after this pause. */
const RESPAWN_DELAY_MS = 1_000;

type Request = { type: 'zone'; snapshot: ZoneSnapshot } | { type: 'bind'; targets: BindTarget[] } | { type: 'flush' } | { type: 'stop' };
type Reply = Extract<FromWorker, { type: 'done' }>;

interface Slot {
  config: DnsWorkerConfig;
  worker: HostedWorker<ToWorker, FromWorker, Reply>;
}

export interface BindResult {
  listen: string[];
  failures: BindFailure[];
}

/**
 * The DNS worker threads of a running server: spawns them, sends each the
 * snapshot and the addresses, gathers their metric deltas, and starts a
 * worker again if one dies (with the last snapshot and addresses).
 */
export class DnsWorkerPool {
  private readonly slots: Slot[] = [];
  private readonly log: Logger;
  private readonly onMetrics: (delta: WorkerMetricsDelta) => void;
  private stopping = false;
  private lastSnapshot: ZoneSnapshot | null = null;
  private lastTargets: BindTarget[] | null = null;

  constructor(deps: { count: number; port: number; reusePort: boolean; log: Logger; onMetrics: (delta: WorkerMetricsDelta) => void }) {
    this.log = deps.log;
    this.onMetrics = deps.onMetrics;
    for (let index = 0; index < deps.count; index++) {
      this.slots.push(this.spawn({ index, port: deps.port, reusePort: deps.reusePort, tcp: index === 0 }));
    }
  }

  get size(): number {
    return this.slots.length;
  }

  /** Resolves once every worker has loaded; rejects when one failed to. */
  async ready(): Promise<void> {
    await Promise.all(this.slots.map((slot) => slot.worker.ready));
  }

  async applyZone(snapshot: ZoneSnapshot): Promise<void> {
    this.lastSnapshot = snapshot;
    await Promise.all(this.slots.map((slot) => this.request(slot, { type: 'zone', snapshot })));
  }

  /** Binds every worker to `targets`; the listen list is the first worker's (it alone has TCP). */
  async bind(targets: BindTarget[]): Promise<BindResult> {
    this.lastTargets = targets;
    const replies = await Promise.all(this.slots.map((slot) => this.request(slot, { type: 'bind', targets })));
    const failures = new Map<string, BindFailure>();
    for (const reply of replies) for (const failure of reply.failures ?? []) failures.set(failure.message, failure);
    return { listen: replies[0]?.listen ?? [], failures: [...failures.values()] };
  }

  async flushMetrics(): Promise<void> {
    await Promise.all(this.slots.map((slot) => this.request(slot, { type: 'flush' }).catch(() => undefined)));
  }

  /** Closes the sockets and ends the threads; never throws. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(
      this.slots.map(async (slot) => {
        await this.request(slot, { type: 'stop' }).catch(() => undefined);
        await slot.worker.terminate();
      }),
    );
  }

  private spawn(config: DnsWorkerConfig): Slot {
    const slot: Slot = {
      config,
      worker: hostWorker<ToWorker, FromWorker, Reply>({
        module: workerModule(import.meta.url, './dns-worker.js'),
        name: `dns-${config.index}`,
        workerData: config,
        isReady: (message) => message.type === 'ready',
        isReply: (message): message is Reply => message.type === 'done',
        replyId: (reply) => reply.seq,
        onMessage: (message) => {
          if (message.type === 'metrics') this.onMetrics(message.delta);
        },
        onEnd: (end) => {
          if (end.error) this.log.error(`DNS worker ${config.index} failed: ${end.error.message}`);
          if (!this.stopping && !end.terminated) this.respawn(slot);
        },
      }),
    };
    return slot;
  }

  private respawn(dead: Slot): void {
    this.log.error(`DNS worker ${dead.config.index} stopped unexpectedly; starting it again in ${RESPAWN_DELAY_MS} ms`);
    setTimeout(() => {
      if (this.stopping) return;
      const index = this.slots.indexOf(dead);
      if (index < 0) return;
      const slot = this.spawn(dead.config);
      this.slots[index] = slot;
      void (async () => {
        await slot.worker.ready;
        if (this.lastSnapshot) await this.request(slot, { type: 'zone', snapshot: this.lastSnapshot });
        if (this.lastTargets) await this.request(slot, { type: 'bind', targets: this.lastTargets });
      })().catch((err: Error) => this.log.error(`DNS worker ${dead.config.index} did not come back: ${err.message}`));
    }, RESPAWN_DELAY_MS).unref();
  }

  private async request(slot: Slot, request: Request): Promise<Reply> {
    await slot.worker.ready;
    return slot.worker.request((seq) => ({ ...request, seq }) as ToWorker, { timeoutMs: REQUEST_TIMEOUT_MS, what: request.type });
  }
}
