import { randomUUID } from 'node:crypto';
import type { Counter } from 'prom-client';
import { AppError, errorMessage, isAppError, notFound } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { nowIso } from '../core/time.js';
import type { EventLog } from '../events/event-log.js';
import type { Metrics } from '../metrics/metrics.js';
import { runBatch } from './batch-runner.js';
import type { BootDeviceRequest, PowerAction, PowerState } from './bmc-client.js';
import { configView, type BmcConfig, type BmcConfigView } from './bmc-config-types.js';
import type { BmcConfigs } from './bmc-configs.js';
import { probeBmc, withConnection, type BmcConnector, type BmcTiming, type ProbeInput, type ProbeResult } from './bmc-connector.js';
import { bmcAppError, bmcReason, isBmcError } from './bmc-error.js';
import type { HostDirectorySource } from './host-directory.js';
import type { BmcBatchAction, BmcBatchItem as BatchItem, PowerOutcome, PowerRequest } from './power-contract.js';

/** The batch operations of POST /bmc/batch/{action}; what a power request may ask (an action, or just the state). */
export { BMC_BATCH_ACTIONS, type BmcBatchAction, type PowerRequest } from './power-contract.js';

const BATCH_TO_REQUEST: Readonly<Record<BmcBatchAction, PowerRequest>> = {
  'power-on': 'on',
  'power-off': 'off',
  restart: 'reset',
  status: 'status',
};

/** The state a BMC reports after an accepted action (soft shutdown takes its time: unknown). */
const STATE_AFTER: Readonly<Record<PowerAction, PowerState>> = { on: 'on', off: 'off', cycle: 'on', reset: 'on', soft: 'unknown' };

/** A power action's answer; one row of a batch answer. */
export type { PowerOutcome, BmcBatchItem as BatchItem } from './power-contract.js';

export interface BmcServiceDeps {
  configs: BmcConfigs;
  events: EventLog;
  log: Logger;
  metrics: Metrics;
  connector: BmcConnector;
  timing: BmcTiming;
  hosts: HostDirectorySource;
  batchConcurrency: number;
}

/** Talks to the configured BMCs: status, power, boot device, batches, probes. */
export class BmcService {
  readonly configs: BmcConfigs;
  private readonly deps: BmcServiceDeps;
  private readonly log: Logger;
  private readonly requests: Counter<'protocol' | 'action' | 'result'>;

  constructor(deps: BmcServiceDeps) {
    this.deps = deps;
    this.configs = deps.configs;
    this.log = deps.log.scope('bmc');
    this.requests = deps.metrics.counter({
      name: 'bootwright_bmc_requests_total',
      help: 'BMC operations by protocol, action (on, off, cycle, reset, soft, status, refresh, boot_device) and result (ok, failed)',
      labelNames: ['protocol', 'action', 'result'],
    });
  }

  probe(input: ProbeInput): Promise<ProbeResult> {
    return probeBmc(input, this.deps.connector, this.deps.timing);
  }

  /** Reads the power state and records it. */
  async status(id: number): Promise<PowerOutcome> {
    return this.runPower(this.configs.require(id), 'status', null);
  }

  /** Reads identity (vendor, model) and power state and records them. */
  async refresh(id: number): Promise<BmcConfigView> {
    const config = this.configs.require(id);
    try {
      const { identity, state } = await withConnection(this.deps.connector, await this.configs.target(config), async (connection) => ({
        identity: await connection.identify(),
        state: await connection.powerState(),
      }), this.limit());
      this.requests.inc({ protocol: config.protocol, action: 'refresh', result: 'ok' });
      const updated = await this.configs.recordState(id, {
        vendor: identity.vendor,
        model: identity.model,
        power_state: state,
        last_checked_at: nowIso(),
        last_error: null,
      });
      return configView(updated ?? config);
    } catch (err) {
      this.requests.inc({ protocol: config.protocol, action: 'refresh', result: 'failed' });
      await this.recordFailure(config, err);
      throw bmcAppError(err);
    }
  }

  /** Runs a power action (or a status read) and records the outcome; emits bmc.power for actions. */
  async power(id: number, request: PowerRequest, user: string): Promise<PowerOutcome> {
    return this.runPower(this.configs.require(id), request, user);
  }

  /** POST /hosts/{id}/power: through the host's BMC config (404 unknown host, 409 when it has none). */
  async hostPower(hostId: number, request: PowerRequest, user: string): Promise<PowerOutcome> {
    const directory = this.deps.hosts();
    if (!directory) throw new AppError('INVALID_STATE', 'hosts are not available in this build');
    if (!directory.get(hostId)) throw notFound('host', hostId);
    const config = this.configs.forHost(hostId);
    if (!config) throw new AppError('INVALID_STATE', `host ${hostId} has no BMC config; create one with host_id ${hostId} (POST /bmc/configs)`);
    return this.runPower(config, request, user);
  }

  async setBootDevice(id: number, request: BootDeviceRequest, user: string): Promise<BmcConfigView> {
    const config = this.configs.require(id);
    const what = `boot device ${request.device} (${request.persistent ? 'persistent' : 'next boot'}, ${request.efi ? 'UEFI' : 'legacy'})`;
    try {
      await withConnection(this.deps.connector, await this.configs.target(config), (connection) => connection.setBootDevice(request), this.limit());
    } catch (err) {
      this.requests.inc({ protocol: config.protocol, action: 'boot_device', result: 'failed' });
      await this.recordFailure(config, err);
      this.emitResult('bmc.boot_device', config, what, user, err, { device: request.device, persistent: request.persistent, efi: request.efi });
      throw bmcAppError(err);
    }
    this.requests.inc({ protocol: config.protocol, action: 'boot_device', result: 'ok' });
    const updated = await this.configs.recordState(config.id, { last_checked_at: nowIso(), last_error: null });
    this.emitResult('bmc.boot_device', config, what, user, null, { device: request.device, persistent: request.persistent, efi: request.efi });
    return configView(updated ?? config);
  }

  /**
   * Runs an action on many configs, at most `batchConcurrency` at a time.
   * One result per id, in order; a failing (or unknown) id never fails the
   * batch. Emits bmc.batch.progress after each item.
   */
  async batch(action: BmcBatchAction, ids: readonly number[], user: string): Promise<{ batch_id: string; results: BatchItem[] }> {
    const batchId = randomUUID();
    const request = BATCH_TO_REQUEST[action];
    let succeeded = 0;
    const outcomes = await runBatch(
      ids,
      this.deps.batchConcurrency,
      async (id) => {
        const config = this.configs.get(id);
        if (!config) throw notFound('BMC config', id);
        return this.runPower(config, request, user);
      },
      (done, outcome) => {
        if (outcome.ok) succeeded += 1;
        this.deps.events.emit({
          kind: 'bmc.batch.progress',
          message: `BMC batch ${action}: ${done} of ${ids.length} done`,
          detail: { batch_id: batchId, action, done, total: ids.length, succeeded, failed: done - succeeded, user },
        });
      },
    );
    const results = outcomes.map((outcome, index): BatchItem => {
      const id = ids[index]!;
      if (outcome.ok) return { id, ok: true, power_state: outcome.value.power_state, error: null, code: null, reason: null };
      const err = outcome.error;
      // BMC failures arrive wrapped as UPSTREAM_FAILED with the BmcError as cause.
      const cause = isAppError(err) ? err.cause : err;
      return {
        id,
        ok: false,
        power_state: null,
        error: errorMessage(err),
        code: isAppError(err) ? err.code : 'UPSTREAM_FAILED',
        reason: isBmcError(cause) ? cause.reason : null,
      };
    });
    return { batch_id: batchId, results };
  }

  private async runPower(config: BmcConfig, request: PowerRequest, user: string | null): Promise<PowerOutcome> {
    let state: PowerState;
    try {
      state = await withConnection(this.deps.connector, await this.configs.target(config), async (connection) => {
        if (request === 'status') return connection.powerState();
        await connection.power(request);
        return STATE_AFTER[request];
      }, this.limit());
    } catch (err) {
      this.requests.inc({ protocol: config.protocol, action: request, result: 'failed' });
      await this.recordFailure(config, err);
      if (request !== 'status') this.emitResult('bmc.power', config, `power ${request}`, user, err, { action: request });
      throw bmcAppError(err);
    }
    this.requests.inc({ protocol: config.protocol, action: request, result: 'ok' });
    const updated = await this.configs.recordState(config.id, { power_state: state, last_checked_at: nowIso(), last_error: null });
    if (request !== 'status') this.emitResult('bmc.power', config, `power ${request}`, user, null, { action: request });
    return { action: request, power_state: state, config: configView(updated ?? config) };
  }

  /** The time limit of one whole BMC operation. */
  private limit(): { operationMs: number } {
    return { operationMs: this.deps.timing.operationMs };
  }

  private async recordFailure(config: BmcConfig, err: unknown): Promise<void> {
    this.log.warn(`BMC ${config.name} (${config.address}:${config.port}): ${errorMessage(err)}`, { config_id: config.id, reason: bmcReason(err) });
    await this.configs.recordState(config.id, { last_checked_at: nowIso(), last_error: errorMessage(err) }).catch(() => undefined);
  }

  private emitResult(kind: 'bmc.power' | 'bmc.boot_device', config: BmcConfig, what: string, user: string | null, err: unknown, extra: Record<string, unknown>): void {
    const ok = err === null;
    const who = user ?? 'system';
    const common = {
      level: ok ? ('info' as const) : ('warn' as const),
      ...(config.host_id !== null ? { host_id: config.host_id } : {}),
      detail: {
        config_id: config.id,
        name: config.name,
        protocol: config.protocol,
        user: who,
        result: ok ? 'ok' : 'failed',
        ...extra,
        ...(ok ? {} : { error: errorMessage(err), reason: bmcReason(err) }),
      },
    };
    const message = `${who}: ${what} on BMC ${config.name} ${ok ? 'succeeded' : `failed: ${errorMessage(err)}`}`;
    // Literal kinds, so the event catalogue test sees them.
    if (kind === 'bmc.power') this.deps.events.emit({ kind: 'bmc.power', message, ...common });
    else this.deps.events.emit({ kind: 'bmc.boot_device', message, ...common });
  }
}
