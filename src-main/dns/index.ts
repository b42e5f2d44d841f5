export type { NameSource, NameSourceEntry } from './name-source.js';
export { NameSources, type DerivedEntry } from './name-sources.js';
export {
  DnsRecords,
  checkRecord,
  DNS_RECORD_TYPES,
  SERVER_IP_MARKER,
  DEFAULT_TTL,
  MAX_TTL,
  MAX_TXT_BYTES,
  MAX_RECORDS,
  type DnsRecord,
  type DnsRecordInput,
  type DnsRecordPatch,
  type DnsRecordType,
} from './dns-records.js';
export { DnsSettingsStore, DnsSettingsSchema, DnsSettingsPatchSchema, DNS_SETTINGS_DEFAULTS, checkDnsSettings, type DnsSettings, type DnsSettingsPatch } from './dns-settings.js';
export { AutoRecords, AUTO_RECORD_COMMENT } from './auto-records.js';
export { parseUpstreams, type UpstreamServer } from './upstream.js';
export { recordFqdn, targetFqdn, inDomain, reverseName, domainProblem, canonicalName, APEX } from './dns-names.js';
