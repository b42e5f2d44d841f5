import { createHash } from 'node:crypto';
import { copyFile, open, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../../src-main/core/errors.js';
import { resolveTreePath, TreeError, type ReadOnlyTree, type TreeNode } from '../../../../src-main/core/read-only-tree.js';
import type { OpenedImage } from '../../../../src-main/os-images/image-ports.js';
import { openIso, readIsoInfo } from '../../../../src-main/os-images/iso/index.js';
import { IsoSource } from '../../../../src-main/os-images/iso/iso-source.js';
import { readIsoInfoFrom } from '../../../../src-main/os-images/iso/open-iso.js';
import { readDescriptorSet } from '../../../../src-main/os-images/iso/volume-descriptors.js';
import {
  buildIso,
  DEBIAN_INITRD,
  DEBIAN_KERNEL,
  debianInstallerPresent,
  isoToolPresent,
  makeIsoWorkDir,
  type IsoFixtureEntry,
} from '../../../helpers/iso-fixtures.js';
import { run } from '../../../helpers/netns.js';

const haveXorriso = isoToolPresent('xorriso', 'the ISO 9660 reader tests');
const haveGenisoimage = isoToolPresent('genisoimage', 'the UDF-bridge ISO test');
const haveInstaller = debianInstallerPresent('the byte-exact kernel/initrd reads');

const DEEP_DIRS = ['d1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7', 'd8', 'd9', 'd10', 'd11', 'd12'];
const DEEP_FILE = `${DEEP_DIRS.join('/')}/deep file.txt`;

const RR_ENTRIES: IsoFixtureEntry[] = [
  { kind: 'file', path: 'a.txt', content: 'hello a', mode: 0o640 },
  { kind: 'file', path: 'bin/tool.sh', content: '#!/bin/sh\necho hi\n', mode: 0o755 },
  { kind: 'dir', path: 'private', mode: 0o700 },
  { kind: 'file', path: 'Mixed Case Name with spaces.txt', content: 'mixed' },
  { kind: 'symlink', path: 'rel-link', target: 'a.txt' },
  { kind: 'symlink', path: 'bin/up-link', target: '../a.txt' },
  { kind: 'symlink', path: 'abs-link', target: '/bin/tool.sh' },
  { kind: 'symlink', path: 'dangling', target: 'nowhere/missing' },
  { kind: 'file', path: DEEP_FILE, content: 'twelve levels down' },
];

async function walk(tree: ReadOnlyTree, path = ''): Promise<TreeNode[]> {
  const out: TreeNode[] = [];
  for (const node of await tree.list(path)) {
    out.push(node);
    if (node.type === 'directory') out.push(...(await walk(tree, node.path)));
  }
  return out;
}

async function sha256(buffer: Buffer): Promise<string> {
  return createHash('sha256').update(buffer).digest('hex');
}

/** A whole file read through the tree in odd-sized pieces. */
async function readAll(tree: ReadOnlyTree, path: string, size: number, piece = 1_048_573): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let offset = 0; offset < size; offset += piece) parts.push(await tree.read(path, offset, piece));
  return Buffer.concat(parts);
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (err: unknown) => err,
  );
}

describe.skipIf(!haveXorriso)('ISO 9660 reader on xorriso-built images', () => {
  let work = '';
  const isos: Record<string, string> = {};
  const opened: OpenedImage[] = [];
  const openTracked = async (file: string): Promise<OpenedImage> => {
    const tree = await openIso(file);
    opened.push(tree);
    return tree;
  };

  beforeAll(async () => {
    work = await makeIsoWorkDir();
    isos.rr = await buildIso(work, 'rr.iso', { entries: RR_ENTRIES, joliet: true, relocateDeep: true, volumeId: 'RR_TEST' });
    const plainEntries: IsoFixtureEntry[] = [
      { kind: 'file', path: 'readme.txt', content: 'plain' },
      { kind: 'file', path: 'averyverylongfilename.text', content: 'long' },
      { kind: 'file', path: 'noext', content: 'no extension' },
      { kind: 'file', path: 'sub/inner.cfg', content: 'inner' },
    ];
    isos.level1 = await buildIso(work, 'level1.iso', { entries: plainEntries, rockRidge: false, isoLevel: 1 });
    isos.level2 = await buildIso(work, 'level2.iso', { entries: plainEntries, rockRidge: false, isoLevel: 2 });
    isos.joliet = await buildIso(work, 'joliet.iso', {
      rockRidge: false,
      joliet: 'long',
      entries: [
        { kind: 'file', path: `${'Long Joliet name '.repeat(5)}end.txt`, content: 'long joliet' },
        { kind: 'file', path: 'Ünïcödé — 日本語.txt', content: 'unicode' },
        { kind: 'file', path: 'Sources/Boot.WIM', content: 'wim' },
      ],
    });
    isos.boot = await buildIso(work, 'boot.iso', { elTorito: { bios: true, uefi: true }, joliet: true, debianInstaller: haveInstaller });
  }, 120_000);

  afterAll(async () => {
    for (const tree of opened) await tree.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('reads plain ISO 9660 level 1 and level 2 names (lower case, versions and trailing dots dropped) like isoinfo lists them', async () => {
    for (const [level, file] of [
      ['1', isos.level1!],
      ['2', isos.level2!],
    ] as const) {
      const tree = await openTracked(file);
      expect(tree.info.rock_ridge).toBe(false);
      expect(tree.info.joliet).toBe(false);
      expect(tree.info.limitations.join(' ')).toMatch(/plain ISO 9660 names/);
      const paths = (await walk(tree)).map((node) => `/${node.path}`).sort();
      // isoinfo (genisoimage) as an independent reader: raw names, mapped the way we document.
      const listed = await run('isoinfo', ['-f', '-i', file]);
      const expected = listed.stdout
        .split('\n')
        .filter((line) => line.startsWith('/'))
        .map((line) => line.replace(/;\d+$/, '').replace(/\.$/, '').toLowerCase())
        .sort();
      expect(paths, `level ${level}`).toEqual(expected);
      expect(paths).toContain('/readme.txt');
      expect(paths).toContain('/sub/inner.cfg');
      if (level === '1') expect(paths.every((path) => path.split('/').pop()!.split('.')[0]!.length <= 8)).toBe(true);
      const node = await tree.stat('README.TXT');
      expect(node?.name).toBe('readme.txt');
      expect(node?.mode).toBe(0o444);
      expect((await tree.read('readme.txt', 0, 100)).toString()).toBe('plain');
      expect((await tree.read('sub/inner.cfg', 0, 100)).toString()).toBe('inner');
    }
  });

  it('reads Joliet names (UCS-2, long and Unicode) when there is no Rock Ridge', async () => {
    const tree = await openTracked(isos.joliet!);
    expect(tree.info.joliet).toBe(true);
    expect(tree.info.rock_ridge).toBe(false);
    const names = (await tree.list('')).map((node) => node.name).sort();
    expect(names).toEqual([`${'Long Joliet name '.repeat(5)}end.txt`, 'Sources', 'Ünïcödé — 日本語.txt'].sort());
    expect((await tree.read('Ünïcödé — 日本語.txt', 0, 64)).toString()).toBe('unicode');
    // Case-insensitive second try (Windows media name files in any case).
    expect((await tree.stat('sources/boot.wim'))?.path).toBe('Sources/Boot.WIM');
    expect((await tree.read('SOURCES/BOOT.WIM', 0, 10)).toString()).toBe('wim');
  });

  it('prefers Rock Ridge names, with POSIX modes and symlink targets (relative, absolute, dangling)', async () => {
    const tree = await openTracked(isos.rr!);
    expect(tree.info.rock_ridge).toBe(true);
    expect(tree.info.joliet).toBe(true);
    expect(tree.info.volume_id).toBe('RR_TEST');
    const root = await tree.list('');
    expect(root.map((node) => node.name)).toContain('Mixed Case Name with spaces.txt');
    expect((await tree.stat('a.txt'))?.mode).toBe(0o640);
    expect((await tree.stat('bin/tool.sh'))?.mode).toBe(0o755);
    expect(await tree.stat('private')).toMatchObject({ type: 'directory', mode: 0o700 });
    expect(await tree.stat('rel-link')).toMatchObject({ type: 'symlink', target: 'a.txt', size: 0 });
    expect(await tree.stat('bin/up-link')).toMatchObject({ type: 'symlink', target: '../a.txt' });
    expect(await tree.stat('abs-link')).toMatchObject({ type: 'symlink', target: '/bin/tool.sh' });
    expect(await tree.stat('dangling')).toMatchObject({ type: 'symlink', target: 'nowhere/missing' });
    expect((await resolveTreePath(tree, 'rel-link'))?.path).toBe('a.txt');
    expect((await resolveTreePath(tree, 'bin/up-link'))?.path).toBe('a.txt');
    expect((await resolveTreePath(tree, 'abs-link'))?.path).toBe('bin/tool.sh');
    expect(await resolveTreePath(tree, 'dangling')).toBeNull();
    const symlinkRead = await rejection(tree.read('rel-link', 0, 10));
    expect(symlinkRead).toBeInstanceOf(TreeError);
    // Every node of the Rock Ridge tree, the way Linux (isoinfo -R) lists it.
    const listed = await run('isoinfo', ['-R', '-f', '-i', isos.rr!]);
    // isoinfo does not follow CL: it shows the relocated d8 under /rr_moved (and its placeholder as a file), where we show it in place.
    const isoinfoPaths = new Set(
      listed.stdout
        .split('\n')
        .filter((line) => line.startsWith('/') && line !== '/rr_moved')
        .map((line) => line.replace(/^\/rr_moved\//, `/${DEEP_DIRS.slice(0, 7).join('/')}/`)),
    );
    const ours = (await walk(tree)).map((node) => `/${node.path}`);
    expect(ours.sort()).toEqual([...isoinfoPaths].sort());
  });

  it('shows directories deeper than 8 levels in place (Rock Ridge CL/RE relocation honoured)', async () => {
    // The ISO 9660 side really is relocated (the plain tree has RR_MOVED).
    const plain = await run('isoinfo', ['-f', '-i', isos.rr!]);
    expect(plain.stdout).toMatch(/^\/RR_MOVED/m);
    const tree = await openTracked(isos.rr!);
    const node = await tree.stat(DEEP_FILE);
    expect(node).toMatchObject({ type: 'file', size: 'twelve levels down'.length, name: 'deep file.txt' });
    expect((await tree.read(DEEP_FILE, 0, 100)).toString()).toBe('twelve levels down');
    expect((await tree.list(DEEP_DIRS.slice(0, 9).join('/'))).map((entry) => entry.name)).toEqual(['d10']);
    expect(await tree.stat(DEEP_DIRS.slice(0, 8).join('/'))).toMatchObject({ type: 'directory', mode: 0o755 });
    // The relocated directory is not listed a second time where it was moved to.
    expect((await tree.list('')).map((entry) => entry.name)).not.toContain('rr_moved');
    const ids = (await walk(tree)).map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps node ids stable across reopening, with a fixed root id', async () => {
    const first = await openTracked(isos.rr!);
    const second = await openTracked(isos.rr!);
    const a = (await walk(first)).map((node) => [node.path, node.id]);
    // Different read order: deep first.
    await second.stat(DEEP_FILE);
    const b = (await walk(second)).map((node) => [node.path, node.id]);
    expect(b).toEqual(a);
    expect((await first.stat(''))?.id).toBe(1n);
    expect((await second.stat(''))?.type).toBe('directory');
  });

  it('answers misses and wrong types with TreeErrors', async () => {
    const tree = await openTracked(isos.rr!);
    expect(await tree.stat('no/such/file')).toBeNull();
    expect(await tree.stat('a.txt/below')).toBeNull();
    expect(await tree.stat('../etc/passwd')).toBeNull();
    for (const [promise, code] of [
      [tree.list('missing'), 'NOT_FOUND'],
      [tree.list('a.txt'), 'NOT_DIRECTORY'],
      [tree.read('bin', 0, 1), 'IS_DIRECTORY'],
      [tree.read('missing', 0, 1), 'NOT_FOUND'],
      [tree.extents('bin'), 'IS_DIRECTORY'],
      [tree.read('a.txt', -1, 1), 'OUTSIDE'],
      [tree.stat(Array.from({ length: 70 }, () => 'x').join('/')), 'LOOP'],
    ] as const) {
      const err = await rejection(promise);
      expect(err).toBeInstanceOf(TreeError);
      expect((err as TreeError).code).toBe(code);
    }
  });

  it('reports the El Torito BIOS and UEFI entries, pointing at isolinux.bin and efi.img', async () => {
    const tree = await openTracked(isos.boot!);
    const [bios, uefi] = tree.info.el_torito;
    const isolinux = await tree.extents('isolinux/isolinux.bin');
    const efi = await tree.extents('boot/grub/efi.img');
    const efiSize = (await tree.stat('boot/grub/efi.img'))!.size;
    expect(bios).toEqual({ platform: 'bios', bootable: true, emulation: 'no_emulation', load_rba: isolinux[0]!.offset / 2048, sector_count: 4 });
    expect(uefi).toEqual({ platform: 'uefi', bootable: true, emulation: 'no_emulation', load_rba: efi[0]!.offset / 2048, sector_count: Math.min(efiSize / 512, 0xffff) });
    expect(tree.info.el_torito).toHaveLength(2);
    expect(tree.info.limitations).toEqual([]);
    expect(tree.info.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(tree.info.volume_bytes).toBe((await stat(isos.boot!)).size);
  });

  it.skipIf(!haveInstaller)('reads the Debian installer kernel and initrd byte for byte, at odd offsets, past the end and through extents()', async () => {
    const tree = await openTracked(isos.boot!);
    for (const [path, original] of [
      ['install.amd/vmlinuz', DEBIAN_KERNEL],
      ['install.amd/initrd.gz', DEBIAN_INITRD],
    ] as const) {
      const expected = await readFile(original);
      const node = await tree.stat(path);
      expect(node?.size).toBe(expected.length);
      expect(await sha256(await readAll(tree, path, expected.length))).toBe(await sha256(expected));
      for (const offset of [0, 1, 2047, 2048, 12_345, expected.length - 3]) {
        expect((await tree.read(path, offset, 70_001)).equals(expected.subarray(offset, offset + 70_001))).toBe(true);
      }
      expect((await tree.read(path, expected.length - 10, 100)).equals(expected.subarray(expected.length - 10))).toBe(true);
      expect((await tree.read(path, expected.length + 5, 100)).length).toBe(0);
      expect((await tree.read(path, 100, 0)).length).toBe(0);
      // The extents name where the bytes sit in the ISO file itself.
      const extents = await tree.extents(path);
      expect(extents.reduce((sum, extent) => sum + extent.length, 0)).toBe(expected.length);
      const handle = await open(isos.boot!, 'r');
      try {
        let at = 0;
        for (const extent of extents) {
          expect(extent.file).toBe(isos.boot);
          const bytes = Buffer.alloc(extent.length);
          await handle.read(bytes, 0, extent.length, extent.offset);
          expect(bytes.equals(expected.subarray(at, at + extent.length))).toBe(true);
          at += extent.length;
        }
      } finally {
        await handle.close();
      }
    }
  });

  it('readIsoInfo reads metadata only: a few KiB of a large image, and a truncated image still answers', async () => {
    const source = await IsoSource.open(isos.boot!);
    try {
      const info = await readIsoInfoFrom(source);
      expect(info.el_torito).toHaveLength(2);
      expect(source.bytesRead).toBeLessThan(64 * 1024);
    } finally {
      await source.close();
    }
    const cut = join(work, 'truncated.iso');
    await copyFile(isos.boot!, cut);
    await truncate(cut, 1024 * 1024);
    const info = await readIsoInfo(cut);
    expect(info.el_torito).toHaveLength(2);
    expect(info.limitations.join(' ')).toMatch(/truncated/);
    const tree = await openTracked(cut);
    expect((await tree.list('')).length).toBeGreaterThan(0);
    const err = await rejection(tree.read('boot/grub/efi.img', 0, 10));
    expect(err).toBeInstanceOf(TreeError);
    expect((err as TreeError).code).toBe('CORRUPT');
  });

  it('refuses files that are not ISO images with VALIDATION_FAILED', async () => {
    const notIso = join(work, 'not.iso');
    await copyFile(isos.rr!, notIso);
    await truncate(notIso, 16 * 2048);
    for (const file of [notIso, join(work, 'missing.iso'), work]) {
      const err = await rejection(openIso(file));
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('VALIDATION_FAILED');
      expect(await rejection(readIsoInfo(file))).toBeInstanceOf(AppError);
    }
  });

  it('is unusable after close', async () => {
    const tree = await openIso(isos.rr!);
    await tree.close();
    expect(await rejection(tree.stat('a.txt'))).toBeInstanceOf(TreeError);
  });
});

describe.skipIf(!haveGenisoimage)('ISO 9660 reader on genisoimage UDF bridges', () => {
  let work = '';
  beforeAll(async () => {
    work = await makeIsoWorkDir();
  });
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  const entries: IsoFixtureEntry[] = [
    { kind: 'file', path: 'sources/boot.wim', content: 'wim image' },
    { kind: 'file', path: 'Setup Long Name.exe', content: 'setup' },
    { kind: 'file', path: 'big.txt', content: 'x'.repeat(5000) },
    { kind: 'file', path: DEEP_FILE, content: 'deep in udf' },
  ];

  it('with Rock Ridge: detects UDF, reads the ISO 9660 side and says so', async () => {
    const file = await buildIso(work, 'udf-rr.iso', { udf: true, joliet: true, rockRidge: true, relocateDeep: true, elTorito: { bios: true }, entries });
    const tree = await openIso(file);
    try {
      expect(tree.kind).toBe('iso9660');
      expect(tree.info).toMatchObject({ udf: true, rock_ridge: true });
      expect(tree.info.limitations.join(' ')).toMatch(/UDF-bridge image: only its ISO 9660 side is read/);
      expect(tree.info.el_torito[0]).toMatchObject({ platform: 'bios', emulation: 'no_emulation' });
      expect((await tree.read('sources/boot.wim', 0, 100)).toString()).toBe('wim image');
      expect((await tree.read(DEEP_FILE, 0, 100)).toString()).toBe('deep in udf');
    } finally {
      await tree.close();
    }
  });

  it('without Rock Ridge (like Windows media): reads the files from UDF, whatever the ISO 9660/Joliet side says', async () => {
    const file = await buildIso(work, 'udf-joliet.iso', { udf: true, joliet: true, rockRidge: false, entries });
    // Rename big.txt on the ISO 9660 and Joliet sides only: the UDF side still says big.txt.
    const source = await IsoSource.open(file);
    const set = await readDescriptorSet(source);
    await source.close();
    const image = await readFile(file);
    for (const [volume, name] of [
      [set.primary, Buffer.from('BIG.TXT;1', 'latin1')],
      [set.joliet, Buffer.from('big.txt', 'utf16le').swap16()],
    ] as const) {
      if (!volume) throw new Error('no Joliet descriptor');
      const start = volume.root.extentBlock * 2048;
      const at = image.subarray(start, start + volume.root.dataLength).indexOf(name);
      expect(at).toBeGreaterThan(0);
      image.set(Buffer.from(volume === set.joliet ? Buffer.from('bXg', 'utf16le').swap16() : Buffer.from('BXG')), start + at);
    }
    await writeFile(file, image);
    const tree = await openIso(file);
    try {
      expect(tree.kind).toBe('udf');
      expect(tree.info).toMatchObject({ udf: true, rock_ridge: false, joliet: true });
      expect(tree.info.limitations.join(' ')).toMatch(/files are read from its UDF side/);
      expect((await tree.list('')).map((node) => node.name).sort()).toEqual(['Setup Long Name.exe', 'big.txt', 'd1', 'sources']);
      expect((await tree.read('big.txt', 4990, 100)).toString()).toBe('x'.repeat(10));
      const [extent] = await tree.extents('big.txt');
      expect(image.subarray(extent!.offset, extent!.offset + extent!.length).toString()).toBe('x'.repeat(5000));
      expect((await tree.read('SOURCES/BOOT.WIM', 0, 100)).toString()).toBe('wim image');
      expect((await tree.read(DEEP_FILE, 0, 100)).toString()).toBe('deep in udf');
      expect(await tree.stat('sources')).toMatchObject({ type: 'directory' });
      expect((await tree.stat(''))?.id).toBe(1n);
      const again = await openIso(file);
      expect((await walk(again)).map((node) => node.id)).toEqual((await walk(tree)).map((node) => node.id));
      await again.close();
    } finally {
      await tree.close();
    }
  });
});
