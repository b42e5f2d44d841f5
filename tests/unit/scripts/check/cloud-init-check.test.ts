import { describe, expect, it } from 'vitest';
import { checkCloudInit, shellOfInterpreter } from '../../../../src-main/scripts/check/cloud-init-check.js';

describe('checkCloudInit', () => {
  it('accepts a #cloud-config mapping', () => {
    expect(checkCloudInit('#cloud-config\npackages:\n  - curl\nruncmd:\n  - [sh, -c, "echo hi"]\n')).toEqual({ type: 'cloud-config', issues: [] });
  });

  it('reports YAML errors with their line', () => {
    const part = checkCloudInit('#cloud-config\npackages:\n  - a\n b: [\n');
    expect(part.type).toBe('cloud-config');
    expect(part.issues[0]).toMatchObject({ severity: 'error', line: 4 });
    expect(part.issues[0]?.message).not.toContain('\n');
  });

  it('refuses duplicate keys and a top level that is not a mapping; warns when empty', () => {
    expect(checkCloudInit('#cloud-config\na: 1\na: 2\n').issues[0]).toMatchObject({ severity: 'error', line: 3 });
    expect(checkCloudInit('#cloud-config\n- a\n- b\n').issues).toEqual([expect.objectContaining({ severity: 'error', message: expect.stringContaining('mapping') })]);
    expect(checkCloudInit('#cloud-config\n').issues).toEqual([expect.objectContaining({ severity: 'warning' })]);
  });

  it('needs the #cloud-config header or a #! script part', () => {
    expect(checkCloudInit('packages: [curl]\n').issues).toEqual([expect.objectContaining({ severity: 'error', line: 1 })]);
    expect(checkCloudInit('#cloud-config-archive\n').type).toBe('unknown');
    expect(checkCloudInit('#!/bin/bash\necho hi\n')).toEqual({ type: 'script', interpreter: '/bin/bash', issues: [] });
  });

  it('names the shell of a #! line', () => {
    expect(shellOfInterpreter('/bin/sh')).toBe('sh');
    expect(shellOfInterpreter('/usr/bin/env bash')).toBe('bash');
    expect(shellOfInterpreter('/bin/bash -e')).toBe('bash');
    expect(shellOfInterpreter('/usr/bin/python3')).toBeNull();
  });
});
