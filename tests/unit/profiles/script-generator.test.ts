import { describe, expect, it } from 'vitest';
import { IDENTITY_QUERY } from '../../../src-main/profiles/ipxe-syntax.js';
import { bootUrl, generateScript, menuScript } from '../../../src-main/profiles/script-generator.js';
import { lintIpxeScript } from '../boot-scripts/ipxe-lint.js';

const none = { linux: null, chain: null, sanboot: null, menu: null };

describe('generated scripts', () => {
  it('linux: kernel with named initrds and the command line, then boot', () => {
    const script = generateScript({ ...none, boot_type: 'linux', linux: { kernel: '/debian/linux', initrds: ['debian/initrd.gz', 'https://m.example/fw.cpio'], cmdline: 'quiet' } });
    expect(script.split('\n').slice(2)).toEqual([
      'kernel {{ server.boot_url }}/debian/linux initrd=initrd0 initrd=initrd1 quiet',
      'initrd --name initrd0 {{ server.boot_url }}/debian/initrd.gz',
      'initrd --name initrd1 https://m.example/fw.cpio',
      'boot',
      '',
    ]);
    expect(generateScript({ ...none, boot_type: 'linux', linux: { kernel: 'k', initrds: [], cmdline: '' } })).toContain('\nkernel {{ server.boot_url }}/k\nboot\n');
  });

  it('menu with other areas\' sections: headings as gaps, numbered choices that chain with choice=<key>, the local disk last', () => {
    const script = menuScript(
      { title: 'Boot', entries: [{ profile_id: 3, label: 'Debian' }], default_entry: null, timeout_seconds: 0 },
      '#!ipxe',
      [
        { title: 'Linux installers', items: [{ key: 'debian:12:x86_64', label: 'Debian 12' }] },
        { title: 'Empty', items: [] },
        { title: 'Utilities', items: [{ key: 'memtest:7:x86_64', label: 'Memtest86+ 7' }] },
      ],
    );
    expect(script).toContain('menu Boot\nitem p3 Debian\nitem --gap -- Linux installers\nitem c1 Debian 12\nitem --gap -- Utilities\nitem c2 Memtest86+ 7\nitem local Boot from the local disk\n');
    expect(script).toContain(':c2\nchain --autofree {{ server.script_url }}?' + IDENTITY_QUERY + '&choice=memtest:7:x86_64 || goto bw-failed\nexit 0\n');
    expect(script).not.toContain('Empty');
    expect(lintIpxeScript(script)).toEqual([]);
  });

  it('chain, sanboot and local', () => {
    expect(generateScript({ ...none, boot_type: 'chain', chain: { url: 'tftp://10.0.0.1/x.efi' } })).toContain('\nchain --autofree tftp://10.0.0.1/x.efi\n');
    expect(generateScript({ ...none, boot_type: 'sanboot', sanboot: { url: 'iso/x.iso' } })).toContain('\nsanboot --no-describe {{ server.boot_url }}/iso/x.iso\n');
    expect(generateScript({ ...none, boot_type: 'local' })).toMatch(/\nexit 0\n$/);
  });

  it('menu: items, default, timeout and a way back to the menu; every script is well-formed iPXE', () => {
    const script = generateScript({
      ...none,
      boot_type: 'menu',
      menu: { title: 'Lab', entries: [{ profile_id: 3, label: 'Debian' }, { profile_id: 8, label: 'Memtest' }], default_entry: 8, timeout_seconds: 15 },
    });
    expect(script).toContain('menu Lab\nitem p3 Debian\nitem p8 Memtest\nitem local Boot from the local disk\n');
    expect(script).toContain('choose --timeout 15000 --default p8 bw-choice || goto local');
    expect(script).toContain(':p3\nchain --autofree {{ server.script_url }}?mac=${mac}&arch=${buildarch:uristring}&platform=${platform:uristring}&uuid=${uuid}&serial=${serial:uristring}&profile=3 || goto bw-failed\n');
    for (const generated of [
      script,
      generateScript({ ...none, boot_type: 'linux', linux: { kernel: 'k', initrds: ['i'], cmdline: 'c' } }),
      generateScript({ ...none, boot_type: 'chain', chain: { url: 'http://x/' } }),
      generateScript({ ...none, boot_type: 'sanboot', sanboot: { url: 'http://x/' } }),
      generateScript({ ...none, boot_type: 'local' }),
    ]) {
      expect(lintIpxeScript(generated)).toEqual([]);
    }
  });

  it('bootUrl keeps absolute URLs and roots paths under the boot URL', () => {
    expect(bootUrl('http://a/b')).toBe('http://a/b');
    expect(bootUrl('TFTP://a/b')).toBe('TFTP://a/b');
    expect(bootUrl('//x/y')).toBe('{{ server.boot_url }}/x/y');
    expect(bootUrl('images/{{ variables.os }}/linux')).toBe('{{ server.boot_url }}/images/{{ variables.os }}/linux');
  });
});
