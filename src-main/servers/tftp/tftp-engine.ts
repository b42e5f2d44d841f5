import type { Worker } from 'node:worker_threads';
import type { VirtualFile } from '../../boot-files/virtual-files.js';
import { errorMessage } from '../../core/errors.js';
import { siblingModule, startModuleWorker } from './module-worker.js';
import { TftpServer, type TftpClient, type TftpLogLevel, type TftpServerConfig, type TftpServerEvent } from './tftp-server.js';
import type { MainToWorker, WorkerToMain } from './tftp-worker-protocol.js';

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

/** The server in its own worker thread; commands and virtual-file lookups cross by message. */
export class WorkerTftpEngine implements TftpEngine {
  private readonly hooks: TftpEngineHooks;
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (listen: string[]) => void; reject: (err: Error) => void }>();
  private stopping = false;

  constructor(hooks: TftpEngineHooks) {
    this.hooks = hooks;
  }

  async start(config: TftpServerConfig): Promise<string[]> {
    await this.stop();
    this.stopping = false;
    const worker = startModuleWorker(siblingModule(import.meta.url, './tftp-worker.js'));
    this.worker = worker;
    let lastError = '';
    let ready = false;
    const loaded = new Promise<void>((resolve, reject) => {
      worker.on('message', (message: WorkerToMain) => {
        if (message.type === 'ready') {
          ready = true;
          resolve();
          return;
        }
        this.onMessage(worker, message);
      });
      worker.on('error', (err) => {
        lastError = errorMessage(err);
        this.hooks.log('error', `tftp worker failed: ${lastError}`);
      });
      worker.on('exit', (code) => {
        const wasCurrent = this.worker === worker;
        if (wasCurrent) this.worker = null;
        const reason = `tftp worker exited with code ${code}${lastError ? `: ${lastError}` : ''}`;
        if (!ready) reject(new WorkerUnavailableError(reason));
        this.failPending(new Error(reason));
        if (ready && wasCurrent && !this.stopping) this.hooks.onCrash(reason);
      });
    });
    await loaded;
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

  private request(worker: Worker, message: Extract<MainToWorker, { type: 'start' | 'rebind' | 'stop' }>): Promise<string[]> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ ...message, id });
    });
  }

  private failPending(err: Error): void {
    for (const waiter of this.pending.values()) waiter.reject(err);
    this.pending.clear();
  }

  private onMessage(worker: Worker, message: WorkerToMain): void {
    switch (message.type) {
      case 'reply': {
        const waiter = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (!waiter) return;
        if (message.ok) waiter.resolve(message.value);
        else waiter.reject(new Error(message.error));
        return;
      }
      case 'event':
        this.hooks.onEvent(message.event);
        return;
      case 'log':
        this.hooks.log(message.level, message.message);
        return;
      case 'virtual':
        this.hooks.resolveVirtual(message.path, message.client).then(
          (file) =>
            worker.postMessage({
              type: 'reply',
              id: message.id,
              ok: true,
              value: file ? { content: file.content, contentType: file.contentType } : null,
            } satisfies MainToWorker),
          (err: unknown) => worker.postMessage({ type: 'reply', id: message.id, ok: false, error: errorMessage(err) } satisfies MainToWorker),
        );
        return;
    }
  }
}
