import type { Script, ScriptVersion } from '@contracts/scripts';
import { ok, type Route } from '../fake-transport.js';
import { okList } from '../render-app.js';

export const SCRIPT: Script = {
  id: 1,
  name: 'Install Docker',
  kind: 'bash',
  os_family: 'linux',
  description: 'Docker CE from the distribution',
  content: '#!/bin/bash\nset -euo pipefail\napt-get install -y docker.io={{ docker_version }}\n',
  variables: { docker_version: '24.0' },
  version: 2,
  sha256: 'a'.repeat(64),
  created_at: '2024-05-01T00:00:00Z',
  updated_at: '2024-05-02T00:00:00Z',
};

export const SCRIPT_VERSIONS: ScriptVersion[] = [
  { id: 2, script_id: 1, version: 2, kind: 'bash', content: SCRIPT.content, author: 'admin', comment: 'pin the version', created_at: '2024-05-02T00:00:00Z' },
  { id: 1, script_id: 1, version: 1, kind: 'bash', content: '#!/bin/bash\napt-get install -y docker.io\n', author: 'admin', comment: 'created', created_at: '2024-05-01T00:00:00Z' },
];

export const SCRIPTS_FIXTURES: Record<string, Route> = {
  'GET /api/v1/scripts': () => okList([SCRIPT, { ...SCRIPT, id: 2, name: 'Windows updates', kind: 'powershell', os_family: 'windows', version: 1 }]),
  'GET /api/v1/scripts/1': () => ok(SCRIPT),
  'GET /api/v1/scripts/1/versions': () => okList(SCRIPT_VERSIONS),
};
