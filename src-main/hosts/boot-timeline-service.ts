import { normalizeMac } from '../core/mac.js';
import { invalid } from '../core/errors.js';
import type { AppEvent } from '../events/event-types.js';
import { BOOTING_NOW_MS, splitBoots, stepEventsByMac } from './boot-timeline.js';
import type { BootingNow, HostTimeline } from './hosts-contract.js';
import type { Host } from './host-types.js';

export interface BootTimelineDeps {
  /** The event log, oldest first. */
  events: () => readonly AppEvent[];
  hosts: { require(id: number): Host; findByMac(mac: string): Host | undefined };
  now?: () => Date;
}

/**
 * The boot timelines the API serves: a machine's boots (by host or by MAC,
 * for machines not recorded as hosts) and the boots under way on the network.
 */
export class BootTimelines {
  private readonly deps: BootTimelineDeps;
  private readonly now: () => Date;

  constructor(deps: BootTimelineDeps) {
    this.deps = deps;
    this.now = deps.now ?? (() => new Date());
  }

  /** The host's boots, newest first (404 for an unknown host). */
  forHost(id: number, limit: number): HostTimeline {
    const host = this.deps.hosts.require(id);
    return this.build(host.mac, host.id, limit);
  }

  /** The boots of any MAC spelling (400 when it is not one). */
  forMac(mac: string, limit: number): HostTimeline {
    const canonical = normalizeMac(mac);
    if (canonical === null) throw invalid('querystring.mac', `"${mac}" is not a MAC address`);
    return this.build(canonical, this.deps.hosts.findByMac(canonical)?.id ?? null, limit);
  }

  /** Every MAC's latest boot with a step in the last 10 minutes, most recent first. */
  bootingNow(): BootingNow[] {
    const now = this.now();
    const cutoff = now.getTime() - BOOTING_NOW_MS;
    const result: BootingNow[] = [];
    for (const [mac, events] of stepEventsByMac(this.deps.events())) {
      const last = events.at(-1);
      if (!last || Date.parse(last.created_at) < cutoff) continue;
      const boot = splitBoots(events, { now }).at(-1);
      if (!boot || Date.parse(boot.last_at) < cutoff) continue;
      const host = this.deps.hosts.findByMac(mac);
      result.push({ mac, host_id: host?.id ?? null, hostname: host?.hostname ?? null, boot });
    }
    return result.sort((a, b) => (a.boot.last_at < b.boot.last_at ? 1 : a.boot.last_at > b.boot.last_at ? -1 : 0));
  }

  /** Boots that failed within the last `windowMs` (every MAC), most recent first: the dashboard's "failed boots in the last hour". */
  recentFailures(windowMs: number): BootingNow[] {
    const now = this.now();
    const cutoff = now.getTime() - windowMs;
    const result: BootingNow[] = [];
    for (const [mac, events] of stepEventsByMac(this.deps.events())) {
      const last = events.at(-1);
      if (!last || Date.parse(last.created_at) < cutoff) continue;
      const host = this.deps.hosts.findByMac(mac);
      for (const boot of splitBoots(events, { now })) {
        if (boot.outcome === 'failed' && Date.parse(boot.last_at) >= cutoff) result.push({ mac, host_id: host?.id ?? null, hostname: host?.hostname ?? null, boot });
      }
    }
    return result.sort((a, b) => (a.boot.last_at < b.boot.last_at ? 1 : a.boot.last_at > b.boot.last_at ? -1 : 0));
  }

  private build(mac: string, hostId: number | null, limit: number): HostTimeline {
    const events = stepEventsByMac(this.deps.events(), (candidate) => candidate === mac).get(mac) ?? [];
    const boots = splitBoots(events, { now: this.now() });
    return { mac, host_id: hostId, boots: boots.slice(-limit).reverse() };
  }
}
