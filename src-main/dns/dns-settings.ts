import { Type, type Static } from 'typebox';
import { AppError, type FieldError } from '../core/errors.js';
import type { Section } from '../store/section.js';
import type { Store } from '../store/store.js';
import { canonicalName, domainProblem } from './dns-names.js';
import { parseUpstreams } from './upstream.js';

const DnsSettingsFields = {
  enabled: Type.Boolean({ description: 'Whether the DNS server runs; false stops it and turns its auto-start off, true starts it and turns auto-start on' }),
  port: Type.Integer({ minimum: 1, maximum: 65535, description: 'UDP and TCP port (53)' }),
  local_domain: Type.String({ minLength: 1, maxLength: 254, description: 'Domain the server is authoritative for; record names are relative to it' }),
  upstream: Type.String({
    maxLength: 2048,
    description: 'Upstream servers: <ip>:<port> entries separated by commas or whitespace (port optional, 53; IPv6 as [addr]:port); empty forwards nothing',
  }),
};

export const DnsSettingsSchema = Type.Object(DnsSettingsFields, { additionalProperties: false });
/** PUT body: any subset of the fields; unknown fields are rejected. */
export const DnsSettingsPatchSchema = Type.Object(
  {
    enabled: Type.Optional(DnsSettingsFields.enabled),
    port: Type.Optional(DnsSettingsFields.port),
    local_domain: Type.Optional(DnsSettingsFields.local_domain),
    upstream: Type.Optional(DnsSettingsFields.upstream),
  },
  { additionalProperties: false },
);

export type DnsSettings = Static<typeof DnsSettingsSchema>;
export type DnsSettingsPatch = Static<typeof DnsSettingsPatchSchema>;

/** The product name makes the default domain (spec: "<product>.local"). */
export const DNS_SETTINGS_DEFAULTS: DnsSettings = { enabled: true, port: 53, local_domain: 'bootwright.local', upstream: '' };

/**
 * Checks a whole settings value; returns it normalised (domain lowercase
 * without a trailing dot, upstream trimmed) with one error per bad field or
 * upstream entry. `field` names a field the way the API reports it.
 */
export function checkDnsSettings(value: DnsSettings, field: (name: string) => string = (name) => name): { value: DnsSettings; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const localDomain = canonicalName(value.local_domain.trim());
  const domainError = domainProblem(localDomain);
  if (domainError) errors.push({ field: field('local_domain'), message: `"${value.local_domain}" ${domainError}` });
  for (const message of parseUpstreams(value.upstream).errors) errors.push({ field: field('upstream'), message });
  return { value: { ...value, local_domain: localDomain, upstream: value.upstream.trim() }, errors };
}

/** The `dns` settings section of the config store. */
export class DnsSettingsStore {
  private readonly section: Section<DnsSettings>;

  constructor(store: Store) {
    this.section = store.section<DnsSettings>('dns', DNS_SETTINGS_DEFAULTS);
  }

  get(): DnsSettings {
    return this.section.get();
  }

  /**
   * Validates `patch` merged over the stored value and stores it; throws a
   * 400 naming every bad field (and upstream entry) and stores nothing then.
   * Returns the previous and the new value.
   */
  async update(patch: DnsSettingsPatch, field: (name: string) => string = (name) => `body.${name}`): Promise<{ previous: DnsSettings; next: DnsSettings }> {
    const previous = this.get();
    const { value, errors } = checkDnsSettings({ ...previous, ...patch }, field);
    if (errors.length > 0) {
      const [first] = errors;
      const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
      throw new AppError('VALIDATION_FAILED', `${first!.field}: ${first!.message}${more}`, { details: errors });
    }
    const next = JSON.stringify(value) === JSON.stringify(previous) ? previous : await this.section.set(value);
    return { previous, next };
  }
}
