import { describe, expect, it } from 'vitest';
import { catalogLookupFrom, matchVersion, type CatalogEntryLike } from '../../../src-main/os-images/catalog-match.js';

const arches = (...names: string[]) => names.map((arch) => ({ arch }));
const ENTRIES: CatalogEntryLike[] = [
  { distro: 'debian-rescue', name: 'Debian rescue', family: 'utility', versions: [{ version: '12', architectures: arches('x86_64') }] },
  { distro: 'debian', name: 'Debian', family: 'debian', versions: [{ version: '13', architectures: arches('x86_64', 'arm64') }, { version: '12', architectures: arches('x86_64') }] },
  { distro: 'ubuntu', name: 'Ubuntu', family: 'ubuntu', versions: [{ version: '24.04', architectures: arches('x86_64') }, { version: '24', architectures: arches('x86_64') }] },
  { distro: 'rocky', name: 'Rocky Linux', family: 'redhat', versions: [{ version: '9', architectures: arches('x86_64') }] },
];
const lookup = catalogLookupFrom(() => ENTRIES);

describe('catalog match', () => {
  it('picks the longest version label the detected version starts with', () => {
    expect(matchVersion(['24', '24.04'], '24.04.1')).toBe('24.04');
    expect(matchVersion(['12'], '12.5.0')).toBe('12');
    expect(matchVersion(['1'], '12.5.0')).toBeNull();
    expect(matchVersion(['9'], '9')).toBe('9');
  });

  it('links detections to catalog entries by family, distro, version and arch', () => {
    expect(lookup({ family: 'debian', distro: 'Debian GNU/Linux', version: '12.5.0', arch: 'amd64' })).toEqual({ distro: 'debian', version: '12', arch: 'x86_64' });
    expect(lookup({ family: 'debian', distro: 'Debian GNU/Linux', version: '13.1', arch: 'arm64' })).toEqual({ distro: 'debian', version: '13', arch: 'arm64' });
    expect(lookup({ family: 'ubuntu', distro: 'Ubuntu Server', version: '24.04.1', arch: 'amd64' })).toEqual({ distro: 'ubuntu', version: '24.04', arch: 'x86_64' });
    expect(lookup({ family: 'rhel', distro: 'Rocky Linux', version: '9.4', arch: 'x86_64' })).toEqual({ distro: 'rocky', version: '9', arch: 'x86_64' });
  });

  it('answers null when nothing fits', () => {
    expect(lookup({ family: 'debian', distro: 'Debian GNU/Linux', version: '12.5.0', arch: 'arm64' })).toBeNull();
    expect(lookup({ family: 'debian', distro: 'Debian GNU/Linux', version: '', arch: 'amd64' })).toBeNull();
    expect(lookup({ family: 'debian', distro: 'Debian GNU/Linux', version: '10.1', arch: 'amd64' })).toBeNull();
    expect(lookup({ family: 'rhel', distro: 'AlmaLinux', version: '9.4', arch: 'amd64' })).toBeNull();
    expect(lookup({ family: 'other', distro: 'x', version: '1', arch: 'mips' })).toBeNull();
  });
});
