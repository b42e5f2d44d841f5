import type { EventInput } from '../../events/event-types.js';
import type { NetworkService } from '../../network/network-service.js';
import { AppError, errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { DhcpGuardStatus, DhcpProbeResult, ForeignDhcpServer, ForeignSighting, GuardInterface } from '../dhcp-contract.js';
import type { DhcpSettings } from '../dhcp-settings.js';
import { probeInterface, type DhcpProber } from './rogue-probe.js';

/** What the guard works with (narrow, so tests hand it fakes). */
export interface RogueGuardDeps {
  /** The event log (its answer is not used). */
  events: { emit(input: EventInput): unknown };
  network: Pick<NetworkService, 'list' | 'refresh'>;
  settings: Pick<DhcpSettings, 'current'>;
  log: Logger;
}

/** An interface about to be served in server mode. */
export interface GuardPlan {
  name: string;
  address: string;
}

export interface RogueGuardOptions {
  /** Replaces the socket probe (tests). */
  prober?: DhcpProber;
  /** At most one `dhcp.foreign_server` event per interface and server this often. */
  eventIntervalMs?: number;
}

const EVENT_INTERVAL_MS = 10 * 60_000;
/** A clear probe of an interface (at the same address) stands this long: a settings change restarts the service without another wait. */
const CLEAR_FOR_MS = 5 * 60_000;
const SIGHTING_TTL_MS = 24 * 3600_000;
const MAX_SIGHTINGS = 64;

/**
 * The rogue-DHCP guard (docs/dhcp.md, "Rogue-DHCP guard"): probes
 * server-mode interfaces before they are served and says which may be served;
 * answers on-demand probes; records foreign servers noticed while serving and
 * raises `dhcp.foreign_server` for them (rate-limited per interface and server).
 */
export class RogueGuard {
  private readonly deps: RogueGuardDeps;
  private readonly prober: DhcpProber;
  private readonly eventIntervalMs: number;
  private verdicts: GuardInterface[] = [];
  private readonly sightings = new Map<string, ForeignSighting>();
  private readonly lastEvent = new Map<string, number>();
  /** Interface → address and time of its last clear probe. */
  private readonly clearAt = new Map<string, { address: string; at: number }>();

  constructor(deps: RogueGuardDeps, options: RogueGuardOptions = {}) {
    this.deps = deps;
    this.prober = options.prober ?? probeInterface;
    this.eventIntervalMs = options.eventIntervalMs ?? EVENT_INTERVAL_MS;
  }

  /**
   * Probes every server-mode interface at once (the start waits one probe
   * timeout, not one per interface) and returns the names that must not be
   * served. `force` serves them anyway; a probe that cannot run serves too
   * (we cannot tell, and the message says so).
   */
  async check(plans: readonly GuardPlan[]): Promise<{ blocked: Set<string>; verdicts: GuardInterface[] }> {
    const settings = this.deps.settings.current();
    const verdicts = await Promise.all(plans.map(async (plan): Promise<GuardInterface> => {
      const nic = this.deps.network.list().find((candidate) => candidate.name === plan.name);
      const none = (message: string): GuardInterface => ({ interface: plan.name, state: 'not_probed', probed_at: null, foreign: [], message });
      if (!settings.rogue_guard) return none('rogue_guard is off: not probed');
      if (nic?.internal) return none('loopback: no segment to guard');
      const clear = this.clearAt.get(plan.name);
      if (clear && clear.address === plan.address && Date.now() - clear.at < CLEAR_FOR_MS) {
        const previous = this.verdicts.find((v) => v.interface === plan.name && v.state === 'clear');
        if (previous) return previous;
      }
      const probedAt = new Date().toISOString();
      let foreign: ForeignDhcpServer[];
      try {
        foreign = await this.prober({ interfaceName: plan.name, address: plan.address, mac: nic?.mac ?? null }, { timeoutMs: settings.rogue_probe_timeout_ms, ownAddresses: this.ownAddresses() });
      } catch (err) {
        this.deps.log.warn(`dhcp: ${errorMessage(err)}; serving ${plan.name} unprobed`);
        return none(`${errorMessage(err)}; served without the check`);
      }
      if (foreign.length === 0) {
        this.clearAt.set(plan.name, { address: plan.address, at: Date.now() });
        return { interface: plan.name, state: 'clear', probed_at: probedAt, foreign, message: 'no other DHCP server answered' };
      }
      this.clearAt.delete(plan.name);
      const verdict: GuardInterface = settings.force
        ? { interface: plan.name, state: 'forced', probed_at: probedAt, foreign, message: `${describeForeign(plan.name, foreign)}; served anyway in server mode ("force": true) — clients may take either server's answer` }
        : { interface: plan.name, state: 'blocked', probed_at: probedAt, foreign, message: blockedMessage(plan.name, foreign) };
      for (const server of foreign) this.sighted(plan.name, server.server_id, 'probe', null, server, verdict.state);
      return verdict;
    }));
    this.verdicts = verdicts;
    return { blocked: new Set(verdicts.filter((v) => v.state === 'blocked').map((v) => v.interface)), verdicts };
  }

  /** The interfaces the last check blocked (a rebind for a network change keeps them blocked without probing again). */
  blockedNow(): Set<string> {
    return new Set(this.verdicts.filter((v) => v.state === 'blocked').map((v) => v.interface));
  }

  /** Forgets an interface's clear probe, so the next start probes it again (its link went down and up: maybe another network). */
  forget(interfaceName: string): void {
    this.clearAt.delete(interfaceName);
  }

  /** `POST /dhcp/probe`: one probe of one interface, whatever the settings say. */
  async probe(interfaceName: string, timeoutMs?: number): Promise<DhcpProbeResult> {
    const nic = this.deps.network.refresh().find((candidate) => candidate.name === interfaceName);
    if (!nic) throw new AppError('NOT_FOUND', `interface ${interfaceName} not found (GET /api/v1/network/interfaces lists them)`);
    if (nic.internal) throw new AppError('INVALID_STATE', `${interfaceName} is a loopback interface: there is no segment to probe`);
    const address = nic.addresses.find((a) => a.family === 'ipv4')?.address;
    if (!address) throw new AppError('INVALID_STATE', `interface ${interfaceName} has no IPv4 address to probe from; give it one first`);
    const probedAt = new Date().toISOString();
    let foreign: ForeignDhcpServer[];
    try {
      foreign = await this.prober(
        { interfaceName, address, mac: nic.mac },
        { timeoutMs: timeoutMs ?? this.deps.settings.current().rogue_probe_timeout_ms, ownAddresses: this.ownAddresses() },
      );
    } catch (err) {
      throw new AppError('INVALID_STATE', errorMessage(err), { cause: err });
    }
    if (foreign.length > 0) this.clearAt.delete(interfaceName);
    return { interface: interfaceName, probed_at: probedAt, foreign };
  }

  /** A client's REQUEST named another server (option 54) on a segment we serve in server mode. */
  clientChoseOther(interfaceName: string | null, serverId: string, clientMac: string): void {
    this.sighted(interfaceName, serverId, 'client_request', clientMac, null, null);
  }

  /**
   * The probe while serving (on link-up, after a rebind for a network change,
   * and the light periodic one: one DISCOVER per interface, which our own
   * server ignores). A foreign server found is a sighting and an event, and
   * the interface's verdict becomes `blocked` — returned, so the service
   * withdraws server mode there (stops answering DHCP, keeps TFTP and HTTP) —
   * or `forced` with `force`. Probe failures are only logged: the next round
   * tries again.
   */
  async recheck(plans: readonly GuardPlan[]): Promise<Set<string>> {
    const withdraw = new Set<string>();
    const settings = this.deps.settings.current();
    if (!settings.rogue_guard) return withdraw;
    await Promise.all(plans.map(async (plan) => {
      const nic = this.deps.network.list().find((candidate) => candidate.name === plan.name);
      if (nic?.internal) return;
      let foreign: ForeignDhcpServer[];
      const probedAt = new Date().toISOString();
      try {
        foreign = await this.prober({ interfaceName: plan.name, address: plan.address, mac: nic?.mac ?? null }, { timeoutMs: settings.rogue_probe_timeout_ms, ownAddresses: this.ownAddresses() });
      } catch (err) {
        this.deps.log.debug(`dhcp: rogue-DHCP probe of ${plan.name} while serving failed: ${errorMessage(err)}`);
        return;
      }
      if (foreign.length === 0) return;
      // Read again: force may have been set while the probe listened.
      const forced = this.deps.settings.current().force;
      const verdict: GuardInterface = forced
        ? { interface: plan.name, state: 'forced', probed_at: probedAt, foreign, message: `${describeForeign(plan.name, foreign)}; served anyway in server mode ("force": true) — clients may take either server's answer` }
        : { interface: plan.name, state: 'blocked', probed_at: probedAt, foreign, message: blockedMessage(plan.name, foreign, true) };
      this.verdicts = [...this.verdicts.filter((v) => v.interface !== plan.name), verdict];
      if (!forced) withdraw.add(plan.name);
      for (const server of foreign) this.sighted(plan.name, server.server_id, 'probe', null, server, verdict.state);
    }));
    return withdraw;
  }

  status(now = Date.now()): DhcpGuardStatus {
    for (const [key, sighting] of this.sightings) {
      if (now - Date.parse(sighting.last_seen) > SIGHTING_TTL_MS) this.sightings.delete(key);
    }
    const sightings = [...this.sightings.values()].sort((a, b) => b.last_seen.localeCompare(a.last_seen));
    return { interfaces: structuredClone(this.verdicts), sightings: structuredClone(sightings) };
  }

  /** Every IPv4 address of this machine (an OFFER from one is our own server's). */
  private ownAddresses(): Set<string> {
    const out = new Set<string>();
    for (const nic of this.deps.network.list()) for (const a of nic.addresses) if (a.family === 'ipv4') out.add(a.address);
    return out;
  }

  private sighted(interfaceName: string | null, serverId: string, how: ForeignSighting['how'], clientMac: string | null, server: ForeignDhcpServer | null, verdict: GuardInterface['state'] | null): void {
    const now = Date.now();
    const at = new Date(now).toISOString();
    const key = `${interfaceName ?? '-'}|${serverId}`;
    // Seen there now: the next start probes that interface again.
    if (interfaceName) this.clearAt.delete(interfaceName);
    const previous = this.sightings.get(key);
    if (previous) {
      Object.assign(previous, { last_seen: at, count: previous.count + 1, how, ...(clientMac ? { client_mac: clientMac } : {}), ...(server ? { server } : {}) });
    } else {
      if (this.sightings.size >= MAX_SIGHTINGS) {
        const oldest = [...this.sightings.entries()].sort((a, b) => a[1].last_seen.localeCompare(b[1].last_seen))[0];
        if (oldest) this.sightings.delete(oldest[0]);
      }
      this.sightings.set(key, { interface: interfaceName, server_id: serverId, how, client_mac: clientMac, server, first_seen: at, last_seen: at, count: 1 });
    }
    // One event per interface and server per interval: a client renewing with another server every minute is one finding.
    const last = this.lastEvent.get(key);
    if (last !== undefined && now - last < this.eventIntervalMs) return;
    this.lastEvent.set(key, now);
    const where = interfaceName ?? 'a served segment';
    const what = how === 'client_request'
      ? `client ${clientMac ?? '?'} asked another DHCP server (${serverId}) for its address on ${where}`
      : `another DHCP server (${serverId}${server?.offered_ip ? `, offering ${server.offered_ip}` : ''}) answers on ${where}`;
    const consequence = verdict === 'blocked' ? '; not serving it in server mode' : verdict === 'forced' ? '; serving anyway (force)' : '';
    this.deps.log.warn(`dhcp: ${what}${consequence}`);
    this.deps.events.emit({
      kind: 'dhcp.foreign_server',
      level: 'warn',
      message: `${what}${consequence}`,
      ...(clientMac ? { mac: clientMac } : {}),
      ip: serverId,
      detail: { interface: interfaceName, server_id: serverId, how, client_mac: clientMac, server, verdict },
    });
  }
}

/** "eth0: another DHCP server answers: 192.168.88.1 (offers 192.168.88.120/255.255.255.0, router 192.168.88.1, MAC 52:54:…)" */
export function describeForeign(interfaceName: string, foreign: readonly ForeignDhcpServer[]): string {
  const servers = foreign.map((s) => {
    const facts = [
      s.source_ip !== s.server_id ? `from ${s.source_ip}` : null,
      s.offered_ip ? `offers ${s.offered_ip}${s.subnet_mask ? `/${s.subnet_mask}` : ''}` : null,
      s.router ? `router ${s.router}` : null,
      `MAC ${s.mac ?? 'not in the neighbour table'}`,
    ].filter((fact): fact is string => fact !== null);
    return `${s.server_id} (${facts.join(', ')})`;
  });
  return `${interfaceName}: another DHCP server answers on this segment: ${servers.join('; ')}`;
}

function blockedMessage(interfaceName: string, foreign: readonly ForeignDhcpServer[], whileServing = false): string {
  const what = whileServing ? `server mode on ${interfaceName} withdrawn (no DHCP answers there; TFTP and HTTP still serve)` : `not serving ${interfaceName} in server mode`;
  return `${describeForeign(interfaceName, foreign)}; ${what}. Switch ${interfaceName} to proxy mode `
    + `(its "mode": "proxy" in PUT /api/v1/services/dhcp) to boot machines beside that server, or set "force": true to serve anyway.`;
}
