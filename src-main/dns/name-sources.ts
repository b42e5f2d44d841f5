import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { ipFamily } from '../network/ip-math.js';
import { canonicalName, domainProblem, inDomain } from './dns-names.js';
import type { NameSource } from './name-source.js';

/** A derived name: absolute, lowercase. */
export interface DerivedEntry {
  fqdn: string;
  ipv4: string;
}

/**
 * The registered name sources (hosts, DHCP leases). Their entries become
 * `<hostname>.<local_domain>` A records with PTRs; a hostname that already
 * ends in the local domain is used as it is. Entries that are no valid DNS
 * name or no IPv4 address are skipped: a DHCP client's hostname is whatever
 * the client sent.
 */
export class NameSources {
  private readonly sources = new Map<NameSource, () => void>();
  private readonly listeners = new Set<() => void>();
  private readonly log: Logger;

  constructor(log: Logger) {
    this.log = log;
  }

  /** Adds a source; returns the function that removes it again. */
  add(source: NameSource): () => void {
    if (this.sources.has(source)) return () => this.remove(source);
    this.sources.set(source, source.onChange(() => this.changed()));
    this.changed();
    return () => this.remove(source);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every valid entry of every source, without duplicates. */
  entries(localDomain: string): DerivedEntry[] {
    const out: DerivedEntry[] = [];
    const seen = new Set<string>();
    for (const source of this.sources.keys()) {
      let entries: Iterable<{ hostname: string; ipv4: string }>;
      try {
        entries = source.entries();
      } catch (err) {
        this.log.warn(`DNS name source ${source.name} failed: ${errorMessage(err)}`);
        continue;
      }
      for (const { hostname, ipv4 } of entries) {
        const name = canonicalName(hostname.trim());
        if (name.length === 0 || domainProblem(name) || ipFamily(ipv4) !== 'ipv4') continue;
        const fqdn = inDomain(name, localDomain) ? name : `${name}.${localDomain}`;
        if (domainProblem(fqdn)) continue;
        const key = `${fqdn}|${ipv4}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ fqdn, ipv4 });
      }
    }
    return out;
  }

  private remove(source: NameSource): void {
    const unsubscribe = this.sources.get(source);
    if (!unsubscribe) return;
    this.sources.delete(source);
    unsubscribe();
    this.changed();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
