import { describe, expect, it } from 'vitest';
import { bootLoaderPolicy, chooseLoader } from '../../../src-main/boot-scripts/boot-loader-policy.js';
import { previewLoader } from '../../../src-main/boot-scripts/loader-preview.js';
import type { Host } from '../../../src-main/hosts/host-types.js';
import type { BootLoaders } from '../../../src-main/settings/settings-contract.js';

const loaders: BootLoaders = { uefi_x64: 'grub', uefi_arm64: 'grub', groups: { Lab: 'ipxe' } };

function host(fields: Partial<Host>): Host {
  return {
    id: 1, mac: '52:54:00:00:00:01', hostname: null, ip: null, profile_id: null, group: null, tags: [], description: '', arch: null, platform: null,
    enabled: true, boot_loader: null, discovered: false, last_boot_at: null, last_seen_ip: null, created_at: '', updated_at: '', ...fields,
  };
}

describe('which loader a UEFI machine gets', () => {
  it('host, then group (case-insensitively), then the architecture default', () => {
    expect(chooseLoader(undefined, 'uefi_x64', loaders)).toEqual({ loader: 'grub', source: 'architecture' });
    expect(chooseLoader(host({ group: 'lab' }), 'uefi_x64', loaders)).toEqual({ loader: 'ipxe', source: 'group' });
    expect(chooseLoader(host({ group: 'lab', boot_loader: 'grub' }), 'uefi_x64', loaders)).toEqual({ loader: 'grub', source: 'host' });
    expect(chooseLoader(host({ group: 'other' }), 'uefi_arm64', { ...loaders, uefi_arm64: 'ipxe' })).toEqual({ loader: 'ipxe', source: 'architecture' });
  });

  it('DHCP asks by MAC; settings are read at each call', () => {
    let current = loaders;
    const policy = bootLoaderPolicy({ findHost: (mac) => (mac === '52:54:00:00:00:01' ? host({ boot_loader: 'ipxe' }) : undefined), loaders: () => current });
    expect(policy.choose('52:54:00:00:00:01', 'uefi_x64').loader).toBe('ipxe');
    expect(policy.choose('52:54:00:00:00:02', 'uefi_x64').loader).toBe('grub');
    current = { ...loaders, uefi_x64: 'ipxe' };
    expect(policy.choose('52:54:00:00:00:02', 'uefi_x64')).toEqual({ loader: 'ipxe', source: 'architecture' });
  });
});

describe('the loader the preview shows', () => {
  const archmapFile = (code: number) => ({ 0: 'undionly.kpxe', 7: 'ipxe.efi', 11: 'ipxe-arm64.efi' })[code] ?? null;
  const deps = { loaders, reservationBootFile: null, archmapFile };

  it('names the first stage DHCP hands out and why', () => {
    expect(previewLoader(host({ arch: 'x86_64', platform: 'efi' }), deps)).toMatchObject({ kind: 'grub', architecture: 'uefi_x64', first_stage: 'shimx64.efi', source: 'architecture' });
    expect(previewLoader(host({ arch: 'arm64', platform: 'efi' }), deps)).toMatchObject({ kind: 'grub', architecture: 'uefi_arm64', first_stage: 'shimaa64.efi' });
    expect(previewLoader(host({ arch: 'x86_64', platform: 'efi', group: 'LAB' }), deps)).toMatchObject({ kind: 'ipxe', first_stage: 'ipxe.efi', source: 'group' });
    expect(previewLoader(host({ arch: 'i386', platform: 'pcbios' }), deps)).toMatchObject({ kind: 'ipxe', architecture: 'bios', first_stage: 'undionly.kpxe', source: 'fixed' });
    expect(previewLoader(host({ arch: 'x86_64', platform: 'efi' }), { ...deps, reservationBootFile: 'my.efi' })).toMatchObject({ kind: 'ipxe', first_stage: 'my.efi', source: 'reservation' });
  });

  it('a machine not seen yet is shown as x64 UEFI, and says so', () => {
    const preview = previewLoader(host({}), deps);
    expect(preview).toMatchObject({ kind: 'grub', architecture: null, first_stage: 'shimx64.efi' });
    expect(preview.reason_text).toContain('not known until it boots');
  });
});
