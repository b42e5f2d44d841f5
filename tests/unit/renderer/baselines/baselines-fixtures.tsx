import type { AssignedBaseline, Baseline } from '@contracts/baselines';
import type { Script } from '@contracts/scripts';
import { ok, type Route } from '../fake-transport.js';
import { okList } from '../render-app.js';

/** Baselines API answers typed by the contract, shared by the baselines page tests and the all-pages fixtures. */
const script = (id: number, name: string, fields: Partial<Script> = {}): Script => ({
  id,
  name,
  kind: 'sh',
  os_family: 'linux',
  description: '',
  content: '#!/bin/sh\necho {{ greeting }}\n',
  variables: {},
  version: 1,
  sha256: 'a'.repeat(64),
  created_at: '2024-05-01T00:00:00Z',
  updated_at: '2024-05-01T00:00:00Z',
  ...fields,
});

export const SSH_KEYS = script(1, 'ssh-keys', { variables: { user: 'root', key_url: '' } });
export const NTP = script(2, 'ntp', { variables: { server: 'pool.ntp.org' } });
export const WIN_UPDATES = script(3, 'windows-updates', { kind: 'powershell', os_family: 'windows' });
export const HELLO = script(4, 'hello', { kind: 'powershell', os_family: 'any' });
export const SCRIPTS = [SSH_KEYS, NTP, WIN_UPDATES, HELLO];

export const BASELINE: Baseline = {
  id: 1,
  name: 'Lab Linux',
  description: 'What every lab machine gets',
  os_family: 'linux',
  assign: { host_ids: [1], groups: ['lab'], tags: ['rack1', 'rack2'], profile_ids: [], task_ids: [], is_default: true },
  scripts: [
    { position: 1, script_id: 1, script_name: 'ssh-keys', kind: 'sh', variables: { user: 'admin' }, continue_on_error: false, timeout_seconds: 600 },
    { position: 2, script_id: 2, script_name: 'ntp', kind: 'sh', variables: {}, continue_on_error: true, timeout_seconds: 120 },
  ],
  created_at: '2024-05-01T00:00:00Z',
  updated_at: '2024-05-02T00:00:00Z',
};

export const ASSIGNED: AssignedBaseline = {
  baseline: BASELINE,
  rule: 'group',
  reason: 'group "lab"',
  host: { id: 1, mac: '52:54:00:00:00:01', hostname: 'web01' },
  scripts: [
    { position: 1, script_id: 1, name: 'ssh-keys', kind: 'sh', version: 3, content: '#!/bin/sh\necho admin\n', sha256: 'b'.repeat(64), continue_on_error: false, timeout_seconds: 600 },
  ],
};

export const BASELINES_FIXTURES: Record<string, Route> = {
  'GET /api/v1/baselines': () => okList([BASELINE]),
  'GET /api/v1/baselines/1': () => ok(BASELINE),
  'GET /api/v1/baselines/assigned': () => ok(ASSIGNED),
  'GET /api/v1/scripts': () => okList(SCRIPTS),
};
