import { describe, expect, it } from 'vitest';
import { applyMenuChoice, decideBoot, type ProfileDirectory } from '../../../src-main/boot-scripts/boot-resolver.js';
import type { Host } from '../../../src-main/hosts/host-types.js';
import type { Profile } from '../../../src-main/profiles/profile-types.js';
import { settingsDefaults, type NetbootSettings } from '../../../src-main/settings/settings-contract.js';

function profile(id: number, name: string, extra: Partial<Profile> = {}): Profile {
  return {
    id, name, description: '', boot_type: 'local', script: '#!ipxe\nexit 0\n', linux: null, chain: null, sanboot: null, menu: null,
    variables: {}, default_for_groups: [], script_version: 1, created_at: '', updated_at: '', ...extra,
  };
}

function host(extra: Partial<Host> = {}): Host {
  return {
    id: 9, mac: '52:54:00:00:00:09', hostname: null, ip: null, profile_id: null, group: null, tags: [], description: '', arch: null,
    platform: null, enabled: true, boot_loader: null, discovered: false, last_boot_at: null, last_seen_ip: null, created_at: '', updated_at: '', ...extra,
  };
}

const rows = [
  profile(1, 'Assigned'),
  profile(2, 'Group default', { default_for_groups: ['Lab'] }),
  profile(3, 'Global default'),
  profile(4, 'Inner menu', { boot_type: 'menu', menu: { title: 't', entries: [{ profile_id: 5, label: 'Deep' }], default_entry: null, timeout_seconds: 0 } }),
  profile(5, 'Deep'),
  profile(6, 'Outer menu', { boot_type: 'menu', menu: { title: 't', entries: [{ profile_id: 4, label: 'Inner' }], default_entry: null, timeout_seconds: 0 } }),
];
const directory: ProfileDirectory = {
  get: (id) => rows.find((row) => row.id === id),
  all: () => rows,
  defaultForGroup: (group) => rows.find((row) => row.default_for_groups.some((g) => g.toLowerCase() === group.toLowerCase())),
};
const menu: NetbootSettings = settingsDefaults({ logLevel: 'info' }).netboot;

describe('decideBoot', () => {
  it('follows host assignment, then group default, then the netboot default', () => {
    expect(decideBoot(host({ profile_id: 1, group: 'lab' }), directory, menu)).toMatchObject({ action: 'profile', reason: 'host_assignment', profile: { id: 1 } });
    expect(decideBoot(host({ group: 'LAB' }), directory, menu)).toMatchObject({ action: 'profile', reason: 'group_default', profile: { id: 2 } });
    expect(decideBoot(host({ group: 'elsewhere' }), directory, menu)).toMatchObject({ action: 'menu', reason: 'global_default', profile: null });
    expect(decideBoot(null, directory, { ...menu, default_action: 'local' })).toMatchObject({ action: 'local', reason: 'global_default' });
    expect(decideBoot(null, directory, { ...menu, default_action: 'profile', default_profile_id: 3 })).toMatchObject({ action: 'profile', reason: 'global_default', profile: { id: 3 } });
  });

  it('boots a disabled host locally whatever its profile', () => {
    expect(decideBoot(host({ profile_id: 1, enabled: false }), directory, menu)).toMatchObject({ action: 'local', reason: 'host_disabled' });
  });

  it('shows the menu, saying why, when the default profile is gone; a missing host profile falls through', () => {
    const missing = decideBoot(null, directory, { ...menu, default_action: 'profile', default_profile_id: 99 });
    expect(missing).toMatchObject({ action: 'menu', reason: 'global_default' });
    expect(missing.reason_text).toContain('profile 99 does not exist');
    expect(decideBoot(host({ profile_id: 99, group: 'lab' }), directory, menu)).toMatchObject({ reason: 'group_default' });
  });
});

describe('applyMenuChoice', () => {
  const outer = decideBoot(host({ profile_id: 6 }), directory, menu);

  it('honours a choice the menu offers, through nested menus', () => {
    expect(applyMenuChoice(outer, 4, directory)).toMatchObject({ action: 'profile', reason: 'menu_choice', profile: { id: 4 } });
    expect(applyMenuChoice(outer, 5, directory)).toMatchObject({ profile: { id: 5 } });
  });

  it('refuses choices the menu does not offer', () => {
    expect(applyMenuChoice(outer, 1, directory)).toBeNull();
    expect(applyMenuChoice(outer, 99, directory)).toBeNull();
    expect(applyMenuChoice(decideBoot(host({ profile_id: 1 }), directory, menu), 1, directory)).toBeNull();
  });

  it('lets the global menu offer every profile', () => {
    expect(applyMenuChoice(decideBoot(null, directory, menu), 3, directory)).toMatchObject({ profile: { id: 3 } });
  });
});
