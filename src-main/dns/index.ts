import type { AreaModule } from '../core/area.js';
import type { AuthService } from '../auth/auth-service.js';
import { dnsRoutes } from './dns-routes.js';
import { DnsService } from './server/dns-service.js';
import { ownDnsNames } from './own-names.js';

export type { NameSource, NameSourceEntry } from './name-source.js';
export { NameSources, type DerivedEntry } from './name-sources.js';
export {
  DNS_RECORD_TYPES,
  SERVER_IP_MARKER,
  DEFAULT_TTL,
  MAX_TTL,
  MAX_TXT_BYTES,
  MAX_RECORDS,
  DnsSettingsSchema,
  DnsSettingsPatchSchema,
  type DnsRecord,
  type DnsRecordInput,
  type DnsRecordPatch,
  type DnsRecordType,
  type DnsSettings,
  type DnsSettingsPatch,
} from './dns-contract.js';
export { DnsRecords, checkRecord } from './dns-records.js';
export { DnsSettingsStore, DNS_SETTINGS_DEFAULTS, checkDnsSettings, type DnsStoredSettings } from './dns-settings.js';
export { AutoRecords, AUTO_RECORD_COMMENT } from './auto-records.js';
export { parseUpstreams, type UpstreamServer } from './upstream.js';
export { recordFqdn, targetFqdn, inDomain, reverseName, domainProblem, canonicalName, APEX } from './dns-names.js';
export { dnsRoutes, type DnsRouteOperations } from './dns-routes.js';
export { DnsService, type DnsServiceDeps } from './server/dns-service.js';

/** Options of the DNS area the core passes through from its own (tests and benches set them). */
export interface DnsAreaOptions {
  /** DNS worker threads; default one per core (at most 4) where SO_REUSEPORT is available, else 1. */
  workers?: number;
}

/**
 * The DNS area module (docs/architecture.md, "Area folders"): the facade is
 * the DnsService (`ctx.dns`), the routes are /services/dns and /dns/records,
 * the service is the DNS server. It needs auth (its names join the Host
 * guard's); hosts and DHCP
 * leases feed it names through `addNameSource` (wired in core/app-core.ts).
 */
export function dnsArea(options: DnsAreaOptions = {}): AreaModule<'dns', DnsService, { auth: AuthService }> {
  return {
    name: 'dns',
    needs: ['auth'],
    create(kernel, { auth }) {
      const dns = new DnsService({ ...kernel, ...(options.workers ? { workers: options.workers } : {}) });
      // The Host guard accepts the names our DNS answers with our address (bootwright.local, <server>.<domain>, …).
      auth.hosts.addSource(() => ownDnsNames(dns.records.all(), dns.settings.get().local_domain, kernel.settings.general().server_name));
      dns.records.onChange(() => auth.hosts.invalidate());
      return { facade: dns, routes: [dnsRoutes(dns)], services: [dns.server] };
    },
  };
}
