import type { Logger } from '../core/logger.js';
import type { NameSource, NameSourceEntry } from '../dns/name-source.js';
import { intToIpv4, parseIpv4 } from '../network/ip-math.js';
import { LeaseJournal, type JournalRecord } from './lease-journal.js';

/** One client's lease, keyed by MAC (the API's lease identifier). */
export interface Lease {
  mac: string;
  /** Address as uint32. */
  ip: number;
  /** ms since the epoch. */
  starts: number;
  expires: number;
  hostname: string | null;
  /** Option 61 as hex, when the client sent one. */
  clientId: string | null;
  vendorClass: string | null;
  arch: number | null;
}

import type { LeaseState } from './dhcp-contract.js';

export type { LeaseState } from './dhcp-contract.js';

export interface LeaseChange {
  kind: 'expired';
  lease: Lease;
}

/**
 * The lease table: in memory with indexes by MAC and address, every change
 * journaled (lease-journal.ts) before the caller's `whenDurable` continuation
 * runs — the DHCP server sends an ACK only from there. Expired leases stay
 * (the client gets its address back) until pruned or their address is
 * reused; quarantined addresses (DECLINE) are kept here too.
 */
export class LeaseDatabase {
  private readonly byMacMap = new Map<string, Lease>();
  private readonly byIpMap = new Map<number, Lease>();
  private readonly quarantined = new Map<number, number>();
  /** Leases whose expiry was already reported (the sweep reports each once). */
  private readonly reportedExpired = new WeakSet<Lease>();
  private readonly journal: LeaseJournal;
  private readonly log: Logger;
  private readonly listeners = new Set<() => void>();
  private notifyTimer: NodeJS.Timeout | null = null;
  private readonly notifyDelayMs: number;

  private constructor(journal: LeaseJournal, log: Logger, notifyDelayMs: number) {
    this.journal = journal;
    this.log = log;
    this.notifyDelayMs = notifyDelayMs;
  }

  /** Loads the journal from `dir` and opens it for appending. */
  static async open(options: { dir: string; log: Logger; compactAfter?: number; notifyDelayMs?: number; now?: number }): Promise<LeaseDatabase> {
    const log = options.log.scope('dhcp-leases');
    const journal = new LeaseJournal({
      dir: options.dir,
      ...(options.compactAfter !== undefined ? { compactAfter: options.compactAfter } : {}),
      onError: (err) => log.error(`lease journal write failed: ${err.message}`),
    });
    const db = new LeaseDatabase(journal, log, options.notifyDelayMs ?? 500);
    const replay = await journal.replay((record) => db.apply(record));
    if (replay.skipped > 0) log.warn(`lease journal: skipped ${replay.skipped} unreadable line(s) (a write cut short by a crash)`);
    const now = options.now ?? Date.now();
    // Leases that expired while the server was down are not news.
    for (const lease of db.byMacMap.values()) if (lease.expires <= now) db.reportedExpired.add(lease);
    journal.open(() => db.liveRecords(), () => db.byMacMap.size + db.quarantined.size);
    await journal.compact();
    log.info(`loaded ${db.byMacMap.size} lease(s) and ${db.quarantined.size} quarantined address(es)`);
    return db;
  }

  get size(): number {
    return this.byMacMap.size;
  }

  get(mac: string): Lease | undefined {
    return this.byMacMap.get(mac);
  }

  byIp(ip: number): Lease | undefined {
    return this.byIpMap.get(ip);
  }

  all(): IterableIterator<Lease> {
    return this.byMacMap.values();
  }

  static state(lease: Lease, now: number): LeaseState {
    return lease.expires > now ? 'active' : 'expired';
  }

  /** True while a lease of another client holds the address. */
  heldByOther(ip: number, mac: string, now: number): boolean {
    const lease = this.byIpMap.get(ip);
    return lease !== undefined && lease.mac !== mac && lease.expires > now;
  }

  /**
   * Stores a lease (replacing the client's previous one) and journals it.
   * Another client's expired lease on the same address is dropped: the
   * address has a new owner.
   */
  commit(lease: Lease): void {
    const previous = this.byMacMap.get(lease.mac);
    if (previous && previous.ip !== lease.ip && this.byIpMap.get(previous.ip) === previous) this.byIpMap.delete(previous.ip);
    const occupant = this.byIpMap.get(lease.ip);
    if (occupant && occupant.mac !== lease.mac) {
      this.byMacMap.delete(occupant.mac);
      this.journal.append({ t: 'D', m: occupant.mac });
    }
    this.byMacMap.set(lease.mac, lease);
    this.byIpMap.set(lease.ip, lease);
    this.journal.append(toRecord(lease));
    this.changed();
  }

  /** Ends a lease now (RELEASE): it stays as expired, so the client gets the address back later. */
  expire(mac: string, now: number): Lease | undefined {
    const lease = this.byMacMap.get(mac);
    if (!lease || lease.expires <= now) return lease;
    const ended = { ...lease, expires: now };
    this.byMacMap.set(mac, ended);
    this.byIpMap.set(ended.ip, ended);
    this.reportedExpired.add(ended);
    this.journal.append(toRecord(ended));
    this.changed();
    return ended;
  }

  /** Deletes a client's lease; returns it, or undefined when there was none. */
  remove(mac: string): Lease | undefined {
    const lease = this.byMacMap.get(mac);
    if (!lease) return undefined;
    this.byMacMap.delete(mac);
    if (this.byIpMap.get(lease.ip) === lease) this.byIpMap.delete(lease.ip);
    this.journal.append({ t: 'D', m: mac });
    this.changed();
    return lease;
  }

  /** Removes every expired lease; returns how many. */
  prune(now: number): number {
    let removed = 0;
    for (const lease of [...this.byMacMap.values()]) {
      if (lease.expires <= now) {
        this.remove(lease.mac);
        removed += 1;
      }
    }
    return removed;
  }

  quarantine(ip: number, until: number): void {
    this.quarantined.set(ip, until);
    this.journal.append({ t: 'Q', i: intToIpv4(ip), u: until });
  }

  isQuarantined(ip: number, now: number): boolean {
    const until = this.quarantined.get(ip);
    if (until === undefined) return false;
    if (until > now) return true;
    this.quarantined.delete(ip);
    this.journal.append({ t: 'U', i: intToIpv4(ip) });
    return false;
  }

  /** Quarantined addresses with their end (ms), ended ones excluded. */
  quarantinedAddresses(now: number): { ip: number; until: number }[] {
    return [...this.quarantined].filter(([, until]) => until > now).map(([ip, until]) => ({ ip, until }));
  }

  /** Leases that expired since the last sweep (each reported once). */
  sweepExpired(now: number): Lease[] {
    const out: Lease[] = [];
    for (const lease of this.byMacMap.values()) {
      if (lease.expires <= now && !this.reportedExpired.has(lease)) {
        this.reportedExpired.add(lease);
        out.push(lease);
      }
    }
    if (out.length > 0) this.changed();
    return out;
  }

  /** Observes the journal's batches (records per batch, seconds to write and sync); one observer. */
  observeBatches(observer: ((records: number, seconds: number) => void) | null): void {
    this.journal.onBatch = observer;
  }

  /** Runs `done` once everything committed so far is on disk. */
  whenDurable(done: (err: Error | null) => void): void {
    this.journal.whenDurable(done);
  }

  durable(): Promise<void> {
    return this.journal.durable();
  }

  /** Subscribes to lease changes (coalesced: at most one call per notify delay). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.notifyTimer) clearTimeout(this.notifyTimer);
    this.notifyTimer = null;
    await this.journal.close();
  }

  compact(): Promise<void> {
    return this.journal.compact();
  }

  private changed(): void {
    if (this.listeners.size === 0 || this.notifyTimer) return;
    this.notifyTimer = setTimeout(() => {
      this.notifyTimer = null;
      for (const listener of this.listeners) {
        try {
          listener();
        } catch (err) {
          this.log.error(`lease change listener failed: ${String(err)}`);
        }
      }
    }, this.notifyDelayMs);
    this.notifyTimer.unref();
  }

  private apply(record: JournalRecord): void {
    switch (record.t) {
      case 'L': {
        const ip = parseIpv4(record.i);
        if (ip === null) return;
        const lease: Lease = {
          mac: record.m,
          ip,
          starts: record.s,
          expires: record.e,
          hostname: record.h ?? null,
          clientId: record.c ?? null,
          vendorClass: record.v ?? null,
          arch: record.a ?? null,
        };
        const previous = this.byMacMap.get(lease.mac);
        if (previous && this.byIpMap.get(previous.ip) === previous) this.byIpMap.delete(previous.ip);
        const occupant = this.byIpMap.get(ip);
        if (occupant && occupant.mac !== lease.mac) this.byMacMap.delete(occupant.mac);
        this.byMacMap.set(lease.mac, lease);
        this.byIpMap.set(ip, lease);
        return;
      }
      case 'D': {
        const lease = this.byMacMap.get(record.m);
        if (!lease) return;
        this.byMacMap.delete(record.m);
        if (this.byIpMap.get(lease.ip) === lease) this.byIpMap.delete(lease.ip);
        return;
      }
      case 'Q': {
        const ip = parseIpv4(record.i);
        if (ip !== null) this.quarantined.set(ip, record.u);
        return;
      }
      case 'U': {
        const ip = parseIpv4(record.i);
        if (ip !== null) this.quarantined.delete(ip);
        return;
      }
    }
  }

  private *liveRecords(): Iterable<JournalRecord> {
    for (const lease of this.byMacMap.values()) yield toRecord(lease);
    for (const [ip, until] of this.quarantined) yield { t: 'Q', i: intToIpv4(ip), u: until };
  }
}

function toRecord(lease: Lease): JournalRecord {
  return {
    t: 'L',
    m: lease.mac,
    i: intToIpv4(lease.ip),
    s: lease.starts,
    e: lease.expires,
    h: lease.hostname,
    c: lease.clientId,
    v: lease.vendorClass,
    a: lease.arch,
  };
}

/**
 * The DNS feed of lease names: active leases that carry a hostname, as
 * `<hostname>.<local domain>` A/PTR records (src-main/dns/name-source.ts).
 */
export function leaseNameSource(leases: LeaseDatabase, now: () => number = Date.now): NameSource {
  return {
    name: 'dhcp-leases',
    *entries(): Iterable<NameSourceEntry> {
      const at = now();
      for (const lease of leases.all()) {
        if (lease.hostname && lease.expires > at) yield { hostname: lease.hostname, ipv4: intToIpv4(lease.ip) };
      }
    },
    onChange(listener: () => void): () => void {
      return leases.onChange(listener);
    },
  };
}
