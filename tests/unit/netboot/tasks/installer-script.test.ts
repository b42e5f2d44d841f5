import { describe, expect, it } from 'vitest';
import { installerScript, servedFileUrl, unsupportedFirmwareScript } from '../../../../src-main/netboot/tasks/installer-script.js';
import { lintIpxeScript } from '../../boot-scripts/ipxe-lint.js';

const BOOT = 'http://192.0.2.1:8080/boot';
const file = (role: 'kernel' | 'initrd', name: string, dir = 'netboot/debian/12/x86_64') => ({ role, name, served_path: `${dir}/${name}` });

describe('installer scripts', () => {
  it('linux: kernel with initrd= names, one named initrd each, the command line, boot; failures retry through the entry script', () => {
    const script = installerScript({
      taskId: 12,
      label: 'Debian 12 (x86_64)',
      loader: 'linux',
      files: [file('kernel', 'linux'), file('initrd', 'initrd.gz'), file('initrd', 'firmware.cpio.gz')],
      bootUrl: BOOT,
      cmdline: 'auto=true priority=critical preseed/url=http://192.0.2.1:8080/api/v1/netboot/answer/12?token=abc --- quiet',
    });
    expect(lintIpxeScript(script)).toEqual([]);
    expect(script.split('\n')[0]).toBe('#!ipxe');
    expect(script).toContain(
      `kernel ${BOOT}/netboot/debian/12/x86_64/linux initrd=initrd.gz initrd=firmware.cpio.gz auto=true priority=critical preseed/url=http://192.0.2.1:8080/api/v1/netboot/answer/12?token=abc --- quiet || goto bw-failed`,
    );
    expect(script).toContain(`initrd --name initrd.gz ${BOOT}/netboot/debian/12/x86_64/initrd.gz || goto bw-failed`);
    expect(script).toContain(`initrd --name firmware.cpio.gz ${BOOT}/netboot/debian/12/x86_64/firmware.cpio.gz || goto bw-failed`);
    expect(script).toMatch(/boot \|\| goto bw-failed\n:bw-failed\n.*\nsleep 10\nexit 1\n$/);
    expect(script).toContain('echo Bootwright: install task 12, Debian 12 (x86_64)');
  });

  it('wimboot: wimboot as the kernel, every other file a named initrd, no initrd= arguments', () => {
    const dir = 'netboot/winpe/11/x86_64';
    const script = installerScript({
      taskId: 3,
      label: 'Windows PE 11 (x86_64)',
      loader: 'wimboot',
      files: [file('kernel', 'wimboot', dir), file('initrd', 'bootmgr', dir), file('initrd', 'BCD', dir), file('initrd', 'boot.sdi', dir), file('initrd', 'boot.wim', dir)],
      bootUrl: BOOT,
      cmdline: '',
    });
    expect(lintIpxeScript(script)).toEqual([]);
    expect(script).toContain(`kernel ${BOOT}/${dir}/wimboot || goto bw-failed`);
    for (const name of ['bootmgr', 'BCD', 'boot.sdi', 'boot.wim']) expect(script).toContain(`initrd --name ${name} ${BOOT}/${dir}/${name} || goto bw-failed`);
    expect(script).not.toContain('initrd=');
  });

  it('efi and multiboot: the single image with its command line', () => {
    for (const loader of ['efi', 'multiboot'] as const) {
      const script = installerScript({ taskId: 4, label: 'Memtest86+ 7 (x86_64)', loader, files: [file('kernel', 'memtest64.efi')], bootUrl: BOOT, cmdline: 'console=ttyS0' });
      expect(lintIpxeScript(script)).toEqual([]);
      expect(script).toContain(`kernel ${BOOT}/netboot/debian/12/x86_64/memtest64.efi console=ttyS0 || goto bw-failed`);
      expect(script).not.toContain('initrd');
    }
  });

  it('escapes the command line for iPXE and puts the settings it needs before the kernel line', () => {
    const script = installerScript({ taskId: 5, label: 'X', loader: 'linux', files: [file('kernel', 'linux')], bootUrl: BOOT, cmdline: 'a ; b\nc' });
    const lines = script.split('\n');
    const setAt = lines.indexOf('set bw-c3b:hex 3b');
    const kernelAt = lines.findIndex((line) => line.startsWith('kernel '));
    expect(setAt).toBeGreaterThan(0);
    expect(setAt).toBeLessThan(kernelAt);
    expect(lines[kernelAt]).toContain('linux a ${bw-c3b:string} b c || goto bw-failed');
    expect(lintIpxeScript(script)).toEqual([]);
  });

  it('gives initrds with names iPXE or the kernel cannot carry a generated name, and percent-encodes URLs', () => {
    const script = installerScript({
      taskId: 6,
      label: 'X',
      loader: 'linux',
      files: [file('kernel', 'linux', 'netboot/x/1/x86_64'), { role: 'initrd', name: 'my initrd#1', served_path: 'netboot/x/1/x86_64/my initrd#1' }],
      bootUrl: BOOT,
      cmdline: '',
    });
    expect(script).toContain(`initrd --name initrd0 ${BOOT}/netboot/x/1/x86_64/my%20initrd%231 || goto bw-failed`);
    expect(script).toContain('initrd=initrd0 ||');
    expect(servedFileUrl(`${BOOT}/`, 'a/${b}')).toBe(`${BOOT}/a/%24%7Bb%7D`);
  });

  it('refuses a command line iPXE would expand', () => {
    expect(() => installerScript({ taskId: 7, label: 'X', loader: 'linux', files: [file('kernel', 'linux')], bootUrl: BOOT, cmdline: 'x=${net0/ip}' })).toThrow(/expands as a setting/);
  });

  it('says why a machine in the wrong firmware mode does not install, and hands it back to its firmware', () => {
    const script = unsupportedFirmwareScript(8, 'Ubuntu 24.04 (x86_64) does not boot with legacy BIOS (supports uefi)');
    expect(lintIpxeScript(script)).toEqual([]);
    expect(script).toContain('does not boot with legacy BIOS (supports uefi)');
    expect(script).toMatch(/exit 0\n$/);
  });
});
