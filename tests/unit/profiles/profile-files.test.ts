import { describe, expect, it } from 'vitest';
import type { BootFilePresence } from '../../../src-main/boot-files/boot-files.js';
import { fileState, missingFileWarnings, profileFileRefs } from '../../../src-main/profiles/profile-files.js';

describe('profile files', () => {
  it('names the kernel and initrds of linux, the URL of chain and sanboot, nothing for the others', () => {
    expect(profileFileRefs({ boot_type: 'linux', linux: { kernel: 'k', initrds: ['a', 'b'], cmdline: '' }, chain: null, sanboot: null })).toEqual([
      { field: 'linux.kernel', path: 'k' },
      { field: 'linux.initrds[0]', path: 'a' },
      { field: 'linux.initrds[1]', path: 'b' },
    ]);
    expect(profileFileRefs({ boot_type: 'sanboot', linux: null, chain: null, sanboot: { url: 'img.iso' } })).toEqual([{ field: 'sanboot.url', path: 'img.iso' }]);
    expect(profileFileRefs({ boot_type: 'local', linux: null, chain: null, sanboot: null })).toEqual([]);
  });

  it('asks the boot root only about plain paths', async () => {
    const asked: string[] = [];
    const presence = async (path: string): Promise<BootFilePresence> => {
      asked.push(path);
      return path === 'here' ? 'file' : path === 'netboot/x' ? 'virtual' : 'missing';
    };
    expect(await fileState('here', presence)).toBe('present');
    expect(await fileState('netboot/x', presence)).toBe('served');
    expect(await fileState('gone', presence)).toBe('missing');
    expect(await fileState('http://mirror/linux', presence)).toBe('remote');
    expect(await fileState('{{ server.boot_url }}/x', presence)).toBe('templated');
    expect(await fileState('${base}/x', presence)).toBe('templated');
    expect(asked).toEqual(['here', 'netboot/x', 'gone']);
  });

  it('warns about missing and refused files only', () => {
    const base = { profile_id: 1, profile_name: 'p', field: 'linux.kernel' };
    const warnings = missingFileWarnings(
      [
        { ...base, path: 'a', state: 'missing' },
        { ...base, path: 'b', state: 'present' },
        { ...base, path: 'c', state: 'refused' },
        { ...base, path: 'd', state: 'remote' },
      ],
      '/data/boot',
    );
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('a does not exist in the boot root (/data/boot)');
    expect(warnings[1]).toContain('outside the boot root');
  });
});
