import { describe, expect, it } from 'vitest';
import type { BootDecision } from '../../../../src-main/boot-scripts/boot-resolver.js';
import { effectiveBoot } from '../../../../src-main/boot-scripts/effective-boot.js';
import { hostLifecycle } from '../../../../src-main/hosts/host-lifecycle.js';
import type { Host } from '../../../../src-main/hosts/host-types.js';
import { hostBootSummary } from '../../../../src-main/netboot/tasks/host-boot-summary.js';
import type { TaskRow } from '../../../../src-main/netboot/tasks/task-types.js';
import type { Profile } from '../../../../src-main/profiles/profile-types.js';

const host: Host = {
  id: 3, mac: '52:54:00:00:00:03', hostname: 'cp-1', ip: null, profile_id: null, group: 'k8s', tags: [], description: '', arch: 'x86_64', platform: 'efi',
  enabled: true, boot_loader: null, discovered: false, last_boot_at: '2026-01-01T00:00:00.000Z', last_seen_ip: null, created_at: '', updated_at: '',
};
const ubuntu = { id: 7, name: 'ubuntu-autoinstall' } as Profile;
const groupDefault: BootDecision = { action: 'profile', profile: ubuntu, reason: 'group_default', reason_text: '' };

function task(fields: Partial<TaskRow>): TaskRow {
  return { id: 12, mac: host.mac, distro: 'debian', version: '12', arch: 'x86_64', state: 'pending', after_install: 'local_disk', ...fields } as TaskRow;
}
const tasks = (active?: TaskRow, latest?: TaskRow) => ({ activeForMac: () => active, latestForMac: () => latest ?? active });

describe("a host's effective boot", () => {
  it('names a group default as such, not as "default"', () => {
    expect(effectiveBoot(groupDefault, 'k8s')).toEqual({ action: 'profile', profile_id: 7, profile_name: 'ubuntu-autoinstall', task_id: null, source: 'group', text: 'profile "ubuntu-autoinstall" (group "k8s" default)' });
    expect(effectiveBoot({ action: 'menu', profile: null, reason: 'global_default', reason_text: '' }, null).text).toBe('the boot menu (netboot default)');
    expect(effectiveBoot({ action: 'local', profile: null, reason: 'host_disabled', reason_text: '' }, null)).toMatchObject({ source: 'disabled', text: 'its local disk (host disabled)' });
  });

  it('an active install task comes first, then "install once" sends the machine to its disk; denied beats both', () => {
    expect(hostBootSummary(host, groupDefault, tasks(task({ state: 'booting' })))).toEqual({
      effective_boot: { action: 'install', profile_id: null, profile_name: null, task_id: 12, source: 'task', text: 'install task 12: debian 12 (x86_64) (booting)' },
      lifecycle: 'installing',
    });
    expect(hostBootSummary(host, groupDefault, tasks(undefined, task({ state: 'done' })))).toMatchObject({ effective_boot: { action: 'local', source: 'task', task_id: 12 }, lifecycle: 'deployed' });
    expect(hostBootSummary(host, groupDefault, tasks(undefined, task({ state: 'done', after_install: 'host_profile' })))).toMatchObject({ effective_boot: { source: 'group' }, lifecycle: 'deployed' });
    const denied: BootDecision = { action: 'denied', profile: null, reason: 'access_denied', reason_text: '' };
    expect(hostBootSummary(host, denied, tasks(task({ state: 'pending' })))).toMatchObject({ effective_boot: { action: 'denied', source: 'access_lists' }, lifecycle: 'installing' });
  });
});

describe('lifecycle states', () => {
  it('new → discovered → ready, and from tasks installing, deployed, failed; a cancelled task changes nothing', () => {
    expect(hostLifecycle({ ...host, last_boot_at: null }, undefined, undefined)).toBe('new');
    expect(hostLifecycle({ ...host, discovered: true }, undefined, undefined)).toBe('discovered');
    expect(hostLifecycle(host, undefined, undefined)).toBe('ready');
    expect(hostLifecycle(host, task({ state: 'installing' }), undefined)).toBe('installing');
    expect(hostLifecycle(host, undefined, task({ state: 'failed' }))).toBe('failed');
    expect(hostLifecycle(host, undefined, task({ state: 'expired' }))).toBe('failed');
    expect(hostLifecycle(host, undefined, task({ state: 'cancelled' }))).toBe('ready');
  });
});
