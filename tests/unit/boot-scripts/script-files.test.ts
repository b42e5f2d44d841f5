import { describe, expect, it } from 'vitest';
import { expandSettings, scriptFiles } from '../../../src-main/boot-scripts/script-files.js';

describe('scriptFiles', () => {
  it('lists the first argument of the commands that fetch images, skipping options', () => {
    const script = [
      '#!ipxe',
      '# kernel http://commented.out/',
      ':label',
      'kernel http://s/boot/linux initrd=initrd0 quiet',
      'initrd --name initrd0 http://s/boot/initrd.gz',
      'imgfetch -n extra tftp://s/extra.img',
      'chain --autofree --replace http://s/next.ipxe || goto failed',
      'isset ${x} && sanboot --no-describe --drive 0x80 http://s/disk.iso ||',
      'echo kernel http://not-a-command/',
      'boot',
    ].join('\n');
    expect(scriptFiles(script)).toEqual([
      { command: 'kernel', url: 'http://s/boot/linux' },
      { command: 'initrd', url: 'http://s/boot/initrd.gz' },
      { command: 'imgfetch', url: 'tftp://s/extra.img' },
      { command: 'chain', url: 'http://s/next.ipxe' },
      { command: 'sanboot', url: 'http://s/disk.iso' },
    ]);
  });

  it('expands the settings it knows, URL-encoding :uristring, and leaves the rest', () => {
    expect(expandSettings('u?mac=${mac:uristring}&a=${buildarch}&s=${serial:uristring}&p=${platform}', { mac: '52:54:00:00:00:01', buildarch: 'x86_64', platform: null })).toBe(
      'u?mac=52%3A54%3A00%3A00%3A00%3A01&a=x86_64&s=${serial:uristring}&p=${platform}',
    );
  });

  it('stops at a bounded number of files', () => {
    expect(scriptFiles(`#!ipxe\n${'kernel http://x/\n'.repeat(1000)}`)).toHaveLength(256);
  });
});
