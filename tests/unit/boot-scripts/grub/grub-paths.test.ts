import { describe, expect, it } from 'vitest';
import { grubChoicePath, grubEntryChain, grubHostPath, ownsGrubPath, parseGrubHostPath } from '../../../../src-main/boot-scripts/grub/grub-paths.js';

describe('GRUB file paths', () => {
  it('knows each chain by the configuration path compiled into its GRUB', () => {
    expect(grubEntryChain('grub/grub.cfg')?.architecture).toBe('uefi_x64');
    expect(grubEntryChain('debian-installer/arm64/grub/grub.cfg')?.architecture).toBe('uefi_arm64');
    expect(grubEntryChain('grub/x86_64-efi/grub.cfg')).toBeNull();
    expect(grubEntryChain('ipxe/entry.ipxe')).toBeNull();
  });

  it("parses a machine's own path and its menu choices, and builds them back", () => {
    const mac = '52:54:00:aa:bb:01';
    expect(parseGrubHostPath(grubHostPath('x86_64', mac))).toEqual({ cpu: 'x86_64', mac, profileId: null, choice: null });
    expect(parseGrubHostPath(grubChoicePath('arm64', mac, { profile_id: 12 }))).toEqual({ cpu: 'arm64', mac, profileId: 12, choice: null });
    expect(parseGrubHostPath(grubChoicePath('x86_64', mac, { key: 'debian:12:x86_64' }))).toEqual({ cpu: 'x86_64', mac, profileId: null, choice: 'debian:12:x86_64' });
    // GRUB without a network MAC asks for ".cfg": parsed, and answered with a message by the service.
    expect(parseGrubHostPath('grub/host/x86_64/.cfg')).toEqual({ cpu: 'x86_64', mac: '', profileId: null, choice: null });
  });

  it('refuses anything else under grub/host/', () => {
    for (const path of [
      'grub/host/x86_64/52:54:00:aa:bb:01',
      'grub/host/X86/52:54:00:aa:bb:01.cfg',
      'grub/host/x86_64/52:54:00:aa:bb:01/profile-0.cfg',
      'grub/host/x86_64/52:54:00:aa:bb:01/profile-1x.cfg',
      'grub/host/x86_64/52:54:00:aa:bb:01/choice-a b.cfg',
      'grub/host/x86_64/52:54:00:aa:bb:01/other.cfg',
      'grub/host/x86_64/a/b/c.cfg',
      'grub/host/x86_64/not a mac.cfg',
      'grub/hostx/x86_64/52:54:00:aa:bb:01.cfg',
    ]) {
      expect(parseGrubHostPath(path), path).toBeNull();
    }
    expect(ownsGrubPath('grub/grub.cfg')).toBe(true);
    expect(ownsGrubPath('grub/font.pf2')).toBe(false);
  });
});
