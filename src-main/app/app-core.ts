import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { buildHttpApp, type ApiApp } from '../api/http-app.js';
import { HttpService } from '../api/http-service.js';
import { AuditLog } from '../audit/audit-log.js';
import { Areas, type AreaModule, type Kernel } from '../core/area.js';
import type { AppConfig } from '../core/config.js';
import type { Authenticator } from '../core/http-kit/access.js';
import type { HttpEndpoint } from '../core/http-kit/http-endpoint.js';
import type { RequestGuard } from '../core/http-kit/route-table.js';
import { DEFAULT_SSE_SETTINGS, type SseSettings } from '../core/http-kit/sse-settings.js';
import { LogSink } from '../core/logger.js';
import { defaultRendererDir, readBuildInfo } from '../core/version.js';
import { EventLog } from '../events/event-log.js';
import { IpcBridge } from '../ipc/ipc-bridge.js';
import { createStreamHub, type StreamHub } from '../ipc/stream-hub.js';
import { registerCoreMetrics } from '../metrics/core-metrics.js';
import { Metrics } from '../metrics/metrics.js';
import { NetworkService } from '../network/network-service.js';
import { lanUrls } from '../network/lan-urls.js';
import type { NicReader } from '../network/nic.js';
import { ServiceManager } from '../services/service-manager.js';
import { applyLoggingSettings } from '../settings/apply-logging-settings.js';
import { SecretBox } from '../core/secret-box.js';
import { ServedRoots } from '../settings/served-roots.js';
import { SettingsService } from '../settings/settings-service.js';
import { Store } from '../store/store.js';
import { areaList, type AreaFacades, type AreaListOptions, type AreaName } from './area-list.js';

export interface AppCoreOptions extends AreaListOptions {
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
  /** Guards run after the built-in ones (the Host guard). */
  guards?: readonly RequestGuard[];
  /** SSE timing (tests shorten the heartbeat). */
  sse?: Partial<SseSettings>;
  /** Replaces reading the machine's interfaces (tests feed fixture NICs). */
  nicReader?: NicReader;
  /**
   * Which services start() may auto-start (those whose auto-start flag is on):
   * all (default), none (tests of the API alone), or only the named ones.
   */
  autoStartServices?: boolean | readonly string[];
}

/**
 * The application core both entries share (Electron main and headless serve).
 * It builds the ground services (the kernel), walks the area list (create,
 * register routes and services, prepare, start; stop and close in reverse),
 * and builds the HTTP app and the IPC bridge from what the areas contributed.
 */
export class AppCore {
  /** The ground services every area received. */
  readonly kernel: Kernel;
  readonly http: ApiApp;
  readonly httpService: HttpService;
  readonly ipc: IpcBridge;
  /** Live event and log streams for the IPC transport. */
  readonly streams: StreamHub;
  private readonly areas: Areas;
  private readonly autoStartServices: boolean | readonly string[];

  private constructor(kernel: Kernel, areas: Areas, http: ApiApp, httpService: HttpService, ipcSecret: string, autoStartServices: boolean | readonly string[]) {
    this.kernel = kernel;
    this.areas = areas;
    this.http = http;
    this.httpService = httpService;
    this.ipc = new IpcBridge(http, ipcSecret);
    this.streams = createStreamHub({ events: kernel.events, logs: kernel.logs });
    this.autoStartServices = autoStartServices;
  }

  static async create(options: AppCoreOptions): Promise<AppCore> {
    // Rendered scripts and DHCP boot URLs name the HTTP port; with port 0 (tests) it is known only once listening.
    const listening: { app: ApiApp | null } = { app: null };
    const kernel = await createKernel(options, () => listening.app);
    const areas = await Areas.create(areaList(options) as readonly AreaModule[], kernel);

    const ipcSecret = randomBytes(32).toString('base64url');
    const { config } = kernel;
    const https = config.tlsCert && config.tlsKey ? { cert: await readFile(config.tlsCert), key: await readFile(config.tlsKey) } : null;
    const authenticator = options.authenticator ?? areas.authenticator();
    if (!authenticator) throw new Error('area list: no area contributes the authenticator (the auth area is missing)');
    const http = await buildHttpApp({
      log: kernel.log,
      authenticator,
      ipcSecret,
      rendererDir: options.rendererDir === undefined ? defaultRendererDir() : options.rendererDir,
      // Hooks that must see every route (the audit hook) first, then the routes in list order.
      apiPlugins: [...areas.hooks(), ...areas.routes(), ...(options.extraApiPlugins ?? [])],
      guards: [...areas.guards(), ...(options.guards ?? [])],
      rootPlugins: areas.rootRoutes(),
      https,
      version: kernel.build.version,
    });
    listening.app = http;
    const httpService = new HttpService(http, config.listen, https ? 'https' : 'http');
    // HTTP first, then the areas' servers in list order: the order of GET /services and of auto-start.
    kernel.services.register(httpService);
    for (const service of areas.services()) kernel.services.register(service);
    return new AppCore(kernel, areas, http, httpService, ipcSecret, options.autoStartServices ?? true);
  }

  /** The facade of one area, typed by the area list: `core.area('dns')` is the DnsService. */
  area<Name extends AreaName>(name: Name): AreaFacades[Name] {
    return this.areas.facadeNamed(name) as AreaFacades[Name];
  }

  /** Prepares the areas, starts HTTP (always), every service with auto-start on, then the areas' background work. */
  async start(): Promise<void> {
    // Before anything serves: e.g. boot-files creates and checks the boot root and copies missing bundled boot loaders into it.
    await this.areas.prepare();
    const { services } = this.kernel;
    await services.start('http');
    const status = services.get('http');
    if (status.state !== 'running') throw new Error(status.last_error ?? 'http service failed to start');
    await services.startAutoStart(this.autoStartServices);
    await this.areas.start();
  }

  /** Stops the areas' background work and every service, closes the areas and flushes the store; safe to call twice. */
  async stop(): Promise<void> {
    await this.areas.stop();
    await this.kernel.services.stopAll();
    await this.areas.close();
    await this.kernel.store.close();
  }

  url(): string {
    return this.httpService.url();
  }

  /** The web UI as other machines on the served networks reach it (GET /status `urls`); empty until an interface is served. */
  lanUrls(): string[] {
    const { network, http } = this.kernel;
    return lanUrls(network.served(), http, http.port());
  }
}

/** The ground services (docs/architecture.md, "The kernel"): none of them is an area, every area receives them. */
async function createKernel(options: AppCoreOptions, listening: () => ApiApp | null): Promise<Kernel> {
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
    onJournalSkipped: (collection, replay) => log.warn(`store collection ${collection}: skipped ${replay.skipped} unreadable journal line(s) (a write cut short by a crash)`),
    onJournalError: (collection, err) => log.error(`store collection ${collection}: journal write failed: ${err.message}`),
  });
  const events = new EventLog(store);
  const audit = new AuditLog(store);
  for (const text of recoveries) events.emit({ kind: 'store.recovered', level: 'error', message: text });
  const services = new ServiceManager({ store, events, log });
  const settings = new SettingsService({ store, events, log, defaults: { logLevel: config.logLevel } });
  applyLoggingSettings(settings, { logs, events, audit });
  const network = new NetworkService({ settings, events, log, ...(options.nicReader ? { reader: options.nicReader } : {}) });
  const metrics = new Metrics();
  registerCoreMetrics(metrics, { services, events });
  const http: HttpEndpoint = {
    scheme: config.tlsCert && config.tlsKey ? 'https' : 'http',
    listenHost: config.listen.host,
    port: () => {
      const address = listening()?.server.address();
      return address && typeof address === 'object' ? address.port : config.listen.port;
    },
  };
  return {
    config,
    build: { ...readBuildInfo(), electron: options.electronVersion ?? null },
    startedAt: new Date(),
    store,
    events,
    audit,
    logs,
    log,
    settings,
    servedRoots: new ServedRoots({ store, dataDir: config.dataDir, configRoots: config.allowedRoots }),
    secrets: new SecretBox(config.dataDir),
    network,
    metrics,
    services,
    http,
    sse: { ...DEFAULT_SSE_SETTINGS, ...options.sse },
  };
}
