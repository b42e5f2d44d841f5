import { AppError, conflict, invalid, notFound } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { normalizeMac, unicastMacProblem } from '../core/mac.js';
import type { Collection, Row } from '../store/collection.js';
import type { Store } from '../store/store.js';

import type { AccessEntryView, AccessListName, AccessMode, MoveResult, UnauthorizedDeviceView } from './dhcp-contract.js';

export { ACCESS_MODES, type AccessMode, type AccessListName, type MoveResult } from './dhcp-contract.js';

/** A stored list entry: the API's view plus the store's row fields. */
export type AccessEntry = AccessEntryView & Row;

/** A device refused in whitelist mode, as stored. */
export type UnauthorizedDevice = UnauthorizedDeviceView & Row;

/** What a server knows about a refused client. */
export interface UnauthorizedInfo {
  mac: string;
  vendor_class?: string | null;
  arch?: number | null;
  hostname?: string | null;
}

/** The unauthorized list is bounded: a flood of random MACs must not grow the store without end. */
export const MAX_UNAUTHORIZED = 10_000;

/**
 * MAC access control shared by the DHCP server (both modes) and the boot
 * chain (HTTP/TFTP script serving): blacklist, whitelist, the access mode and
 * the record of devices refused in whitelist mode.
 */
export class AccessPolicy {
  private readonly lists: Record<AccessListName, Collection<AccessEntry>>;
  private readonly unauthorized: Collection<UnauthorizedDevice>;
  private readonly mode: () => AccessMode;
  private readonly log: Logger;
  /** MAC → entry, per list: isAllowed runs per packet. */
  private readonly index: Record<AccessListName, Map<string, AccessEntry>> = { blacklist: new Map(), whitelist: new Map() };
  private readonly unauthorizedByMac = new Map<string, UnauthorizedDevice>();
  /** Serialises writes to the unauthorized record of one MAC (count updates from packet bursts). */
  private unauthorizedQueue: Promise<unknown> = Promise.resolve();

  constructor(deps: { store: Store; mode: () => AccessMode; log: Logger }) {
    this.lists = {
      blacklist: deps.store.collection<AccessEntry>('access_blacklist'),
      whitelist: deps.store.collection<AccessEntry>('access_whitelist'),
    };
    this.unauthorized = deps.store.collection<UnauthorizedDevice>('access_unauthorized');
    this.mode = deps.mode;
    this.log = deps.log.scope('access');
    for (const name of ['blacklist', 'whitelist'] as const) {
      for (const entry of this.lists[name].all()) this.index[name].set(entry.mac, entry);
    }
    for (const device of this.unauthorized.all()) this.unauthorizedByMac.set(device.mac, device);
  }

  accessMode(): AccessMode {
    return this.mode();
  }

  /**
   * Whether a client may be answered (DHCP, proxyDHCP, boot files). `mac`
   * may be in any common spelling; an unparsable one is refused.
   */
  isAllowed(mac: string): boolean {
    const canonical = canonicalMac(mac);
    if (!canonical) return false;
    if (this.index.blacklist.has(canonical)) return false;
    return this.mode() === 'open' || this.index.whitelist.has(canonical);
  }

  /** Why a client is refused, or null when it is allowed. */
  denialReason(mac: string): 'blacklisted' | 'not_whitelisted' | 'invalid_mac' | null {
    const canonical = canonicalMac(mac);
    if (!canonical) return 'invalid_mac';
    if (this.index.blacklist.has(canonical)) return 'blacklisted';
    if (this.mode() === 'whitelist' && !this.index.whitelist.has(canonical)) return 'not_whitelisted';
    return null;
  }

  list(name: AccessListName): readonly AccessEntry[] {
    return this.lists[name].all();
  }

  async add(name: AccessListName, input: { mac: string; comment?: string }, field = 'body.mac'): Promise<AccessEntry> {
    const mac = normalizeMac(input.mac);
    if (!mac) throw invalid(field, `"${input.mac}" is not a MAC address`);
    const unicast = unicastMacProblem(mac);
    if (unicast) throw invalid(field, unicast);
    if (this.index[name].has(mac)) throw conflict(`${mac} is already on the ${name}`, [{ field, message: 'duplicate MAC' }]);
    const entry = await this.lists[name].insert({ mac, comment: input.comment ?? '' });
    this.index[name].set(mac, entry);
    return entry;
  }

  async remove(name: AccessListName, id: number): Promise<AccessEntry> {
    const removed = await this.lists[name].remove(id);
    if (!removed) throw notFound(`${name} entry`, id);
    this.index[name].delete(removed.mac);
    return removed;
  }

  unauthorizedDevices(): readonly UnauthorizedDevice[] {
    return this.unauthorized.all();
  }

  /**
   * Notes a device refused in whitelist mode: first_seen/last_seen/count and
   * what it said about itself. Never throws (servers call it per packet).
   */
  recordUnauthorized(info: UnauthorizedInfo, now: Date = new Date()): Promise<void> {
    const mac = normalizeMac(info.mac);
    if (!mac) return Promise.resolve();
    const run = this.unauthorizedQueue.then(() => this.upsertUnauthorized(mac, info, now)).catch((err: unknown) => {
      this.log.warn(`recording unauthorized device ${mac} failed: ${String(err)}`);
    });
    this.unauthorizedQueue = run;
    return run;
  }

  /** Resolves once every recordUnauthorized call made so far is stored. */
  unauthorizedSettled(): Promise<void> {
    return this.unauthorizedQueue.then(() => undefined);
  }

  async removeUnauthorized(id: number): Promise<UnauthorizedDevice> {
    const removed = await this.unauthorized.remove(id);
    if (!removed) throw notFound('unauthorized device', id);
    this.unauthorizedByMac.delete(removed.mac);
    return removed;
  }

  /**
   * Moves unauthorized records to a list; each record leaves the unauthorized
   * list. A MAC already on the target list is not an error (the record goes).
   * Moving to the blacklist also drops a whitelist entry of that MAC, and the
   * other way round, so the move decides the outcome.
   */
  async moveUnauthorized(ids: readonly number[], target: AccessListName): Promise<MoveResult[]> {
    const results: MoveResult[] = [];
    const other: AccessListName = target === 'blacklist' ? 'whitelist' : 'blacklist';
    for (const id of ids) {
      const device = this.unauthorized.get(id);
      if (!device) {
        results.push({ id, ok: false, error: `unauthorized device ${id} not found`, code: 'NOT_FOUND' });
        continue;
      }
      try {
        const existing = this.index[target].get(device.mac);
        const entry = existing ?? (await this.add(target, { mac: device.mac, comment: `moved from unauthorized devices` }));
        const opposite = this.index[other].get(device.mac);
        if (opposite) await this.remove(other, opposite.id);
        await this.removeUnauthorized(id);
        results.push({ id, ok: true, mac: device.mac, entry_id: entry.id });
      } catch (err) {
        const code = err instanceof AppError ? err.code : 'INTERNAL';
        results.push({ id, ok: false, mac: device.mac, error: String(err instanceof Error ? err.message : err), code });
      }
    }
    return results;
  }

  private async upsertUnauthorized(mac: string, info: UnauthorizedInfo, now: Date): Promise<void> {
    const seen = now.toISOString();
    const current = this.unauthorizedByMac.get(mac);
    if (current) {
      const updated = await this.unauthorized.update(current.id, {
        last_seen: seen,
        count: current.count + 1,
        vendor_class: info.vendor_class ?? current.vendor_class,
        arch: info.arch ?? current.arch,
        hostname: info.hostname ?? current.hostname,
      }, now);
      if (updated) this.unauthorizedByMac.set(mac, updated);
      return;
    }
    if (this.unauthorized.size >= MAX_UNAUTHORIZED) {
      // Forget the device seen longest ago to make room.
      let oldest: UnauthorizedDevice | undefined;
      for (const device of this.unauthorized.all()) if (!oldest || device.last_seen < oldest.last_seen) oldest = device;
      if (oldest) await this.removeUnauthorized(oldest.id);
    }
    const device = await this.unauthorized.insert({
      mac,
      first_seen: seen,
      last_seen: seen,
      count: 1,
      vendor_class: info.vendor_class ?? null,
      arch: info.arch ?? null,
      hostname: info.hostname ?? null,
    }, now);
    this.unauthorizedByMac.set(mac, device);
  }
}

const CANONICAL_MAC = /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/;

/** `mac` itself when already canonical (what the servers pass, per packet), else normalised. */
function canonicalMac(mac: string): string | null {
  return CANONICAL_MAC.test(mac) ? mac : normalizeMac(mac);
}
