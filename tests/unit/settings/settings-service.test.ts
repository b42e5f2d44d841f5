import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../src-main/core/errors.js';
import { LogSink } from '../../../src-main/core/logger.js';
import { EventLog } from '../../../src-main/events/event-log.js';
import { SettingsService } from '../../../src-main/settings/settings-service.js';
import { Store } from '../../../src-main/store/store.js';
import { tempDir } from '../../helpers/test-core.js';

describe('SettingsService', () => {
  let dataDir: string;
  let remove: () => Promise<void>;
  let store: Store;
  let events: EventLog;
  let settings: SettingsService;
  const log = new LogSink({ logDir: null, level: 'error', console: false }).logger();

  beforeEach(async () => {
    ({ dir: dataDir, remove } = await tempDir());
    store = await Store.open({ dataDir });
    events = new EventLog(store);
    settings = new SettingsService({ store, events, log, defaults: { logLevel: 'warn' } });
  });

  afterEach(async () => {
    await store.close();
    await remove();
  });

  it('returns the defaults, the log level from the process configuration', () => {
    expect(settings.all()).toEqual({
      general: { server_name: 'bootwright', update_feed_url: null, allowed_hosts: [] },
      interfaces: { served: 'auto', server_addresses: [] },
      netboot: {
        default_action: 'menu',
        default_profile_id: null,
        menu_timeout_seconds: 10,
        record_unknown_hosts: true,
        cache_max_mb: 20480,
        offline: false,
        download_timeout_seconds: 30,
        http_proxy: null,
        task_expiry_minutes: 1440,
        boot_loaders: { uefi_x64: 'grub', uefi_arm64: 'grub', groups: {} },
      },
      logging: { level: 'warn', event_retention_count: 20000, event_retention_days: 30, audit_retention_days: 90 },
    });
  });

  it('merges a patch, stores it durably and tells subscribers of that section only', async () => {
    const general = vi.fn();
    const netboot = vi.fn();
    settings.onChange('general', general);
    settings.onChange('netboot', netboot);
    await settings.update({ general: { server_name: 'pxe1' } });
    expect(settings.general()).toEqual({ server_name: 'pxe1', update_feed_url: null, allowed_hosts: [] });
    expect(general).toHaveBeenCalledWith(
      { server_name: 'pxe1', update_feed_url: null, allowed_hosts: [] },
      { server_name: 'bootwright', update_feed_url: null, allowed_hosts: [] },
    );
    expect(netboot).not.toHaveBeenCalled();

    await store.close();
    store = await Store.open({ dataDir });
    const reopened = new SettingsService({ store, events: new EventLog(store), log, defaults: { logLevel: 'warn' } });
    expect(reopened.general().server_name).toBe('pxe1');
  });

  it('changes nothing when any section is invalid', async () => {
    const listener = vi.fn();
    settings.onChange('general', listener);
    const error = await settings
      .update({ general: { server_name: 'pxe2' }, netboot: { default_action: 'profile' } }, { fieldPrefix: (s) => `body.${s}` })
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('VALIDATION_FAILED');
    expect((error as AppError).details).toEqual([{ field: 'body.netboot.default_profile_id', message: 'is required when default_action is "profile"' }]);
    expect(settings.general().server_name).toBe('bootwright');
    expect(listener).not.toHaveBeenCalled();
  });

  it('emits settings.changed with the section names and no values', async () => {
    await settings.update({ general: { server_name: 'pxe3' }, logging: { level: 'debug' }, netboot: {} });
    const changed = events.all().filter((e) => e.kind === 'settings.changed');
    expect(changed).toHaveLength(1);
    expect(changed[0]?.detail).toEqual({ sections: ['general', 'logging'] });
    expect(changed[0]?.message).not.toContain('pxe3');
  });

  it('writes nothing and emits nothing when the patch changes nothing', async () => {
    await settings.update({ general: { server_name: 'bootwright' } });
    expect(events.all().filter((e) => e.kind === 'settings.changed')).toHaveLength(0);
  });

  it('keeps going when a subscriber throws', async () => {
    const after = vi.fn();
    settings.onChange('logging', () => {
      throw new Error('listener broke');
    });
    settings.onChange('logging', after);
    await settings.update({ logging: { level: 'error' } });
    expect(after).toHaveBeenCalled();
    expect(settings.logging().level).toBe('error');
  });

  it('serialises concurrent updates', async () => {
    await Promise.all([
      settings.update({ general: { server_name: 'one' } }),
      settings.update({ general: { allowed_hosts: ['pxe.example'] } }),
    ]);
    expect(settings.general()).toMatchObject({ server_name: 'one', allowed_hosts: ['pxe.example'] });
  });

  it('names the admin-only fields a patch would change', async () => {
    expect(settings.adminFieldsChanged({ general: { allowed_hosts: [], server_name: 'x' }, logging: { level: 'debug' } })).toEqual([]);
    expect(
      settings.adminFieldsChanged({ general: { allowed_hosts: ['a.example'], update_feed_url: null }, logging: { audit_retention_days: 10 } }),
    ).toEqual(['general.allowed_hosts', 'logging.audit_retention_days']);
  });
});
