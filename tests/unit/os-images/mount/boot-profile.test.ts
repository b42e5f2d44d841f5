import { describe, expect, it } from 'vitest';
import { isAppError } from '../../../../src-main/core/errors.js';
import type { Detection, OsImage } from '../../../../src-main/os-images/os-images-contract.js';
import { defaultProfileName, planBootProfile, renderNetbootCmdline } from '../../../../src-main/os-images/mount/boot-profile.js';

function detection(overrides: Partial<Detection> = {}): Detection {
  return {
    family: 'debian',
    distro: 'Debian GNU/Linux',
    version: '12.5.0',
    arch: 'amd64',
    boot_method: 'linux',
    kernel: 'install.amd/vmlinuz',
    initrds: ['install.amd/initrd.gz'],
    iso_cmdline: 'vga=788 --- quiet',
    netboot_cmdline: 'priority=low   url={{ iso_url }} repo={{image_url}}/dists',
    boot_wim: null,
    efi_loaders: [],
    catalog_entry: null,
    evidence: ['.disk/info'],
    notes: ['from detection'],
    ...overrides,
  };
}

function image(overrides: Partial<OsImage> = {}): OsImage {
  return {
    id: 3,
    name: 'Debian 12',
    slug: 'debian-12',
    description: '',
    file_name: 'debian-12.iso',
    path: '/data/images/debian-12.iso',
    size: 1000,
    sha256: null,
    source: 'upload',
    state: 'ready',
    error: null,
    iso: null,
    detection: detection(),
    extracted: null,
    mounted: null,
    created_at: '2024-01-01T00:00:00.000Z',
    updated_at: '2024-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function refusal(run: () => unknown): { code: string; message: string } | null {
  try {
    run();
    return null;
  } catch (err) {
    return isAppError(err) ? { code: err.code, message: err.message } : { code: 'not an AppError', message: String(err) };
  }
}

describe('boot this ISO: the profile plan', () => {
  it('renders the detection\'s placeholders as per-client URLs of the mount (server.boot_url, never a fixed address)', () => {
    expect(renderNetbootCmdline('url={{ iso_url }} repo={{image_url}}/x  y', 'deb')).toBe('url={{ server.boot_url }}/iso/deb.iso repo={{ server.boot_url }}/iso/deb/x y');
  });

  it('makes a linux profile with the kernel and initrds under iso/<slug>/', () => {
    const plan = planBootProfile(image(), { name: 'ISO debian-12', wimboot: null });
    expect(plan.input).toMatchObject({
      name: 'ISO debian-12',
      boot_type: 'linux',
      linux: {
        kernel: 'iso/debian-12/install.amd/vmlinuz',
        initrds: ['iso/debian-12/install.amd/initrd.gz'],
        cmdline: 'priority=low url={{ server.boot_url }}/iso/debian-12.iso repo={{ server.boot_url }}/iso/debian-12/dists',
      },
    });
    expect(plan.notes).toContain('from detection');
  });

  it('makes a sanboot profile with the ISO file for sanboot images, saying BIOS only', () => {
    const plan = planBootProfile(image({ detection: detection({ boot_method: 'sanboot', kernel: null, initrds: [] }) }), { name: 'x', wimboot: null });
    expect(plan.input).toMatchObject({ boot_type: 'sanboot', sanboot: { url: 'iso/debian-12.iso' } });
    expect(plan.notes.join(' ')).toMatch(/BIOS machines only/);
  });

  it('refuses Windows clearly without wimboot, and uses it with the image\'s boot files when present', () => {
    const windows = image({ slug: 'win11', detection: detection({ family: 'windows', boot_method: 'windows', kernel: null, initrds: [], boot_wim: 'sources/boot.wim' }) });
    const refused = refusal(() => planBootProfile(windows, { name: 'x', wimboot: null }));
    expect(refused?.code).toBe('INVALID_STATE');
    expect(refused?.message).toMatch(/wimboot.*not bundle/);
    const plan = planBootProfile(windows, { name: 'x', wimboot: 'wimboot' });
    expect(plan.input.boot_type).toBe('ipxe_script');
    expect(plan.input.script).toContain('kernel {{ server.boot_url }}/wimboot');
    expect(plan.input.script).toContain('initrd --name boot.wim {{ server.boot_url }}/iso/win11/sources/boot.wim boot.wim');
  });

  it('refuses an undetected image, one with nothing bootable and a linux one without a kernel', () => {
    expect(refusal(() => planBootProfile(image({ detection: null }), { name: 'x', wimboot: null }))?.code).toBe('INVALID_STATE');
    expect(refusal(() => planBootProfile(image({ detection: detection({ boot_method: 'none' }) }), { name: 'x', wimboot: null }))?.code).toBe('INVALID_STATE');
    expect(refusal(() => planBootProfile(image({ detection: detection({ kernel: null }) }), { name: 'x', wimboot: null }))?.code).toBe('INVALID_STATE');
  });

  it('names the profile after the slug, within the profile name limit', () => {
    expect(defaultProfileName({ slug: 'debian-12' })).toBe('ISO debian-12');
    expect(defaultProfileName({ slug: 'a'.repeat(64) }).length).toBe(64);
  });
});
