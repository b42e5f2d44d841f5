import { isDiskFile, stretchesOf, type VirtualFile } from '../../boot-files/virtual-files.js';
import { errorMessage } from '../../core/errors.js';
import { hostWorker, workerModule, WorkerEndedError, type HostedWorker } from '../../core/worker-host.js';
import { TftpServer, type TftpClient, type TftpLogLevel, type TftpServerConfig, type TftpServerEvent } from './tftp-server.js';
import type { MainToWorker, WireVirtualFile, WorkerToMain } from './tftp-worker-protocol.js';

export interface TftpEngineHooks {
  resolveVirtual(path: string, client: TftpClient): Promise<VirtualFile | null>;
  onEvent(event: TftpServerEvent): void;
  log(level: TftpLogLevel, message: string): void;
  /** The worker died on its own; the service restarts it. */
  onCrash(error: string): void;
}

/** The worker thread could not run at all (its module failed to load); the caller may run the server inline instead. */
export class WorkerUnavailableError extends Error {
  override name = 'WorkerUnavailableError';
}

/** Where the TFTP server runs: in a worker thread (default) or in the calling thread. */
export interface TftpEngine {
  start(config: TftpServerConfig): Promise<string[]>;
  rebind(addresses: string[]): Promise<string[]>;
  stop(): Promise<void>;
}

/** The server in this thread (tests, and the fallback when a worker cannot start). */
export class InlineTftpEngine implements TftpEngine {
  private readonly hooks: TftpEngineHooks;
  private server: TftpServer | null = null;

  constructor(hooks: TftpEngineHooks) {
    this.hooks = hooks;
  }

  async start(config: TftpServerConfig): Promise<string[]> {
    await this.stop();
    this.server = new TftpServer(config, this.hooks);
    return this.server.start();
  }

  rebind(addresses: string[]): Promise<string[]> {
    return this.server ? this.server.rebind(addresses) : Promise.resolve([]);
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    await server?.stop();
  }
}

type Reply = Extract<WorkerToMain, { type: 'reply' }>;
type Worker = HostedWorker<MainToWorker, WorkerToMain, Reply>;

/** The server in its own worker thread; commands and virtual-file lookups cross by message. */
export class WorkerTftpEngine implements TftpEngine {
  private readonly hooks: TftpEngineHooks;
  private worker: Worker | null = null;
  private stopping = false;
  /** Disk files handed to the worker whose providers wait to hear that the transfer ended, by lease number. */
  private readonly leases = new Map<number, (bytesSent: number) => void>();
  private nextLease = 1;

  constructor(hooks: TftpEngineHooks) {
    this.hooks = hooks;
  }

  async start(config: TftpServerConfig): Promise<string[]> {
    await this.stop();
    this.stopping = false;
    const worker: Worker = hostWorker<MainToWorker, WorkerToMain, Reply>({
      module: workerModule(import.meta.url, './tftp-worker.js'),
      name: 'tftp',
      isReady: (message) => message.type === 'ready',
      isReply: (message): message is Reply => message.type === 'reply',
      replyId: (reply) => reply.id,
      onMessage: (message) => this.onMessage(worker, message),
      onEnd: (end) => {
        const wasCurrent = this.worker === worker;
        if (wasCurrent) this.worker = null;
        if (end.error) this.hooks.log('error', `tftp worker failed: ${errorMessage(end.error)}`);
        // The worker's transfers are gone with it: nothing will report their end.
        this.releaseAll();
        if (end.started && wasCurrent && !this.stopping && !end.terminated) this.hooks.onCrash(endReason(end.code, end.error));
      },
    });
    this.worker = worker;
    try {
      await worker.ready;
    } catch (err) {
      const end = err instanceof WorkerEndedError ? err.end : null;
      throw new WorkerUnavailableError(end ? endReason(end.code, end.error) : errorMessage(err));
    }
    return this.request(worker, { type: 'start', id: 0, config, virtualFiles: true });
  }

  async rebind(addresses: string[]): Promise<string[]> {
    const worker = this.worker;
    return worker ? this.request(worker, { type: 'rebind', id: 0, addresses }) : [];
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.stopping = true;
    try {
      await this.request(worker, { type: 'stop', id: 0 });
    } catch {
      // The worker is going away regardless.
    }
    this.worker = null;
    await worker.terminate();
  }

  private async request(worker: Worker, message: Extract<MainToWorker, { type: 'start' | 'rebind' | 'stop' }>): Promise<string[]> {
    let reply: Reply;
    try {
      reply = await worker.request((id) => ({ ...message, id }));
    } catch (err) {
      // Keep the wording of the crash the service reports ("tftp worker exited with code N: …").
      if (err instanceof WorkerEndedError) throw new Error(endReason(err.end.code, err.end.error));
      throw err;
    }
    if (!reply.ok) throw new Error(reply.error);
    return reply.value;
  }

  private onMessage(worker: Worker, message: WorkerToMain): void {
    switch (message.type) {
      case 'event':
        this.hooks.onEvent(message.event);
        return;
      case 'log':
        this.hooks.log(message.level, message.message);
        return;
      case 'virtual':
        this.hooks.resolveVirtual(message.path, message.client).then(
          (file) => {
            if (this.worker !== worker) {
              // The worker went away while the provider answered.
              if (file && isDiskFile(file)) file.release?.(0);
              return;
            }
            worker.post({ type: 'reply', id: message.id, ok: true, value: file ? this.toWire(file) : null });
          },
          (err: unknown) => worker.post({ type: 'reply', id: message.id, ok: false, error: errorMessage(err) }),
        );
        return;
      case 'released': {
        const release = this.leases.get(message.lease);
        this.leases.delete(message.lease);
        release?.(message.bytes);
        return;
      }
      default:
        // 'ready' and 'reply' are taken by the worker host.
        return;
    }
  }

  private toWire(file: VirtualFile): WireVirtualFile {
    if (!isDiskFile(file)) return { kind: 'content', content: file.content, contentType: file.contentType };
    const stretches = stretchesOf(file);
    if (!file.release) return { kind: 'file', path: file.path, size: file.size, stretches, lease: null };
    const lease = this.nextLease++;
    this.leases.set(lease, file.release);
    return { kind: 'file', path: file.path, size: file.size, stretches, lease };
  }

  private releaseAll(): void {
    const releases = [...this.leases.values()];
    this.leases.clear();
    for (const release of releases) release(0);
  }
}

function endReason(code: number, error: Error | null): string {
  return `tftp worker exited with code ${code}${error ? `: ${errorMessage(error)}` : ''}`;
}
