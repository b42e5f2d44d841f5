import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { CatalogFileError, defaultCatalogFile, fieldName, loadCatalogFile, parseCatalogText } from '../../../../src-main/netboot/catalog/catalog-file.js';
import type { CatalogArch, CatalogEntry, CatalogFile, CatalogVersion } from '../../../../src-main/netboot/netboot-contract.js';

/** A small valid catalog each case breaks in one place. */
function base(): CatalogFile {
  return {
    schema_version: 1,
    groups: [{ id: 'linux', name: 'Linux', description: '', order: 1 }],
    entries: [
      {
        distro: 'debian',
        name: 'Debian',
        family: 'debian',
        group: 'linux',
        description: 'd',
        loader: 'linux',
        mirror: 'https://deb.example/debian',
        arch_aliases: { x86_64: 'amd64' },
        cmdline: '{{ answer_argument }}{% if host.hostname %} hostname={{ host.hostname }}{% endif %}',
        answer: { kind: 'preseed', argument: 'auto=true preseed/url={{ answer_url }}' },
        versions: [
          {
            version: '12',
            name: '12',
            codename: 'bookworm',
            default: true,
            architectures: [{ arch: 'x86_64', firmware: ['bios', 'uefi'], kernel: 'dists/{{ codename }}/{{ arch_alias }}/linux', initrds: ['dists/{{ codename }}/{{ arch_alias }}/initrd.gz'] }],
          },
        ],
      },
    ],
  };
}

function entry(catalog: CatalogFile): CatalogEntry {
  const [first] = catalog.entries;
  if (!first) throw new Error('no entry');
  return first;
}

function firstVersion(catalog: CatalogFile): CatalogVersion {
  const [first] = entry(catalog).versions;
  if (!first) throw new Error('no version');
  return first;
}

function firstArch(catalog: CatalogFile): CatalogArch {
  const [first] = firstVersion(catalog).architectures;
  if (!first) throw new Error('no architecture');
  return first;
}

/** The CatalogFileError message for `catalog` after `change`. */
function problemOf(change: (catalog: CatalogFile) => void): string {
  const catalog = base();
  change(catalog);
  try {
    parseCatalogText(stringify(catalog), 'test.yaml');
  } catch (err) {
    if (err instanceof CatalogFileError) return err.message;
    throw err;
  }
  throw new Error('the catalog was accepted');
}

describe('the shipped catalog', () => {
  it('validates', async () => {
    const catalog = await loadCatalogFile(defaultCatalogFile());
    expect(catalog.entries.length).toBeGreaterThanOrEqual(12);
    expect(catalog.groups.map((group) => group.id)).toEqual(['linux-installers', 'windows', 'utilities', 'rescue']);
  });
});

describe('the loader', () => {
  it('accepts the base catalog (so each case below fails for its own reason)', () => {
    expect(parseCatalogText(stringify(base()), 'test.yaml').entries).toHaveLength(1);
  });

  it('names the file, the entry and the field of a schema error', () => {
    expect(problemOf((c) => (firstArch(c).kernel = '/abs/linux'))).toMatch(
      /^netboot catalog test\.yaml is invalid: entries\[debian\]\.versions\[12\]\.architectures\[x86_64\]\.kernel: must match pattern/,
    );
    expect(problemOf((c) => (entry(c).family = 'beos' as CatalogEntry['family']))).toContain('entries[debian].family');
  });

  it('refuses duplicate distros and groups, and unknown groups', () => {
    expect(problemOf((c) => c.entries.push(structuredClone(entry(c))))).toContain('entries[debian].distro: "debian" is listed twice');
    expect(problemOf((c) => c.groups.push({ id: 'linux', name: 'again', description: '', order: 2 }))).toContain('groups[linux].id: "linux" is listed twice');
    expect(problemOf((c) => (entry(c).group = 'nowhere'))).toContain('entries[debian].group: group "nowhere" does not exist');
  });

  it('refuses duplicate versions, two defaults and duplicate architectures', () => {
    expect(problemOf((c) => entry(c).versions.push(structuredClone(firstVersion(c))))).toContain('entries[debian].versions[12].version: version "12" is listed twice');
    expect(problemOf((c) => entry(c).versions.push({ ...structuredClone(firstVersion(c)), version: '13' }))).toContain('entries[debian].versions: 2 versions are marked default');
    expect(problemOf((c) => firstVersion(c).architectures.push(structuredClone(firstArch(c))))).toContain(
      'entries[debian].versions[12].architectures[x86_64].arch: x86_64 is listed twice',
    );
  });

  it('refuses bad paths and placeholders', () => {
    expect(problemOf((c) => (firstArch(c).initrds = ['{{ mirror }}/initrd.gz']))).toContain(
      'entries[debian].versions[12].architectures[x86_64].initrds[0]: uses a placeholder other than',
    );
    expect(problemOf((c) => delete firstVersion(c).codename)).toContain('versions[12].architectures[x86_64].kernel: uses {{ codename }} but the version has no codename');
    // A placeholder whose value makes the path escape.
    expect(problemOf((c) => (entry(c).arch_aliases = { x86_64: '..' }))).toContain('arch_aliases');
    expect(problemOf((c) => (firstArch(c).initrds = ['other/linux']))).toContain('its file name "linux" is also kernel\'s');
    expect(problemOf((c) => (firstArch(c).initrds = ['initrd.gz?x=1']))).toContain('initrds[0]: "initrd.gz?x=1" must not contain spaces, ?, #');
    expect(problemOf((c) => (firstArch(c).sha256 = { 'nope/linux': 'a'.repeat(64) }))).toContain('sha256["nope/linux"]: names no file');
  });

  it('refuses command lines and answer arguments with names outside the allowed set', () => {
    expect(problemOf((c) => (entry(c).cmdline = '{{ answer_argument }} {{ secrets.root_password }}'))).toContain('entries[debian].cmdline: uses "secrets"');
    expect(problemOf((c) => (entry(c).cmdline = '{{ answer_argument }'))).toContain('entries[debian].cmdline: does not parse as Liquid');
    expect(problemOf((c) => (entry(c).cmdline = 'auto=true'))).toContain('entries[debian].cmdline: must contain {{ answer_argument }}');
    expect(problemOf((c) => (entry(c).answer = { kind: 'preseed', argument: 'url={{ host.ip }}' }))).toContain('entries[debian].answer.argument: uses "host"');
  });

  it('checks answer kinds against the loader and the family', () => {
    expect(problemOf((c) => (entry(c).answer = { kind: 'kickstart', argument: 'inst.ks={{ answer_url }}' }))).toContain(
      'entries[debian].answer.kind: the debian family\'s installers do not read kickstart files',
    );
    expect(problemOf((c) => (entry(c).loader = 'efi'))).toContain('entries[debian].answer.kind: a efi entry cannot take a preseed answer file');
    expect(
      problemOf((c) => {
        entry(c).family = 'ubuntu';
        entry(c).answer = { kind: 'autoinstall', argument: 'autoinstall ds=nocloud-net;s={{ answer_url }}' };
      }),
    ).toContain('must pass {{ answer_seed_url }}');
    expect(
      problemOf((c) => {
        entry(c).family = 'windows';
        entry(c).loader = 'wimboot';
        entry(c).answer = { kind: 'autounattend', argument: 'unattend={{ answer_url }}' };
      }),
    ).toContain('answer.argument: for wimboot, the file name');
  });

  it('reports YAML errors and unreadable files with the file name', async () => {
    expect(() => parseCatalogText('schema_version: 1\ngroups: [\n', 'broken.yaml')).toThrow(/^netboot catalog broken\.yaml is invalid: \(YAML\)/);
    expect(() => parseCatalogText('a: 1\na: 2\n', 'dup.yaml')).toThrow(/unique/i);
    await expect(loadCatalogFile('/nonexistent/catalog.yaml')).rejects.toThrow(/catalog \/nonexistent\/catalog\.yaml is invalid: \(the file\): cannot be read/);
  });
});

describe('fieldName', () => {
  it('names array items by their id, else their index', () => {
    const value = { entries: [{ distro: 'x', versions: [{ version: '1', architectures: [{ arch: 'arm64' }] }] }], list: ['a'] };
    expect(fieldName(value, '/entries/0/versions/0/architectures/0/kernel')).toBe('entries[x].versions[1].architectures[arm64].kernel');
    expect(fieldName(value, '/list/0')).toBe('list[0]');
  });
});
