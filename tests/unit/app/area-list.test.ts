import { describe, expect, it } from 'vitest';
import { areaList } from '../../../src-main/app/area-list.js';
import { areaListProblems } from '../../../src-main/core/area.js';

// The real area list (docs/architecture.md, "The area list"): sound wiring is checked here, not at the first start.
describe('the area list', () => {
  const list = areaList();

  it('has no wiring mistake: no duplicate, no unknown need, no cycle, every need listed before its user', () => {
    expect(areaListProblems(list)).toEqual([]);
  });

  it('holds every area folder once', () => {
    expect(list.map((area) => area.name)).toEqual([
      'events',
      'audit',
      'logs',
      'auth',
      'services',
      'settings',
      'alerts',
      'network',
      'system',
      'dns',
      'dhcp',
      'boot-files',
      'tftp',
      'templates',
      'profiles',
      'hosts',
      'boot-scripts',
      'power',
      'netboot',
      'os-images',
      'files',
      'nfs',
      'diagnostics',
      'scripts',
      'baselines',
      'community-store',
      'kit',
    ]);
  });
});
