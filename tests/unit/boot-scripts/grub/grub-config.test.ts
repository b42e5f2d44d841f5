import { describe, expect, it } from 'vitest';
import type { BootProgram } from '../../../../src-main/boot-scripts/boot-program.js';
import { entryGrubConfig, GRUB_ENTRY_ATTEMPTS, renderGrubConfig, type GrubTarget } from '../../../../src-main/boot-scripts/grub/grub-config.js';
import { lintGrubConfig } from './grub-lint.js';

const target: GrubTarget = { serverIp: '10.9.0.1', bootUrl: 'http://10.9.0.1:8080/boot', cpu: 'x86_64', mac: '52:54:00:aa:bb:01' };

function render(program: BootProgram): string {
  const text = renderGrubConfig(program, target, 'why it boots this');
  expect(lintGrubConfig(text)).toEqual([]);
  return text;
}

describe('the GRUB entry configuration', () => {
  it("loads the machine's own configuration over TFTP by $grub_cpu and $net_default_mac, retrying, then gives up to the firmware", () => {
    const text = entryGrubConfig('10.9.0.1', 'kit-1');
    expect(lintGrubConfig(text)).toEqual([]);
    expect(text).toContain("set bw_server='(tftp,10.9.0.1)'");
    expect(text).toContain('configfile "${bw_server}/grub/host/${grub_cpu}/${net_default_mac}.cfg"');
    expect(text).toMatch(new RegExp(`for bw_try in 1 2 .* ${GRUB_ENTRY_ATTEMPTS}; do`));
    expect(text.trim().split('\n').at(-1)).toBe('exit');
  });
});

describe("a machine's GRUB configuration", () => {
  it('linux: kernel with quoted arguments and initrds over TFTP, then boot; a failed load says so and returns for a retry', () => {
    const text = render({
      kind: 'linux',
      label: 'profile "debian"',
      kernel: 'http://10.9.0.1:8080/boot/debian/linux',
      initrds: ['http://10.9.0.1:8080/boot/debian/initrd.gz', 'http://10.9.0.1:8080/boot/extra.cpio'],
      cmdline: 'auto=true priority=critical url=http://10.9.0.1:8080/a?b=$c',
    });
    expect(text).toContain("if linux '(tftp,10.9.0.1)/debian/linux' 'auto=true' 'priority=critical' 'url=http://10.9.0.1:8080/a?b=$c'; then");
    expect(text).toContain("  if initrd '(tftp,10.9.0.1)/debian/initrd.gz' '(tftp,10.9.0.1)/extra.cpio'; then");
    expect(text).toContain('    boot');
    expect(text).toMatch(/could not be loaded'\necho 'Retrying in 10 seconds...'\nsleep 10\n$/);
    expect(text.split('\n')[0]).toBe('# Bootwright: why it boots this');
  });

  it('linux without initrds boots after the kernel', () => {
    expect(render({ kind: 'linux', label: 'x', kernel: 'http://10.9.0.1:8080/boot/memtest.efi', initrds: [], cmdline: '' })).toContain("if linux '(tftp,10.9.0.1)/memtest.efi'; then\n  boot\nfi");
  });

  it('linux from another server, or with a quote in its command line, is a message, not a half-working boot', () => {
    const remote = render({ kind: 'linux', label: 'profile "remote"', kernel: 'http://deb.debian.org/linux', initrds: [], cmdline: '' });
    expect(remote).not.toContain('linux ');
    expect(remote).toContain('GRUB loads over TFTP only');
    const quoted = render({ kind: 'linux', label: 'profile "q"', kernel: 'http://10.9.0.1:8080/boot/linux', initrds: [], cmdline: 'a="b c"' });
    expect(quoted).not.toMatch(/^if linux/m);
    expect(quoted).toContain('double quote');
  });

  it('menu: one entry per profile and per section item, choices by path, local disk last and the default at the timeout', () => {
    const text = render({
      kind: 'menu',
      title: "Bootwright boot menu (kit's)",
      timeout_seconds: 10,
      default_profile_id: null,
      profiles: [{ profile_id: 3, label: 'Debian 12' }, { profile_id: 4, label: "O'Brien's tools" }],
      sections: [{ title: 'Netboot', items: [{ key: 'debian:12:x86_64', label: 'Debian 12 installer' }] }, { title: 'Empty', items: [] }],
    });
    expect(text).toContain('set timeout=10');
    expect(text).toContain('set default=local');
    expect(text).toContain("menuentry 'Debian 12' --id p3 {\n  configfile '(tftp,10.9.0.1)/grub/host/x86_64/52:54:00:aa:bb:01/profile-3.cfg'\n}");
    expect(text).toContain(`menuentry 'O'\\''Brien'\\''s tools' --id p4 {`);
    expect(text).toContain("submenu 'Netboot' {\n  menuentry 'Debian 12 installer' --id c1 {\n    configfile '(tftp,10.9.0.1)/grub/host/x86_64/52:54:00:aa:bb:01/choice-debian:12:x86_64.cfg'\n  }\n}");
    expect(text).not.toContain("'Empty'");
    expect(text.indexOf("menuentry 'Boot from the local disk'")).toBeGreaterThan(text.indexOf('submenu'));
  });

  it('menu: a default entry and no timeout', () => {
    const text = render({ kind: 'menu', title: 't', timeout_seconds: 0, default_profile_id: 4, profiles: [{ profile_id: 4, label: 'x' }], sections: [] });
    expect(text).toContain('set timeout=-1');
    expect(text).toContain('set default=p4');
  });

  it('local disk and messages: exit to the firmware, or return so the entry asks again', () => {
    expect(render({ kind: 'local', message: 'task 3 is done' })).toMatch(/'Booting from the local disk...'\nexit\n$/);
    expect(render({ kind: 'message', message: 'denied', retry: false })).toMatch(/sleep 10\nexit\n$/);
    expect(render({ kind: 'message', message: 'files missing', retry: true })).toMatch(/sleep 10\n$/);
  });

  it('what only iPXE runs: says why and what to change, and offers a retry or the local disk (no hand-over to iPXE)', () => {
    const text = render({ kind: 'ipxe_only', label: 'profile "hold"', reason: 'it is a hand-written iPXE script' });
    expect(text).toContain("profile \"hold\" needs iPXE: it is a hand-written iPXE script.'");
    expect(text).toContain("Set the host'\\''s boot loader to iPXE");
    expect(text).not.toContain('chainloader');
    expect(text).toContain("configfile '(tftp,10.9.0.1)/grub/host/x86_64/52:54:00:aa:bb:01.cfg'");
    expect(text).toContain('set default=local');
  });
});
