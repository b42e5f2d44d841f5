import { describe, expect, it } from 'vitest';
import { mentionsImage, overlayUsers, profileUsers, taskUsers, usageDetails } from '../../../src-main/os-images/image-usage.js';
import type { Detection } from '../../../src-main/os-images/os-images-contract.js';

describe('image usage', () => {
  it('recognises the mount, the ISO URL and the extraction folder as path segments', () => {
    expect(mentionsImage('iso/deb/casper/vmlinuz', 'deb')).toBe(true);
    expect(mentionsImage('http://10.0.0.1:8080/boot/iso/deb.iso', 'deb')).toBe(true);
    expect(mentionsImage('images/deb/linux', 'deb')).toBe(true);
    expect(mentionsImage('"iso/deb/x"', 'deb')).toBe(true);
    expect(mentionsImage('iso/debian/x', 'deb')).toBe(false);
    expect(mentionsImage('iso/deb.isolinux', 'deb')).toBe(false);
    expect(mentionsImage('myiso/deb/x', 'deb')).toBe(false);
    expect(mentionsImage('iso/d.b/x', 'd.b')).toBe(true);
    expect(mentionsImage('iso/dxb/x', 'd.b')).toBe(false);
  });

  it('names profiles, overlays and tasks that use an image', () => {
    const profiles = [
      { id: 1, name: 'ISO boot', boot_type: 'linux', linux: { kernel: 'iso/deb/casper/vmlinuz', initrds: [] } },
      { id: 2, name: 'iso/deb/ in the name only', boot_type: 'exit' },
    ];
    expect(profileUsers(profiles, 'deb')).toEqual([{ kind: 'profile', label: 'profile 1 (ISO boot)' }]);
    expect(overlayUsers([{ distro: 'debian', versions: [{ kernel: 'images/deb/linux' }] } as { distro: string }], 'deb')).toHaveLength(1);
    const detection = { catalog_entry: { distro: 'debian', version: '12', arch: 'x86_64' } } as Detection;
    const tasks = [
      { id: 7, mac: '52:54:00:00:00:01', distro: 'debian', version: '12', arch: 'x86_64' },
      { id: 8, mac: '52:54:00:00:00:02', distro: 'debian', version: '13', arch: 'x86_64' },
    ];
    const users = taskUsers(tasks, { detection });
    expect(users.map((user) => user.label)).toEqual([expect.stringContaining('install task 7')]);
    expect(taskUsers(tasks, { detection: null })).toEqual([]);
    expect(usageDetails(users)).toEqual([{ field: 'task', message: users[0]?.label }]);
  });
});
