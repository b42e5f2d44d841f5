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
export { DnsSettingsStore, DNS_SETTINGS_DEFAULTS, checkDnsSettings } from './dns-settings.js';
export { AutoRecords, AUTO_RECORD_COMMENT } from './auto-records.js';
export { parseUpstreams, type UpstreamServer } from './upstream.js';
export { recordFqdn, targetFqdn, inDomain, reverseName, domainProblem, canonicalName, APEX } from './dns-names.js';
