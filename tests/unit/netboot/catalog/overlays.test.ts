import { describe, expect, it } from 'vitest';
import { mergeOverlay, overlayNotes } from '../../../../src-main/netboot/catalog/overlays.js';
import type { CatalogEntry, CatalogVersion } from '../../../../src-main/netboot/netboot-contract.js';

function version(label: string, extra: Partial<CatalogVersion> = {}): CatalogVersion {
  return {
    version: label,
    name: label,
    architectures: [
      { arch: 'x86_64', firmware: ['bios', 'uefi'], kernel: `${label}/linux`, initrds: [`${label}/initrd.gz`] },
      { arch: 'arm64', firmware: ['uefi'], kernel: `${label}/arm/linux`, initrds: [] },
    ],
    ...extra,
  };
}

const entry: CatalogEntry = {
  distro: 'os',
  name: 'OS',
  family: 'debian',
  group: 'linux',
  description: 'shipped',
  loader: 'linux',
  mirror: 'https://mirror.example/os',
  cmdline: '{{ answer_argument }}',
  answer: { kind: 'preseed', argument: 'preseed/url={{ answer_url }}' },
  versions: [version('2', { default: true }), version('1')],
};

describe('mergeOverlay', () => {
  it('replaces mirror, cmdline and answer (null included) and keeps what the overlay does not name', () => {
    const merged = mergeOverlay(entry, { mirror: null, cmdline: 'x', answer: null });
    expect(merged).toEqual({ ...entry, mirror: null, cmdline: 'x', answer: null });
    expect(mergeOverlay(entry, {})).toEqual(entry);
  });

  it('replaces versions by label and adds new ones; an added default takes over', () => {
    const replaced = mergeOverlay(entry, { versions: [version('1', { name: 'one, patched' })] });
    expect(replaced.versions.map((item) => [item.version, item.name, item.default])).toEqual([
      ['2', '2', true],
      ['1', 'one, patched', undefined],
    ]);
    const added = mergeOverlay(entry, { versions: [version('3', { default: true })] });
    expect(added.versions.map((item) => [item.version, item.default ?? false])).toEqual([
      ['2', false],
      ['1', false],
      ['3', true],
    ]);
  });

  it('hides shipped versions', () => {
    expect(mergeOverlay(entry, { hidden_versions: ['1'] }).versions.map((item) => item.version)).toEqual(['2']);
  });

  it('appends extra initrds to every architecture of every version, added ones included', () => {
    const merged = mergeOverlay(entry, { extra_initrds: ['firmware.cpio.gz'], versions: [version('3')] });
    for (const item of merged.versions) for (const arch of item.architectures) expect(arch.initrds.at(-1)).toBe('firmware.cpio.gz');
    expect(merged.versions[0]?.architectures[0]?.initrds).toEqual(['2/initrd.gz', 'firmware.cpio.gz']);
  });

  it('never changes the shipped entry', () => {
    const before = structuredClone(entry);
    mergeOverlay(entry, { extra_initrds: ['f'], versions: [version('2')], hidden_versions: ['1'], mirror: null });
    expect(entry).toEqual(before);
  });
});

describe('overlayNotes', () => {
  it('reports hidden versions and distros the catalog no longer has', () => {
    expect(overlayNotes(entry, { hidden_versions: ['1', '0'] })).toEqual(['hidden_versions: version 0 is no longer in the shipped catalog']);
    expect(overlayNotes(undefined, {})).toHaveLength(1);
  });
});
