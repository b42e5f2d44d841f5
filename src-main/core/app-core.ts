import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { buildHttpApp, type ApiApp } from '../api/http-app.js';
import { API_ROUTE_PLUGINS, AREA_ROUTES_AT } from '../api/routes/index.js';
import { authArea, type AuthAreaOptions } from '../auth/index.js';
import { BootFiles } from '../boot-files/boot-files.js';
import { httpBootPlugin } from '../boot-files/http-boot-plugin.js';
import { archmapFileRefs } from '../bootloaders/archmap-refs.js';
import { Bootloaders, defaultBootloaderDir } from '../bootloaders/bootloaders.js';
import { bootScriptProvider, createBootArea } from '../boot-scripts/index.js';
import { createDhcpArea, leaseNameSource } from '../dhcp/index.js';
import { hostNameSource } from '../hosts/index.js';
import { createDhcpService } from '../servers/dhcp/index.js';
import { EventLog } from '../events/event-log.js';
import { eventsArea } from '../events/index.js';
import { AuditLog } from '../audit/audit-log.js';
import { auditArea } from '../audit/index.js';
import { logsArea } from '../logs/index.js';
import { DEFAULT_SSE_SETTINGS, type SseSettings } from './http-kit/sse-settings.js';
import { IpcBridge } from '../ipc/ipc-bridge.js';
import { createStreamHub, type StreamHub } from '../ipc/stream-hub.js';
import { HttpService } from '../servers/http/http-service.js';
import { TftpService, type TftpThreading } from '../servers/tftp/tftp-service.js';
import { ServedRoots } from '../settings/served-roots.js';
import { TftpSettings } from '../servers/tftp/tftp-settings.js';
import { ServiceManager } from '../services/service-manager.js';
import { servicesArea } from '../services/index.js';
import { dnsArea } from '../dns/index.js';
import { Store } from '../store/store.js';
import { registerCoreMetrics } from '../metrics/core-metrics.js';
import { Metrics } from '../metrics/metrics.js';
import type { NicReader } from '../network/nic.js';
import { NetworkService } from '../network/network-service.js';
import { applyLoggingSettings } from '../settings/apply-logging-settings.js';
import { SettingsService } from '../settings/settings-service.js';
import { settingsArea } from '../settings/index.js';
import { networkArea } from '../network/index.js';
import { systemArea } from '../system/index.js';
import { hostDirectoryOf } from '../power/host-directory.js';
import { PowerService, type PowerOptions } from '../power/power-service.js';
import type { AppContext } from './app-context.js';
import { Areas, type AreaModule, type Kernel } from './area.js';
import type { AppConfig } from './config.js';
import type { Authenticator } from './http-kit/access.js';
import type { HttpEndpoint } from './http-kit/http-endpoint.js';
import type { RequestGuard } from './http-kit/route-table.js';
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
  /** Guards run after the built-in ones (the Host guard). */
  guards?: readonly RequestGuard[];
  /** Host names the DNS-rebinding guard accepts beyond the machine's own names and addresses. */
  allowedHosts?: readonly string[];
  /** Login throttles and password hashing (tests lower limits and count hashes). */
  auth?: Omit<AuthAreaOptions, 'allowedHosts'>;
  /** SSE timing (tests shorten the heartbeat). */
  sse?: Partial<SseSettings>;
  /** Time limit of update feed requests and download stalls (tests shorten it); default 10 s. */
  updateTimeoutMs?: number;
  /** Replaces reading the machine's interfaces (tests feed fixture NICs). */
  nicReader?: NicReader;
  /** The clock of boot records and the discovery rate limits (tests); default the system clock. */
  hostsClock?: () => Date;
  /** Power area seams (tests): scheduler clock, WOL transport, BMC timing and connector. */
  power?: PowerOptions;
  /** Directory of the bundled boot loaders and their manifest; default resources/bootloaders. */
  bootloaderDir?: string;
  /** Where the TFTP server runs: its own worker thread (default) or the main thread. */
  tftpThreading?: TftpThreading;
  /** DNS worker threads (default: one per core, at most 4, where SO_REUSEPORT is available; else 1). */
  dnsWorkers?: number;
  /**
   * Which services start() may auto-start (those whose auto-start flag is on):
   * all (default), none (tests of the API alone), or only the named ones.
   */
  autoStartServices?: boolean | readonly string[];
}

/**
 * The application core both entries share (Electron main and headless serve):
 * store, logs, events, service manager, the HTTP route table and the IPC bridge.
 */
export class AppCore {
  readonly ctx: AppContext;
  /** The ground services every area received. */
  readonly kernel: Kernel;
  readonly http: ApiApp;
  readonly httpService: HttpService;
  readonly ipc: IpcBridge;
  /** Live event and log streams for the IPC transport. */
  readonly streams: StreamHub;
  private readonly autoStartServices: boolean | readonly string[];

  private readonly areas: Areas;

  private constructor(kernel: Kernel, ctx: AppContext, http: ApiApp, httpService: HttpService, ipc: IpcBridge, areas: Areas, autoStartServices: boolean | readonly string[]) {
    this.kernel = kernel;
    this.autoStartServices = autoStartServices;
    this.areas = areas;
    this.ctx = ctx;
    this.http = http;
    this.httpService = httpService;
    this.ipc = ipc;
    this.streams = createStreamHub({ events: kernel.events, logs: kernel.logs });
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
    const audit = new AuditLog(store);
    for (const text of recoveries) events.emit({ kind: 'store.recovered', level: 'error', message: text });
    const services = new ServiceManager({ store, events, log });
    const settings = new SettingsService({ store, events, log, defaults: { logLevel: config.logLevel } });
    applyLoggingSettings(settings, { logs, events, audit });
    const network = new NetworkService({ settings, events, log, ...(options.nicReader ? { reader: options.nicReader } : {}) });
    const metrics = new Metrics();
    registerCoreMetrics(metrics, { services, events });
    const build = { ...readBuildInfo(), electron: options.electronVersion ?? null };
    const servedRoots = new ServedRoots({ store, dataDir: config.dataDir, configRoots: config.allowedRoots });
    const sse = { ...DEFAULT_SSE_SETTINGS, ...options.sse };
    const startedAt = new Date();
    const dhcp = await createDhcpArea({ store, network, log, dataDir: config.dataDir });
    // Rendered scripts name the HTTP port; it is read at render time because with port 0 (tests) it is known only once listening.
    const listening: { app: ApiApp | null } = { app: null };
    const httpEndpoint: HttpEndpoint = {
      scheme: config.tlsCert && config.tlsKey ? 'https' : 'http',
      listenHost: config.listen.host,
      port: () => {
        const address = listening.app?.server.address();
        return address && typeof address === 'object' ? address.port : config.listen.port;
      },
    };
    const boot = createBootArea({
      store,
      events,
      log,
      settings,
      network,
      metrics,
      http: httpEndpoint,
      reservations: () => dhcp.reservations,
      access: () => dhcp.access,
      ...(options.hostsClock ? { now: options.hostsClock } : {}),
    });
    const bootFiles = new BootFiles({ root: path.join(config.dataDir, 'boot'), checkRoot: (root) => servedRoots.check(root) });
    const tftpSettings = new TftpSettings(store, bootFiles.root, servedRoots);
    const bootloaders = await Bootloaders.open({
      sourceDir: options.bootloaderDir ?? defaultBootloaderDir(),
      roots: () => [bootFiles.root, tftpSettings.root()],
      log,
    });
    bootloaders.setArchmapSource(() => archmapFileRefs(dhcp.archmap.entries()));
    // The area list (docs/architecture.md, "Area folders"): each area folder exports one module; they are created in
    // this order, and their routes and services registered below. DNS is the pilot; the other areas are still wired
    // by hand in this function and move into the list area by area.
    const dnsModule = dnsArea(options.dnsWorkers ? { workers: options.dnsWorkers } : {});
    const systemModule = systemArea(options.updateTimeoutMs !== undefined ? { updateTimeoutMs: options.updateTimeoutMs } : {});
    const authModule = authArea({ ...options.auth, ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}) });
    // The ground areas: their routes come before every hand-wired route, where they were before they moved.
    const groundList: readonly AreaModule[] = [eventsArea(), auditArea(), logsArea(), authModule, servicesArea(), settingsArea(), networkArea(), systemModule];
    const areaList: readonly AreaModule[] = [...groundList, dnsModule];
    const kernel: Kernel = { config, build, startedAt, store, events, audit, logs, log, settings, servedRoots, network, metrics, services, http: httpEndpoint, sse };
    const areas = await Areas.create(areaList, kernel);
    const dns = areas.facade(dnsModule);
    const auth = areas.facade(authModule);
    const { updates } = areas.facade(systemModule);
    // Hosts and active leases with a hostname answer in DNS as <hostname>.<local_domain> (explicit records win).
    // Explicit here while hosts and DHCP are outside the area list; as areas they will need 'dns' and add their source in create().
    dns.addNameSource(hostNameSource(boot.hosts));
    dns.addNameSource(leaseNameSource(dhcp.leases));
    // Hosts are looked up at call time through the finished context.
    const power = new PowerService({ dataDir: config.dataDir, store, events, log, metrics, network, hosts: () => hostDirectoryOf(ctx) }, options.power);
    const ctx: AppContext = {
      config,
      build,
      store,
      logs,
      log,
      events,
      services,
      auth,
      bootFiles,
      bootloaders,
      tftpSettings,
      servedRoots,
      ...dhcp,
      ...boot,
      audit,
      sse,
      settings,
      network,
      metrics,
      updates,
      dns,
      power,
      startedAt,
    };

    const ipcSecret = randomBytes(32).toString('base64url');
    const https =
      config.tlsCert && config.tlsKey
        ? { cert: await readFile(config.tlsCert), key: await readFile(config.tlsKey) }
        : null;
    const rendererDir = options.rendererDir === undefined ? defaultRendererDir() : options.rendererDir;
    const apiPlugins = API_ROUTE_PLUGINS.map((factory) => factory(ctx));
    const groundNames = groundList.map((area) => area.name);
    apiPlugins.splice(AREA_ROUTES_AT, 0, ...areas.routesOf(areaList.map((area) => area.name).filter((name) => !groundNames.includes(name))));
    apiPlugins.unshift(...areas.routesOf(groundNames));
    // Hooks that must see every route (the audit hook) go before all routes.
    apiPlugins.unshift(...areas.hooks());
    const authenticator = options.authenticator ?? areas.authenticator();
    if (!authenticator) throw new Error('area list: no area contributes the authenticator (the auth area is missing)');
    const http = await buildHttpApp({
      log,
      authenticator,
      ipcSecret,
      rendererDir,
      apiPlugins: [...apiPlugins, ...(options.extraApiPlugins ?? [])],
      guards: [...areas.guards(), ...(options.guards ?? [])],
      rootPlugins: [...areas.rootRoutes(), httpBootPlugin(ctx)],
      https,
      version: ctx.build.version,
    });
    listening.app = http;
    // The entry script and per-host scripts, served as virtual files over TFTP and HTTP /boot/.
    ctx.bootFiles.addVirtualProvider(bootScriptProvider(ctx.bootScripts));
    const httpService = new HttpService(http, config.listen, https ? 'https' : 'http');
    services.register(httpService);
    services.register(
      createDhcpService(ctx, {
        scheme: https ? 'https' : 'http',
        port: () => {
          const address = http.server.address();
          return address && typeof address === 'object' ? address.port : config.listen.port;
        },
      }),
    );
    services.register(
      new TftpService({ settings: tftpSettings, bootFiles, bootloaders, network, events, metrics, log, ...(options.tftpThreading ? { threading: options.tftpThreading } : {}) }),
    );
    // A root that was allowed a moment ago must stop being served now, not at the next restart: the restart re-checks it (and fails).
    servedRoots.onChange(async () => {
      if (services.get('tftp').state === 'running' && !(await servedRoots.check(tftpSettings.root())).ok) await services.reload('tftp');
    });
    // After the hand-wired ones: the order of GET /services and of auto-start.
    for (const service of areas.services()) services.register(service);
    return new AppCore(kernel, ctx, http, httpService, new IpcBridge(http, ipcSecret), areas, options.autoStartServices ?? true);
  }

  /** Starts HTTP (always) and every service with auto-start on. */
  async start(): Promise<void> {
    // Missing bundled boot loaders are copied into the boot (and TFTP) root before anything serves them.
    const bootRoot = await this.ctx.bootFiles.ensureRoot();
    if (!bootRoot.ok) {
      const message = `HTTP boot refuses every file: boot root ${this.ctx.bootFiles.root} is refused: ${bootRoot.problem}`;
      this.ctx.log.error(message);
      this.ctx.events.emit({ kind: 'service.failed', level: 'error', message, detail: { service: 'http-boot', error: bootRoot.problem } });
    }
    // Only into the boot root (when accepted): the TFTP service installs into its own root after checking it.
    await this.ctx.bootloaders.installMissing(bootRoot.ok ? [bootRoot.real] : []);
    await this.ctx.services.start('http');
    const status = this.ctx.services.get('http');
    if (status.state !== 'running') throw new Error(status.last_error ?? 'http service failed to start');
    await this.ctx.services.startAutoStart(this.autoStartServices);
    await this.areas.start();
    const pruneFailed = (err: unknown) => this.ctx.log.warn(`retention prune failed: ${String(err)}`);
    this.ctx.events.startAgePrune(undefined, pruneFailed);
    this.ctx.audit.startAgePrune(undefined, pruneFailed);
    this.ctx.network.startWatching();
    await this.ctx.power.start();
  }

  /** Stops every service and flushes the store; safe to call twice. */
  async stop(): Promise<void> {
    this.ctx.events.stopAgePrune();
    this.ctx.audit.stopAgePrune();
    this.ctx.network.stopWatching();
    await this.ctx.power.stop();
    await this.areas.stop();
    await this.ctx.services.stopAll();
    await this.ctx.templates.close();
    await this.ctx.leases.close();
    // Aggregated counts of unauthenticated requests are held in memory for a few seconds.
    await this.ctx.audit.flush();
    await this.ctx.store.close();
  }

  url(): string {
    return this.httpService.url();
  }
}
