import type { Logger } from '../core/logger.js';
import type { EventLog } from '../events/event-log.js';
import type { Metrics } from '../metrics/metrics.js';
import type { NetworkService } from '../network/network-service.js';
import type { Store } from '../store/store.js';
import { DEFAULT_BATCH_CONCURRENCY } from './batch-runner.js';
import { BmcConfigs } from './bmc-configs.js';
import { DEFAULT_BMC_TIMING, defaultConnector, type BmcConnector, type BmcTiming } from './bmc-connector.js';
import { BmcService } from './bmc-service.js';
import type { HostDirectorySource } from './host-directory.js';
import type { SecretBox } from '../core/secret-box.js';
import { systemClock, type SchedulerClock } from './wol/scheduler-clock.js';
import { WolHistory } from './wol/wol-history.js';
import { WolScheduler } from './wol/wol-scheduler.js';
import { udpBroadcastTransport, type WolTransport } from './wol/wol-sender.js';
import { WolService } from './wol/wol-service.js';

/** Seams tests replace: time, the WOL socket, BMC timing and connections. */
export interface PowerOptions {
  clock?: SchedulerClock;
  wolTransport?: WolTransport;
  bmcTiming?: Partial<BmcTiming>;
  bmcConnector?: BmcConnector;
  batchConcurrency?: number;
}

export interface PowerDeps {
  /** Encrypts BMC passwords at rest (the kernel's one SecretBox). */
  secrets: SecretBox;
  store: Store;
  events: EventLog;
  log: Logger;
  metrics: Metrics;
  network: NetworkService;
  hosts: HostDirectorySource;
}

/** The power area: Wake-on-LAN (with history and schedules) and BMC control (docs/power.md). */
export class PowerService {
  readonly wol: WolService;
  readonly schedules: WolScheduler;
  readonly bmc: BmcService;

  constructor(deps: PowerDeps, options: PowerOptions = {}) {
    const batchConcurrency = options.batchConcurrency ?? DEFAULT_BATCH_CONCURRENCY;
    const timing: BmcTiming = {
      ipmi: options.bmcTiming?.ipmi ?? DEFAULT_BMC_TIMING.ipmi,
      redfishTimeoutMs: options.bmcTiming?.redfishTimeoutMs ?? DEFAULT_BMC_TIMING.redfishTimeoutMs,
      operationMs: options.bmcTiming?.operationMs ?? DEFAULT_BMC_TIMING.operationMs,
    };
    this.wol = new WolService({
      network: deps.network,
      events: deps.events,
      log: deps.log,
      metrics: deps.metrics,
      history: new WolHistory(deps.store),
      hosts: deps.hosts,
      transport: options.wolTransport ?? udpBroadcastTransport,
      batchConcurrency,
    });
    this.schedules = new WolScheduler({
      store: deps.store,
      events: deps.events,
      log: deps.log,
      clock: options.clock ?? systemClock,
      wol: this.wol,
      hosts: deps.hosts,
    });
    this.bmc = new BmcService({
      configs: new BmcConfigs({ store: deps.store, secrets: deps.secrets, hosts: deps.hosts }),
      events: deps.events,
      log: deps.log,
      metrics: deps.metrics,
      connector: options.bmcConnector ?? defaultConnector(timing),
      timing,
      hosts: deps.hosts,
      batchConcurrency,
    });
  }

  /** Arms the WOL schedules (reporting runs missed while stopped). */
  start(): Promise<void> {
    return this.schedules.start();
  }

  /** Clears the schedule timers and waits for a run in progress to finish (before the store closes). */
  async stop(): Promise<void> {
    this.schedules.stop();
    await this.schedules.idle();
  }
}
