import type { Counter } from 'prom-client';
import { AppError, errorMessage, invalid, notFound } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { normalizeMac } from '../../core/mac.js';
import type { EventLog } from '../../events/event-log.js';
import type { Metrics } from '../../metrics/metrics.js';
import type { NetworkService } from '../../network/network-service.js';
import { runBatch } from '../batch-runner.js';
import { hostAddress, type HostDirectorySource } from '../host-directory.js';
import { DEFAULT_WOL_PORT, encodeMagicPacket, parseSecureOnPassword, type WolPort } from './magic-packet.js';
import type { WolHistory, WolTrigger } from './wol-history.js';
import { historyView } from './wol-history.js';
import { chooseWolInterfaces, wolInterfaces, WolRouteError, type WolInterface } from './wol-interfaces.js';
import type { WolTransport } from './wol-sender.js';
import type { WakeResult } from '../power-contract.js';

/** Options a wake request may carry. */
export interface WakeOptions {
  port?: WolPort;
  /** Send on this interface only. */
  interface?: string | null;
  /** SecureOn password: six hex bytes or four dotted decimals. */
  password?: string | null;
}

/** Who asked, and how. */
export interface WakeContext {
  trigger: WolTrigger;
  user: string;
}

/** The outcome of one wake attempt (also one row of a batch answer). */
export type { WakeResult } from '../power-contract.js';

export interface WolServiceDeps {
  network: NetworkService;
  events: EventLog;
  log: Logger;
  metrics: Metrics;
  history: WolHistory;
  hosts: HostDirectorySource;
  transport: WolTransport;
  batchConcurrency: number;
}

/** Sends magic packets for hosts and MACs, records every attempt, reports per target. */
export class WolService {
  readonly history: WolHistory;
  private readonly deps: WolServiceDeps;
  private readonly log: Logger;
  private readonly packets: Counter<'result'>;

  constructor(deps: WolServiceDeps) {
    this.deps = deps;
    this.history = deps.history;
    this.log = deps.log.scope('wol');
    this.packets = deps.metrics.counter({
      name: 'bootwright_wol_packets_total',
      help: 'Wake-on-LAN attempts by result (sent: the magic packet left on every chosen interface)',
      labelNames: ['result'],
    });
  }

  /** Interfaces that can send WOL now, with their broadcast addresses. */
  interfaces(): WolInterface[] {
    const served = new Set(this.deps.network.served().map((nic) => nic.name));
    return wolInterfaces(this.deps.network.list(), served);
  }

  /** Checks options before anything is sent (400 naming the field). */
  validateOptions(options: WakeOptions): void {
    if (options.password && !parseSecureOnPassword(options.password)) {
      throw invalid('password', 'a SecureOn password is six hex bytes (01:02:03:04:05:06) or four dotted decimals (1.2.3.4)');
    }
  }

  /** Wakes a host by id: 404 when it does not exist; a failure to send is a result, not an error. */
  async wakeHost(hostId: number, options: WakeOptions, context: WakeContext): Promise<WakeResult> {
    const directory = this.deps.hosts();
    if (!directory) throw new AppError('INVALID_STATE', 'hosts are not available in this build');
    const host = directory.get(hostId);
    if (!host) throw notFound('host', hostId);
    this.validateOptions(options);
    return this.send({ mac: host.mac, hostId, ip: hostAddress(host) }, options, context);
  }

  /** Wakes several hosts; one result per id, in order. Unknown hosts and hosts without MAC fail individually. */
  async wakeHosts(hostIds: readonly number[], options: WakeOptions, context: WakeContext): Promise<WakeResult[]> {
    this.validateOptions(options);
    const directory = this.deps.hosts();
    const outcomes = await runBatch(hostIds, this.deps.batchConcurrency, async (hostId) => {
      const host = directory?.get(hostId);
      if (!host) return this.recordFailure({ mac: null, hostId }, options, context, directory ? `host ${hostId} not found` : 'hosts are not available');
      return this.send({ mac: host.mac, hostId, ip: hostAddress(host) }, options, context);
    });
    return outcomes.map((outcome) => {
      if (outcome.ok) return outcome.value;
      // send() records its own failures; this is only reached by a store failure.
      throw outcome.error;
    });
  }

  /** Wakes a MAC, using the host with that MAC (if any) for its address. */
  async wakeMac(mac: string, options: WakeOptions, context: WakeContext): Promise<WakeResult> {
    this.validateOptions(options);
    const canonical = normalizeMac(mac);
    if (!canonical) throw invalid('mac', `"${mac}" is not a MAC address`);
    const host = this.deps.hosts()?.findByMac(canonical);
    return this.send({ mac: canonical, hostId: host?.id ?? null, ip: host ? hostAddress(host) : null }, options, context);
  }

  private async send(target: { mac: string | null; hostId: number | null; ip: string | null }, options: WakeOptions, context: WakeContext): Promise<WakeResult> {
    const mac = target.mac ? normalizeMac(target.mac) : null;
    if (!mac) return this.recordFailure({ mac: null, hostId: target.hostId }, options, context, 'the host has no MAC address');
    const port = options.port ?? DEFAULT_WOL_PORT;
    let chosen: WolInterface[];
    try {
      chosen = chooseWolInterfaces(this.interfaces(), { interface: options.interface ?? null, ip: target.ip });
    } catch (err) {
      if (err instanceof WolRouteError) return this.recordFailure({ mac, hostId: target.hostId }, options, context, err.message);
      throw err;
    }
    const password = options.password ? parseSecureOnPassword(options.password) : null;
    const packet = encodeMagicPacket({ mac, password });
    const sentOn: string[] = [];
    const failures: string[] = [];
    for (const via of chosen) {
      try {
        await this.deps.transport({ packet, bindAddress: via.address, broadcast: via.broadcast, port });
        if (!sentOn.includes(via.name)) sentOn.push(via.name);
      } catch (err) {
        failures.push(`${via.name} (${via.address} → ${via.broadcast}): ${errorMessage(err)}`);
      }
    }
    if (sentOn.length === 0) {
      return this.recordFailure({ mac, hostId: target.hostId }, options, context, `sending failed on ${failures.join('; ')}`);
    }
    const error = failures.length > 0 ? `also tried and failed: ${failures.join('; ')}` : null;
    const entry = await this.history.record({
      mac,
      host_id: target.hostId,
      interface: sentOn.join(','),
      port,
      trigger: context.trigger,
      user: context.user,
      result: 'sent',
      error,
    });
    this.packets.inc({ result: 'sent' });
    this.deps.events.emit({
      kind: 'wol.sent',
      message: `Wake-on-LAN sent to ${mac} on ${sentOn.join(', ')} (port ${port}, ${context.trigger}, by ${context.user})`,
      mac,
      ...(target.hostId !== null ? { host_id: target.hostId } : {}),
      detail: { history_id: entry.id, interfaces: sentOn, port, trigger: context.trigger, user: context.user },
    });
    return { ok: true, host_id: target.hostId, mac, interfaces: sentOn, history: historyView(entry), error };
  }

  private async recordFailure(
    target: { mac: string | null; hostId: number | null },
    options: WakeOptions,
    context: WakeContext,
    error: string,
  ): Promise<WakeResult> {
    const port = options.port ?? DEFAULT_WOL_PORT;
    const entry = await this.history.record({
      mac: target.mac,
      host_id: target.hostId,
      interface: null,
      port,
      trigger: context.trigger,
      user: context.user,
      result: 'failed',
      error,
    });
    this.packets.inc({ result: 'failed' });
    this.log.warn(`wake-on-lan failed: ${error}`, { mac: target.mac, host_id: target.hostId });
    this.deps.events.emit({
      kind: 'wol.failed',
      level: 'warn',
      message: `Wake-on-LAN ${target.mac ? `to ${target.mac} ` : ''}failed: ${error}`,
      ...(target.mac ? { mac: target.mac } : {}),
      ...(target.hostId !== null ? { host_id: target.hostId } : {}),
      detail: { history_id: entry.id, trigger: context.trigger, user: context.user, error },
    });
    return { ok: false, host_id: target.hostId, mac: target.mac, interfaces: [], history: historyView(entry), error };
  }
}
