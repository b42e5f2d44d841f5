import { describe, expect, it } from 'vitest';
import {
  forbiddenReason,
  isWithin,
  pathSyntaxProblem,
  POSIX_FLAVOR,
  systemDirs,
  WIN32_FLAVOR,
} from '../../../src-main/settings/served-root-policy.js';

describe('served-root policy (POSIX)', () => {
  const system = systemDirs(POSIX_FLAVOR, {}, 'linux', '/home/alice');
  const rules = { dataDir: '/var/lib/bootwright', ownRoots: ['/var/lib/bootwright/boot', '/var/lib/bootwright/images'], systemDirs: system, flavor: POSIX_FLAVOR };

  it.each([
    ['/', 'is the filesystem root'],
    ['/etc', 'is the system folder /etc'],
    ['/etc/ssh', 'lies inside the system folder /etc'],
    ['/usr/share/tftp', 'lies inside the system folder /usr'],
    ['/lib64', 'lies inside the system folder /lib64'],
    ['/libx32/a', 'lies inside the system folder /libx32'],
    ['/home/alice/isos', 'lies inside the system folder /home'],
    ['/root', 'is the system folder /root'],
    ['/proc/self', 'lies inside the system folder /proc'],
    ['/var/lib/bootwright', "is Bootwright's data directory"],
    ['/var/lib', "contains Bootwright's data directory"],
    ['/var/lib/bootwright/logs', "lies inside Bootwright's data directory"],
    ['/var/lib/tftpboot', 'lies inside the system folder /var'],
  ])('refuses %s', (real, reason) => {
    expect(forbiddenReason(real, rules)).toContain(reason);
  });

  it.each(['/srv/tftp', '/srv', '/tmp/x', '/var/lib/bootwright/boot', '/var/lib/bootwright/boot/ipxe', '/var/lib/bootwright/images/debian', '/opt/images', '/library'])(
    'accepts %s',
    (real) => {
      expect(forbiddenReason(real, rules)).toBeNull();
    },
  );

  it('exempts only own roots that really lie in the data directory', () => {
    // <data-dir>/boot resolved to /etc (a symlink): it exempts nothing.
    expect(forbiddenReason('/etc', { ...rules, ownRoots: ['/etc'] })).toContain('system folder /etc');
  });

  it('refuses a folder that contains a system folder or the home folder', () => {
    const withHome = { ...rules, systemDirs: systemDirs(POSIX_FLAVOR, {}, 'linux', '/srv/users/bob') };
    expect(forbiddenReason('/srv/users', withHome)).toBe('/srv/users contains the system folder /srv/users/bob');
    // A home of / (daemon accounts) is not taken as a home folder.
    expect(systemDirs(POSIX_FLAVOR, {}, 'linux', '/')).not.toContain('/');
  });

  it('checks the path form first', () => {
    expect(pathSyntaxProblem('relative/dir', POSIX_FLAVOR)).toBe('must be an absolute directory path');
    expect(pathSyntaxProblem('/a\0b', POSIX_FLAVOR)).toBe('must not contain NUL');
    expect(pathSyntaxProblem('', POSIX_FLAVOR)).toBe('must be an absolute directory path');
    expect(pathSyntaxProblem('/srv/tftp', POSIX_FLAVOR)).toBeNull();
  });

  it('compares by segment', () => {
    expect(isWithin('/srv/a', '/srv/a/b', POSIX_FLAVOR)).toBe(true);
    expect(isWithin('/srv/a', '/srv/ab', POSIX_FLAVOR)).toBe(false);
    expect(isWithin('/srv/a', '/srv/a/..b', POSIX_FLAVOR)).toBe(true);
  });
});

describe('served-root policy (Windows)', () => {
  const env = { SystemDrive: 'C:', SystemRoot: 'C:\\Windows', ProgramFiles: 'C:\\Program Files', 'ProgramFiles(x86)': 'C:\\Program Files (x86)', ProgramData: 'C:\\ProgramData' };
  const system = systemDirs(WIN32_FLAVOR, env, 'win32', 'C:\\Users\\alice');
  const rules = {
    dataDir: 'C:\\Users\\alice\\AppData\\Roaming\\Bootwright',
    ownRoots: ['C:\\Users\\alice\\AppData\\Roaming\\Bootwright\\boot', 'C:\\Users\\alice\\AppData\\Roaming\\Bootwright\\images'],
    systemDirs: system,
    flavor: WIN32_FLAVOR,
  };

  it.each([
    ['C:\\', 'is the filesystem root'],
    ['D:\\', 'is the filesystem root'],
    ['C:\\Windows', 'is the system folder C:\\Windows'],
    ['c:\\windows\\system32', 'lies inside the system folder C:\\Windows'],
    ['C:\\Program Files\\x', 'lies inside the system folder C:\\Program Files'],
    ['C:\\ProgramData', 'is the system folder'],
    ['C:\\Users\\bob\\isos', 'lies inside the system folder C:\\Users'],
    ['C:\\Users\\alice\\AppData\\Roaming\\Bootwright', "is Bootwright's data directory"],
  ])('refuses %s', (real, reason) => {
    expect(forbiddenReason(real, rules)).toContain(reason);
  });

  it.each(['D:\\tftp', 'C:\\tftp', 'C:\\Users\\alice\\AppData\\Roaming\\Bootwright\\boot\\x'])('accepts %s', (real) => {
    expect(forbiddenReason(real, rules)).toBeNull();
  });

  it('wants a drive letter or UNC path', () => {
    expect(pathSyntaxProblem('\\tftp', WIN32_FLAVOR)).toContain('drive letter');
    expect(pathSyntaxProblem('D:\\tftp', WIN32_FLAVOR)).toBeNull();
  });
});
