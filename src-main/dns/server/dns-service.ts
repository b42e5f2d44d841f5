import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { AutoRecords } from '../auto-records.js';
import { recordFqdn, targetFqdn } from '../dns-names.js';
import { DnsRecords } from '../dns-records.js';
import type { DnsSettings, DnsSettingsPatch } from '../dns-contract.js';
import { DnsSettingsStore } from '../dns-settings.js';
import type { NameSource } from '../name-source.js';
import { NameSources } from '../name-sources.js';
import { parseUpstreams } from '../upstream.js';
import { applyServiceSettings } from '../../services/settings-apply.js';
import { DnsMetrics } from './dns-metrics.js';
import { DnsServer, type ZoneSource } from './dns-server.js';
import { defaultWorkerCount } from './runtime-support.js';
import type { ZoneSnapshot } from './zone-snapshot.js';
import type { Kernel } from '../../core/area.js';

/** The ground services DNS uses (the kernel less the config), and its threading. */
export interface DnsServiceDeps extends Omit<Kernel, 'config'> {
  /** DNS worker threads; default: one per core (at most 4) where the runtime supports SO_REUSEPORT, else 1. */
  workers?: number;
}

/**
 * The DNS area as the rest of the app sees it (`ctx.dns`): its settings, the
 * explicit records, the name sources other areas feed, and the server (a
 * managed service registered as `dns`).
 */
export class DnsService implements ZoneSource {
  readonly settings: DnsSettingsStore;
  readonly records: DnsRecords;
  readonly server: DnsServer;
  private readonly sources: NameSources;
  private readonly autoRecords: AutoRecords;
  private readonly deps: DnsServiceDeps;
  private readonly log: Logger;
  private version = 0;
  private serial = 0;

  constructor(deps: DnsServiceDeps) {
    this.deps = deps;
    this.log = deps.log.scope('dns');
    this.settings = new DnsSettingsStore(deps.store);
    const localDomain = () => this.settings.get().local_domain;
    this.records = new DnsRecords({ store: deps.store, events: deps.events, localDomain });
    this.autoRecords = new AutoRecords({ store: deps.store, records: this.records, localDomain });
    this.sources = new NameSources(this.log);
    this.server = new DnsServer({
      settings: this.settings,
      network: deps.network,
      zone: this,
      metrics: new DnsMetrics(deps.metrics),
      log: deps.log,
      workers: deps.workers ?? defaultWorkerCount(),
      beforeStart: () => this.createAutoRecords(),
    });
  }

  /**
   * Adds a feed of derived names (hosts, DHCP leases): each entry answers as
   * `<hostname>.<local_domain>` A with a PTR. Returns the function that removes it.
   */
  addNameSource(source: NameSource): () => void {
    return this.sources.add(source);
  }

  /**
   * Validates and stores the settings, then applies them to the server by
   * the rule every area shares (services/settings-apply.ts).
   */
  async updateSettings(patch: DnsSettingsPatch): Promise<DnsSettings> {
    const { enabled, ...stored } = patch;
    const { previous, next } = await this.settings.update(stored);
    const changed = previous !== next;
    if (changed) this.deps.events.emit({ kind: 'settings.changed', message: 'settings changed: dns', detail: { sections: ['dns'] } });
    await applyServiceSettings({ services: this.deps.services, name: this.server.name, enabled, changed });
    return this.settingsView();
  }

  /** The settings as the API shows them: `enabled` is the server's auto-start flag. */
  settingsView(): DnsSettings {
    return { enabled: this.deps.services.autoStart(this.server.name), ...this.settings.get() };
  }

  /** Resolves once record and name changes made so far are answered by the running server. */
  sync(): Promise<void> {
    return this.server.sync();
  }

  flushMetrics(): Promise<void> {
    return this.server.flushMetrics();
  }

  /** The answer data as it stands now (ZoneSource). */
  snapshot(): ZoneSnapshot {
    const settings = this.settings.get();
    const domain = settings.local_domain;
    this.serial = Math.max(this.serial + 1, Math.floor(Date.now() / 1000));
    return {
      version: ++this.version,
      serial: this.serial >>> 0,
      localDomain: domain,
      serverName: this.deps.settings.general().server_name.toLowerCase(),
      records: this.records
        .all()
        .filter((record) => record.enabled)
        .map((record) => ({
          fqdn: recordFqdn(record.name, domain),
          type: record.type,
          value: record.type === 'CNAME' || record.type === 'MX' ? targetFqdn(record.value, domain) : record.value,
          ttl: record.ttl,
          priority: record.priority,
          subnet: record.subnet,
        })),
      derived: this.sources.entries(domain),
      addresses: this.deps.network.resolvedAddresses(),
      upstreams: parseUpstreams(settings.upstream).servers,
    };
  }

  onChange(listener: () => void): () => void {
    const unsubscribers = [
      this.records.onChange(listener),
      this.sources.onChange(listener),
      this.deps.settings.onChange('general', () => listener()),
    ];
    return () => unsubscribers.forEach((unsubscribe) => unsubscribe());
  }

  private async createAutoRecords(): Promise<void> {
    try {
      const created = await this.autoRecords.ensure(this.deps.settings.general().server_name);
      if (created.length > 0) this.log.info(`created DNS auto-records: ${created.join(', ')}`);
    } catch (err) {
      // A server name that is no valid DNS label must not keep DNS from starting.
      this.log.warn(`DNS auto-records not created: ${errorMessage(err)}`);
    }
  }
}
