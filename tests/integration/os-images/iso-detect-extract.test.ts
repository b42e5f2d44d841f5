import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectImage } from '../../../src-main/os-images/detect/index.js';
import { extractImage } from '../../../src-main/os-images/extract/index.js';
import type { CatalogLookup } from '../../../src-main/os-images/image-ports.js';
import { openIso } from '../../../src-main/os-images/iso/index.js';
import { buildIso, debianInstallerPresent, DEBIAN_INITRD, DEBIAN_KERNEL, isoToolPresent, makeIsoWorkDir, mediaEntries, type IsoFixtureSpec } from '../../helpers/iso-fixtures.js';
import { memoryTree, type MemoryEntry } from '../../helpers/memory-tree.js';
import { ALPINE, ARCH, DEBIAN_NETINST, ROCKY_DVD, SYSTEMRESCUE, UBUNTU_SERVER, WINDOWS_11, isoInfo } from '../../helpers/os-media.js';

/*
 * The parts of the os-images area together on real ISO files: media laid
 * out as the distributions ship them are written into ISOs by xorriso (and
 * genisoimage for the Windows UDF bridge), read back by our ISO 9660 reader,
 * detected, and extracted byte-exact. Detection through the real reader must
 * agree with detection over the same files in memory: the reader's names,
 * case and layout must not change what an image is taken for.
 */

const canRun = isoToolPresent('xorriso', 'the ISO detection tests') && isoToolPresent('genisoimage', 'the ISO detection tests');
const noCatalog: CatalogLookup = () => null;

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

describe.runIf(canRun)('real ISOs through the reader, detection and extraction', () => {
  let work: string;

  beforeAll(async () => {
    work = await makeIsoWorkDir('bw-iso-detect-');
  });
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  const cases: [string, Record<string, MemoryEntry>, Partial<IsoFixtureSpec>][] = [
    ['Debian netinst (Rock Ridge + Joliet, El Torito BIOS)', DEBIAN_NETINST, { joliet: true, elTorito: { bios: true } }],
    ['Ubuntu server (Joliet only: no Rock Ridge)', UBUNTU_SERVER, { rockRidge: false, joliet: 'long' }],
    ['Rocky DVD (.treeinfo)', ROCKY_DVD, { joliet: true }],
    ['Arch', ARCH, { joliet: true }],
    ['Alpine', ALPINE, { joliet: true }],
    ['SystemRescue', SYSTEMRESCUE, { joliet: true }],
    ['Windows 11 (a UDF bridge without Rock Ridge, read through UDF)', WINDOWS_11, { rockRidge: false, joliet: true, udf: true }],
  ];

  for (const [label, media, spec] of cases) {
    it(`detects ${label} as it does the same files in memory`, async () => {
      const file = await buildIso(work, `${label.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.iso`, { entries: mediaEntries(media), ...spec });
      const image = await openIso(file);
      try {
        const fromIso = await detectImage({ tree: image, info: image.info, fileName: path.basename(file), catalog: noCatalog });
        const fromMemory = await detectImage({ tree: memoryTree(media), info: { ...isoInfo(), el_torito: image.info.el_torito }, fileName: path.basename(file), catalog: noCatalog });
        expect(fromIso.family).toBe(fromMemory.family);
        expect(fromIso.boot_method).toBe(fromMemory.boot_method);
        expect(fromIso.version).toBe(fromMemory.version);
        expect(fromIso.arch).toBe(fromMemory.arch);
        expect(fromIso.kernel?.toLowerCase() ?? null).toBe(fromMemory.kernel?.toLowerCase() ?? null);
        expect(fromIso.family).not.toBe('other');
      } finally {
        await image.close();
      }
    });
  }

  it.runIf(debianInstallerPresent('the byte-exact extraction test'))('extracts the Debian installer\'s kernel and initrd byte-exact from a real ISO', async () => {
    const file = await buildIso(work, 'debian-installer.iso', { debianInstaller: true, joliet: true, elTorito: { bios: true }, entries: [{ kind: 'file', path: '.disk/info', content: DEBIAN_NETINST['.disk/info'] as string }] });
    const image = await openIso(file);
    try {
      const detection = await detectImage({ tree: image, info: image.info, fileName: 'debian-installer.iso', catalog: noCatalog });
      expect(detection).toMatchObject({ family: 'debian', boot_method: 'linux', kernel: 'install.amd/vmlinuz', initrds: ['install.amd/initrd.gz'] });
      const target = path.join(work, 'extracted-debian');
      const progress: number[] = [];
      const result = await extractImage({
        tree: image,
        detection,
        target,
        mode: 'boot',
        overwrite: false,
        signal: new AbortController().signal,
        onProgress: (step) => progress.push(step.bytes),
      });
      expect(result.files).toBeGreaterThanOrEqual(2);
      expect(sha256(await readFile(path.join(target, 'install.amd/vmlinuz')))).toBe(sha256(await readFile(DEBIAN_KERNEL)));
      expect(sha256(await readFile(path.join(target, 'install.amd/initrd.gz')))).toBe(sha256(await readFile(DEBIAN_INITRD)));
      expect(progress.at(-1)).toBe(result.bytes);
      expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    } finally {
      await image.close();
    }
  });
});
