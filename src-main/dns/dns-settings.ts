import { AppError, type FieldError } from '../core/errors.js';
import type { Section } from '../store/section.js';
import type { Store } from '../store/store.js';
import type { DnsSettings, DnsSettingsPatch } from './dns-contract.js';
import { canonicalName, domainProblem } from './dns-names.js';
import { parseUpstreams } from './upstream.js';

/**
 * The stored `dns` section: the API's settings without `enabled`, which is
 * the service manager's auto-start flag (one truth for every service; store
 * migration 2 moved a stored `enabled: false` there).
 */
export type DnsStoredSettings = Omit<DnsSettings, 'enabled'>;
export type DnsStoredSettingsPatch = Omit<DnsSettingsPatch, 'enabled'>;

/** The product name makes the default domain (spec: "<product>.local"). */
export const DNS_SETTINGS_DEFAULTS: DnsStoredSettings = { port: 53, local_domain: 'bootwright.local', upstream: '' };

/**
 * Checks a whole settings value; returns it normalised (domain lowercase
 * without a trailing dot, upstream trimmed) with one error per bad field or
 * upstream entry. `field` names a field the way the API reports it.
 */
export function checkDnsSettings(value: DnsStoredSettings, field: (name: string) => string = (name) => name): { value: DnsStoredSettings; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const localDomain = canonicalName(value.local_domain.trim());
  const domainError = domainProblem(localDomain);
  if (domainError) errors.push({ field: field('local_domain'), message: `"${value.local_domain}" ${domainError}` });
  for (const message of parseUpstreams(value.upstream).errors) errors.push({ field: field('upstream'), message });
  return { value: { ...value, local_domain: localDomain, upstream: value.upstream.trim() }, errors };
}

/** The `dns` settings section of the config store. */
export class DnsSettingsStore {
  private readonly section: Section<DnsStoredSettings>;

  constructor(store: Store) {
    this.section = store.section<DnsStoredSettings>('dns', DNS_SETTINGS_DEFAULTS);
  }

  get(): DnsStoredSettings {
    return this.section.get();
  }

  /**
   * Validates `patch` merged over the stored value and stores it; throws a
   * 400 naming every bad field (and upstream entry) and stores nothing then.
   * Returns the previous and the new value.
   */
  async update(patch: DnsStoredSettingsPatch, field: (name: string) => string = (name) => `body.${name}`): Promise<{ previous: DnsStoredSettings; next: DnsStoredSettings }> {
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
