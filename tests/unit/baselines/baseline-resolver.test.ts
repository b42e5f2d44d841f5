import { describe, expect, it } from 'vitest';
import { chooseBaseline, type MachineFacts } from '../../../src-main/baselines/baseline-resolver.js';
import type { BaselineRow } from '../../../src-main/baselines/baseline-types.js';
import { host, row } from './baseline-fixtures.js';

const web = host(5, { hostname: 'web01', group: 'Lab', tags: ['blue', 'gpu'], profile_id: 7 });
const MAC = web.mac;

/** One baseline per rule, each naming the targets of `web`. */
const ALL: BaselineRow[] = [
  row(1, 'By host', { host_ids: [5] }),
  row(2, 'By group', { groups: ['lab'] }),
  row(3, 'By tag', { tags: ['GPU'] }),
  row(4, 'By task', { task_ids: [11] }),
  row(6, 'By profile', { profile_ids: [7] }),
  row(8, 'Default', { is_default: true }),
];

function facts(fields: Partial<MachineFacts> = {}): MachineFacts {
  return { host: web, mac: MAC, task: { id: 11, mac: MAC, host_id: 5 }, profileName: 'Debian', ...fields };
}

function choose(rows: BaselineRow[], fields: Partial<MachineFacts> = {}) {
  const choice = chooseBaseline(rows, facts(fields));
  return { name: choice.row?.name ?? null, rule: choice.rule, reason: choice.reason };
}

describe('chooseBaseline', () => {
  it('walks host > group > tag > task > profile > default > none, saying which rule matched', () => {
    const seen: ReturnType<typeof choose>[] = [];
    for (let drop = 0; drop <= ALL.length; drop += 1) seen.push(choose(ALL.slice(drop)));
    expect(seen.map((s) => [s.rule, s.name])).toEqual([
      ['host', 'By host'],
      ['group', 'By group'],
      ['tag', 'By tag'],
      ['task', 'By task'],
      ['profile', 'By profile'],
      ['default', 'Default'],
      ['none', null],
    ]);
    expect(seen.map((s) => s.reason)).toEqual([
      'host "web01" (id 5, 52:54:00:00:00:05) is assigned to it directly',
      'group "Lab" of host "web01" (id 5, 52:54:00:00:00:05)',
      'tag "gpu" of host "web01" (id 5, 52:54:00:00:00:05) (its first tag with a baseline; "blue" has none)',
      'install task 11 of host "web01" (id 5, 52:54:00:00:00:05)',
      'profile "Debian" (id 7) of host "web01" (id 5, 52:54:00:00:00:05)',
      'the default baseline: no host, group, tag, task or profile rule matched host "web01" (id 5, 52:54:00:00:00:05)',
      'no host, group, tag, task, profile or default matched host "web01" (id 5, 52:54:00:00:00:05)',
    ]);
  });

  it('takes the tag that comes first in the host\'s own tag order, not the baseline order', () => {
    const rows = [row(1, 'GPU first in the list', { tags: ['gpu'] }), row(2, 'Blue', { tags: ['blue'] })];
    expect(choose(rows)).toMatchObject({ rule: 'tag', name: 'Blue' });
    expect(choose(rows, { host: { ...web, tags: ['gpu', 'blue'] } })).toMatchObject({ rule: 'tag', name: 'GPU first in the list' });
  });

  it('picks the lowest id when two baselines claim one target (only a damaged store has that)', () => {
    expect(choose([row(9, 'Later', { groups: ['lab'] }), row(3, 'Earlier', { groups: ['LAB'] })])).toMatchObject({ rule: 'group', name: 'Earlier' });
  });

  it('resolves an unknown MAC by its task and the default only; a host without a group or profile skips those rules', () => {
    expect(choose(ALL, { host: null })).toMatchObject({ rule: 'task', name: 'By task', reason: 'install task 11 of the unknown machine 52:54:00:00:00:05' });
    expect(choose(ALL, { host: null, task: null })).toMatchObject({ rule: 'default', name: 'Default' });
    const bare = host(6, { hostname: null });
    expect(choose(ALL.slice(1), { host: bare, mac: bare.mac, task: null })).toMatchObject({ rule: 'default', reason: expect.stringContaining('host (id 6, 52:54:00:00:00:06)') });
  });

  it('matches nothing for a target that is no longer there', () => {
    // Host 5's record is gone (the machine asks by MAC): its old direct assignment and profile no longer apply.
    expect(choose([row(1, 'By host', { host_ids: [5] }), row(6, 'By profile', { profile_ids: [7] })], { host: null, task: null })).toMatchObject({ rule: 'none', name: null });
  });
});
