import { AppError, errorMessage, type FieldError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { EventLog } from '../events/event-log.js';
import type { Section } from '../store/section.js';
import type { Store } from '../store/store.js';
import {
  ADMIN_ONLY_FIELDS,
  SETTINGS_SECTIONS,
  settingsDefaults,
  type GeneralSettings,
  type InterfacesSettings,
  type LoggingSettings,
  type NetbootSettings,
  type SettingsPatch,
  type SettingsSectionName,
  type SettingsValues,
} from './settings-contract.js';
import { SECTION_CHECKS } from './settings-validation.js';

/** Called after a section changed and was stored; `previous` is the value before. */
export type SettingsListener<K extends SettingsSectionName> = (
  next: SettingsValues[K],
  previous: SettingsValues[K],
) => void | Promise<void>;

/** An extra rule for a section: the problems of `value` (the whole section after the patch), named through `field`. */
export type SettingsCheck<K extends SettingsSectionName> = (value: SettingsValues[K], field: (path: string) => string) => FieldError[];

export interface SettingsUpdateOptions {
  /** How a field is named in errors: `body.server_name` for a section route, `body.general.server_name` for /settings. */
  fieldPrefix?: (section: SettingsSectionName) => string;
}

type Sections = { [K in SettingsSectionName]: Section<SettingsValues[K]> };
type Listeners = { [K in SettingsSectionName]: Set<SettingsListener<K>> };

/**
 * The application settings (general, interfaces, netboot, logging): typed
 * reads, validated all-or-nothing updates, and change subscriptions so the
 * services that depend on a section can apply it (restart themselves) live.
 */
export class SettingsService {
  private readonly sections: Sections;
  private readonly listeners: Listeners = { general: new Set(), interfaces: new Set(), netboot: new Set(), logging: new Set() };
  /** Checks other areas add (a field that names their data, such as netboot.default_profile_id). */
  private readonly extraChecks: { [K in SettingsSectionName]: Set<SettingsCheck<K>> } = { general: new Set(), interfaces: new Set(), netboot: new Set(), logging: new Set() };
  private readonly events: EventLog;
  private readonly log: Logger;
  /** Serialises updates so two concurrent PUTs never interleave read-validate-write. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(deps: { store: Store; events: EventLog; log: Logger; defaults: { logLevel: LoggingSettings['level'] } }) {
    const defaults = settingsDefaults(deps.defaults);
    this.sections = {
      general: deps.store.section('general', defaults.general),
      interfaces: deps.store.section('interfaces', defaults.interfaces),
      netboot: deps.store.section('netboot', defaults.netboot),
      logging: deps.store.section('logging', defaults.logging),
    };
    this.events = deps.events;
    this.log = deps.log.scope('settings');
  }

  general(): GeneralSettings {
    return this.get('general');
  }

  interfaces(): InterfacesSettings {
    return this.get('interfaces');
  }

  netboot(): NetbootSettings {
    return this.get('netboot');
  }

  logging(): LoggingSettings {
    return this.get('logging');
  }

  get<K extends SettingsSectionName>(section: K): SettingsValues[K] {
    return this.sections[section].get();
  }

  all(): SettingsValues {
    return { general: this.general(), interfaces: this.interfaces(), netboot: this.netboot(), logging: this.logging() };
  }

  /**
   * Adds a validation rule to a section that only another area can decide
   * (does profile 7 exist?); it runs with the built-in checks, all-or-nothing.
   * Returns the function that removes it.
   */
  addCheck<K extends SettingsSectionName>(section: K, check: SettingsCheck<K>): () => void {
    const set = this.extraChecks[section] as Set<SettingsCheck<K>>;
    set.add(check);
    return () => set.delete(check);
  }

  /** Subscribes to changes of one section; returns the unsubscribe function. */
  onChange<K extends SettingsSectionName>(section: K, listener: SettingsListener<K>): () => void {
    const set = this.listeners[section] as Set<SettingsListener<K>>;
    set.add(listener);
    return () => set.delete(listener);
  }

  /**
   * The admin-only fields (`general.allowed_hosts`, …) whose value `patch`
   * would change. Sending such a field unchanged is not a change, so an
   * operator can PUT back what GET returned.
   */
  adminFieldsChanged(patch: SettingsPatch): string[] {
    const changed: string[] = [];
    for (const section of SETTINGS_SECTIONS) {
      const sectionPatch = patch[section] as Record<string, unknown> | undefined;
      if (!sectionPatch) continue;
      const current = this.get(section) as Record<string, unknown>;
      for (const field of ADMIN_ONLY_FIELDS[section] as readonly string[]) {
        if (field in sectionPatch && !sameJson(sectionPatch[field], current[field])) changed.push(`${section}.${field}`);
      }
    }
    return changed;
  }

  /**
   * Validates every section in `patch` (merged over its current value) before
   * storing anything: one bad field anywhere and nothing changes. Unchanged
   * sections are not written and notify nobody. Resolves with all settings.
   */
  update(patch: SettingsPatch, options: SettingsUpdateOptions = {}): Promise<SettingsValues> {
    const run = this.queue.catch(() => undefined).then(() => this.apply(patch, options));
    this.queue = run;
    return run;
  }

  private async apply(patch: SettingsPatch, options: SettingsUpdateOptions): Promise<SettingsValues> {
    const prefix = options.fieldPrefix ?? ((section) => section);
    const errors: FieldError[] = [];
    const changes: { section: SettingsSectionName; next: unknown; previous: unknown }[] = [];
    for (const section of SETTINGS_SECTIONS) {
      const sectionPatch = patch[section];
      if (sectionPatch === undefined) continue;
      const previous = this.get(section);
      const check = SECTION_CHECKS[section] as (value: unknown, field: (path: string) => string) => { value: unknown; errors: FieldError[] };
      const result = check({ ...previous, ...sectionPatch }, (path) => `${prefix(section)}.${path}`);
      errors.push(...result.errors);
      if (result.errors.length === 0) {
        for (const extra of this.extraChecks[section] as Set<SettingsCheck<SettingsSectionName>>) {
          errors.push(...extra(result.value as never, (path) => `${prefix(section)}.${path}`));
        }
      }
      if (!sameJson(result.value, previous)) changes.push({ section, next: result.value, previous });
    }
    if (errors.length > 0) {
      const [first] = errors;
      const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
      throw new AppError('VALIDATION_FAILED', `${first!.field}: ${first!.message}${more}`, { details: errors });
    }
    if (changes.length === 0) return this.all();

    // One group commit carries every section of the request.
    await Promise.all(changes.map(({ section, next }) => (this.sections[section] as Section<object>).set(next as object)));
    const names = changes.map((change) => change.section);
    this.log.info(`settings changed: ${names.join(', ')}`);
    this.events.emit({ kind: 'settings.changed', message: `settings changed: ${names.join(', ')}`, detail: { sections: names } });
    for (const { section, next, previous } of changes) await this.notify(section, next, previous);
    return this.all();
  }

  /** Listener failures are logged: the settings are stored already, and one subscriber must not block the rest. */
  private async notify(section: SettingsSectionName, next: unknown, previous: unknown): Promise<void> {
    for (const listener of this.listeners[section] as Set<SettingsListener<SettingsSectionName>>) {
      try {
        await listener(next as never, previous as never);
      } catch (err) {
        this.log.error(`applying ${section} settings failed: ${errorMessage(err)}`);
      }
    }
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
