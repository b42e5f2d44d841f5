import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { Authenticator } from '../api/access.js';
import { buildHttpApp, type ApiApp, type RequestGuard } from '../api/http-app.js';
import { API_ROUTE_PLUGINS } from '../api/routes/index.js';
import { EventLog } from '../events/event-log.js';
import { IpcBridge } from '../ipc/ipc-bridge.js';
import { createStreamHub, type StreamHub } from '../ipc/stream-hub.js';
import { HttpService } from '../servers/http/http-service.js';
import { ServiceManager } from '../services/service-manager.js';
import { Store } from '../store/store.js';
import type { AppContext } from './app-context.js';
import type { AppConfig } from './config.js';
import { LogSink } from './logger.js';
import { defaultRendererDir, readBuildInfo } from './version.js';

export interface AppCoreOptions {
  config: AppConfig;
  /** Print log lines on stdout (headless). */
  consoleLog?: boolean;
  /** Write log files (off in unit tests). */
  fileLog?: boolean;
  /** Built web UI; defaults to dist/renderer. null serves no UI. */
  rendererDir?: string | null;
  /** Electron's version when running in the desktop shell. */
  electronVersion?: string | null;
  /** Extra API plugins (tests register probe routes here). */
  extraApiPlugins?: readonly FastifyPluginAsync[];
  /** Replaces the authenticator (tests of the route table alone). */
  authenticator?: Authenticator;
  guards?: readonly RequestGuard[];
}

/**
 * The application core both entries share (Electron main and headless serve):
 * store, logs, events, service manager, the HTTP route table and the IPC bridge.
 */
export class AppCore {
  readonly ctx: AppContext;
  readonly http: ApiApp;
  readonly httpService: HttpService;
  readonly ipc: IpcBridge;
  /** Live event and log streams for the IPC transport. */
  readonly streams: StreamHub;

  private constructor(ctx: AppContext, http: ApiApp, httpService: HttpService, ipc: IpcBridge) {
    this.ctx = ctx;
    this.http = http;
    this.httpService = httpService;
    this.ipc = ipc;
    this.streams = createStreamHub(ctx);
  }

  static async create(options: AppCoreOptions): Promise<AppCore> {
    const { config } = options;
    const logs = new LogSink({
      logDir: options.fileLog === false ? null : path.join(config.dataDir, 'logs'),
      level: config.logLevel,
      console: options.consoleLog ?? false,
    });
    const log = logs.logger('core');
    const recoveries: string[] = [];
    const store = await Store.open({
      dataDir: config.dataDir,
      onRecovery: (report) => {
        const text = `store file ${report.file} was unreadable (${report.problem}); moved to ${report.movedTo} and restored from ${report.restoredFrom === 'last-good' ? 'the last-good copy' : 'nothing (no last-good copy existed)'}`;
        log.error(text);
        recoveries.push(text);
      },
    });
    const events = new EventLog(store);
    for (const text of recoveries) events.emit({ kind: 'store.recovered', level: 'error', message: text });
    const services = new ServiceManager({ store, events, log });
    const ctx: AppContext = {
      config,
      build: { ...readBuildInfo(), electron: options.electronVersion ?? null },
      store,
      logs,
      log,
      events,
      services,
      startedAt: new Date(),
    };

    const ipcSecret = randomBytes(32).toString('base64url');
    const https =
      config.tlsCert && config.tlsKey
        ? { cert: await readFile(config.tlsCert), key: await readFile(config.tlsKey) }
        : null;
    const rendererDir = options.rendererDir === undefined ? defaultRendererDir() : options.rendererDir;
    const http = await buildHttpApp({
      log,
      authenticator: options.authenticator ?? { authenticate: async () => null },
      ipcSecret,
      rendererDir,
      apiPlugins: [...API_ROUTE_PLUGINS.map((factory) => factory(ctx)), ...(options.extraApiPlugins ?? [])],
      guards: options.guards ?? [],
      https,
      version: ctx.build.version,
    });
    const httpService = new HttpService(http, config.listen, https ? 'https' : 'http');
    services.register(httpService);
    return new AppCore(ctx, http, httpService, new IpcBridge(http, ipcSecret));
  }

  /** Starts HTTP (always) and every service with auto-start on. */
  async start(): Promise<void> {
    await this.ctx.services.start('http');
    const status = this.ctx.services.get('http');
    if (status.state !== 'running') throw new Error(status.last_error ?? 'http service failed to start');
    await this.ctx.services.startAutoStart();
  }

  /** Stops every service and flushes the store; safe to call twice. */
  async stop(): Promise<void> {
    await this.ctx.services.stopAll();
    await this.ctx.store.close();
  }

  url(): string {
    return this.httpService.url();
  }
}
