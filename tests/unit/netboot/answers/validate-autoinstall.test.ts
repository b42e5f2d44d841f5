import { describe, expect, it } from 'vitest';
import { validateAutoinstall } from '../../../../src-main/netboot/answers/validate-autoinstall.js';

const GOOD = '#cloud-config\nautoinstall:\n  version: 1\n  identity:\n    hostname: a\n    username: u\n    password: "!"\n  storage:\n    layout:\n      name: lvm\n';

describe('validateAutoinstall', () => {
  it('accepts minimal user-data', () => {
    expect(validateAutoinstall(GOOD)).toEqual([]);
  });

  it('requires #cloud-config on the first line', () => {
    expect(validateAutoinstall(GOOD.replace('#cloud-config\n', '# cloud config\n'))).toContainEqual(expect.objectContaining({ line: 1, severity: 'error' }));
  });

  it('gives the line and column of a YAML error', () => {
    const issues = validateAutoinstall('#cloud-config\nautoinstall:\n  version: 1\n  identity: [a, b\n  storage: x\n');
    expect(issues[0]).toMatchObject({ severity: 'error' });
    expect(issues[0]?.line).toBeGreaterThanOrEqual(4);
  });

  it('names a wrong version, an unknown key and a missing identity with their lines', () => {
    const issues = validateAutoinstall('#cloud-config\nautoinstall:\n  version: 2\n  identiy:\n    hostname: a\n');
    expect(issues).toContainEqual(expect.objectContaining({ line: 3, message: 'autoinstall.version must be 1' }));
    expect(issues).toContainEqual(expect.objectContaining({ line: 4, message: 'unknown autoinstall key "identiy"' }));
    expect(issues).toContainEqual(expect.objectContaining({ severity: 'error', message: expect.stringContaining('needs "identity"') }));
  });

  it('refuses user-data without an autoinstall key', () => {
    expect(validateAutoinstall('#cloud-config\nusers: []\n')).toContainEqual(expect.objectContaining({ message: expect.stringContaining('no "autoinstall:" key') }));
  });
});
