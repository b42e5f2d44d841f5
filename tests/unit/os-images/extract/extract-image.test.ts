import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReadOnlyTree, TreeNode } from '../../../../src-main/core/read-only-tree.js';
import { AppError } from '../../../../src-main/core/errors.js';
import { detectImage } from '../../../../src-main/os-images/detect/index.js';
import { extractImage, type ExtractResult } from '../../../../src-main/os-images/extract/index.js';
import type { ExtractProgress, ExtractRequest } from '../../../../src-main/os-images/image-ports.js';
import type { Detection, ExtractMode } from '../../../../src-main/os-images/os-images-contract.js';
import { memoryTree, memoryTreeOnDisk, type MemoryEntry, type MemoryTree } from '../../../helpers/memory-tree.js';
import { DEBIAN_NETINST, isoInfo, WINDOWS_11 } from '../../../helpers/os-media.js';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'bootwright-extract-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

let counter = 0;
/** A fresh folder for one test: the backing file and the boot root live there. */
async function place(): Promise<{ dir: string; target: string; backing: string }> {
  counter += 1;
  const dir = path.join(work, `case-${counter}`);
  await mkdir(dir);
  return { dir, target: path.join(dir, 'images', 'debian'), backing: path.join(dir, 'image.bin') };
}

/** Distinct bytes per file, so a byte taken from the wrong offset shows. */
function content(seed: number, size: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let index = 0; index < size; index += 1) bytes[index] = (index * 31 + seed * 7 + (index >> 8)) & 0xff;
  return bytes;
}

/** The Debian netinst with bigger, distinct binaries. */
const DEBIAN: Record<string, MemoryEntry> = {
  ...DEBIAN_NETINST,
  'install.amd/vmlinuz': content(1, 70_001),
  'install.amd/initrd.gz': content(2, 150_000),
  'install.amd/gtk/initrd.gz': content(3, 90_000),
  'EFI/boot/bootx64.efi': content(4, 5000),
  'pool/main/l/linux-signed-amd64/linux-image-6.1.0-18-amd64_6.1.76-1_amd64.deb': content(5, 40_000),
  'doc/empty.txt': '',
};

async function detectionOf(tree: ReadOnlyTree): Promise<Detection> {
  return detectImage({ tree, info: isoInfo(), fileName: 'debian.iso', catalog: () => null });
}

function request(tree: ReadOnlyTree, target: string, fields: Partial<ExtractRequest> & { mode?: ExtractMode } = {}): ExtractRequest {
  return { tree, detection: null, target, mode: 'boot', overwrite: false, signal: new AbortController().signal, onProgress: () => undefined, ...fields };
}

/** Every file under `root` (relative, '/'-separated) with its bytes; symlinks as "-> target". */
async function snapshot(root: string): Promise<Map<string, string | Buffer>> {
  const out = new Map<string, string | Buffer>();
  const walk = async (dir: string, rel: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isSymbolicLink()) out.set(childRel, `-> ${await readlink(full)}`);
      else if (entry.isDirectory()) await walk(full, childRel);
      else out.set(childRel, await readFile(full));
    }
  };
  await walk(root, '');
  return out;
}

function expectBytes(files: Map<string, string | Buffer>, entries: Record<string, MemoryEntry>, paths: string[]): void {
  for (const file of paths) {
    const expected = entries[file];
    const want = typeof expected === 'string' ? Buffer.from(expected) : expected;
    const got = files.get(file);
    expect(Buffer.isBuffer(want) && Buffer.isBuffer(got), file).toBe(true);
    // Buffer.equals, not toEqual: a deep comparison of 100 KB buffers element by element takes seconds.
    expect(Buffer.isBuffer(got) && Buffer.isBuffer(want) && got.equals(want), `${file} byte-exact`).toBe(true);
  }
}

describe('extractImage: boot mode', () => {
  it('copies kernel, initrds, loaders, menus and .disk from the detection, byte-exact, streamed from extents', async () => {
    const { target, backing } = await place();
    const tree = await memoryTreeOnDisk(DEBIAN, backing, { extentSize: 10_000 });
    const detection = await detectionOf(tree);
    const readsBefore = tree.calls.reads.length;
    const result = await extractImage(request(tree, target, { detection }));
    const files = await snapshot(target);
    expectBytes(files, DEBIAN, ['install.amd/vmlinuz', 'install.amd/gtk/initrd.gz', 'EFI/boot/bootx64.efi', 'EFI/boot/grubx64.efi', '.disk/info', 'isolinux/txt.cfg', 'isolinux/gtk.cfg', 'boot/grub/grub.cfg', 'EFI/boot/grub.cfg', 'boot/grub/x86_64-efi/grub.cfg']);
    // Not boot files: the package pool, the archive metadata, documentation.
    expect([...files.keys()].filter((file) => /^(pool|dists|doc)\//.test(file))).toEqual([]);
    expect(result.files).toBe(files.size);
    expect(result.bytes).toBe([...files.values()].reduce((sum, data) => sum + data.length, 0));
    // File bytes came from the backing file's extents; the tree's read() served only the menus detection re-reads.
    const copiedReads = tree.calls.reads.slice(readsBefore).filter((read) => !/\.cfg$/.test(read.path));
    expect(copiedReads).toEqual([]);
  });

  it('Windows: boot.wim with bootmgr, BCD and boot.sdi, not install.wim', async () => {
    const { target, backing } = await place();
    const tree = await memoryTreeOnDisk(WINDOWS_11, backing);
    const detection = await detectImage({ tree, info: isoInfo(), fileName: 'Win11_24H2_English_x64.iso', catalog: () => null });
    await extractImage(request(tree, target, { detection }));
    const files = [...(await snapshot(target)).keys()].sort();
    expect(files).toEqual(expect.arrayContaining(['sources/boot.wim', 'bootmgr', 'bootmgr.efi', 'boot/bcd', 'boot/boot.sdi', 'efi/microsoft/boot/bcd', 'efi/boot/bootx64.efi', 'sources/idwbinfo.txt']));
    expect(files).not.toContain('sources/install.wim');
    expect(files).not.toContain('setup.exe');
  });

  it('without a detection takes the fixed list of boot places', async () => {
    const { target, backing } = await place();
    const tree = await memoryTreeOnDisk(DEBIAN, backing);
    await extractImage(request(tree, target));
    const files = [...(await snapshot(target)).keys()];
    expect(files).toEqual(expect.arrayContaining(['install.amd/vmlinuz', 'install.amd/initrd.gz', 'install.amd/gtk/initrd.gz', 'isolinux/isolinux.cfg', 'boot/grub/grub.cfg', 'EFI/boot/bootx64.efi', '.disk/info']));
    expect(files.filter((file) => file.startsWith('pool/'))).toEqual([]);
  });

  it('brings what the netboot command line fetches from the image (live squashfs)', async () => {
    const { target } = await place();
    const entries: Record<string, MemoryEntry> = { 'live/vmlinuz': 'k', 'live/initrd.img': 'i', 'live/filesystem.squashfs': content(9, 3000), 'live/other.squashfs': 'x' };
    const detection: Detection = {
      family: 'debian', distro: 'Debian', version: '12', arch: 'amd64', boot_method: 'linux', kernel: 'live/vmlinuz', initrds: ['live/initrd.img'],
      iso_cmdline: '', netboot_cmdline: 'boot=live fetch={{ image_url }}live/filesystem.squashfs', boot_wim: null, efi_loaders: [], catalog_entry: null, evidence: [], notes: [],
    };
    await extractImage(request(memoryTree(entries), target, { detection }));
    expect([...(await snapshot(target)).keys()].sort()).toEqual(['live/filesystem.squashfs', 'live/initrd.img', 'live/vmlinuz']);
  });
});

describe('extractImage: full mode', () => {
  it('copies every file byte-exact, empty files and directories included', async () => {
    const { target, backing } = await place();
    const entries: Record<string, MemoryEntry> = { ...DEBIAN, 'empty-dir': { dir: true } };
    const tree = await memoryTreeOnDisk(entries, backing, { extentSize: 4096 });
    const progress: ExtractProgress[] = [];
    const result = await extractImage(request(tree, target, { mode: 'full', onProgress: (update) => progress.push(update) }));
    const files = await snapshot(target);
    const expectedFiles = Object.keys(entries).filter((key) => key !== 'empty-dir');
    expect([...files.keys()].sort()).toEqual(expectedFiles.sort());
    expectBytes(files, entries, expectedFiles);
    expect((await stat(path.join(target, 'empty-dir'))).isDirectory()).toBe(true);
    const totalBytes = expectedFiles.reduce((sum, file) => sum + (files.get(file)?.length ?? 0), 0);
    expect(result).toMatchObject({ files: expectedFiles.length, bytes: totalBytes, skipped: [] });
    // No read() at all: every byte came through the extents.
    expect(tree.calls.reads).toEqual([]);
    // Progress: totals fixed, counts never go back, the last report is complete.
    expect(progress.length).toBeGreaterThanOrEqual(2);
    for (const [index, update] of progress.entries()) {
      expect(update.total_files).toBe(expectedFiles.length);
      expect(update.total_bytes).toBe(totalBytes);
      const before = progress[index - 1];
      if (before) {
        expect(update.files).toBeGreaterThanOrEqual(before.files);
        expect(update.bytes).toBeGreaterThanOrEqual(before.bytes);
      }
    }
    expect(progress.at(-1)).toEqual({ files: expectedFiles.length, bytes: totalBytes, total_files: expectedFiles.length, total_bytes: totalBytes });
  });

  it('keeps the files\' modification times', async () => {
    const { target } = await place();
    const when = Date.UTC(2023, 0, 2, 3, 4, 5);
    await extractImage(request(memoryTree({ 'a/b.txt': 'hello' }, { mtimeMs: when }), target, { mode: 'full' }));
    expect((await stat(path.join(target, 'a/b.txt'))).mtimeMs).toBe(when);
  });

  it('reads through tree.read when the tree has no backing file', async () => {
    const { target } = await place();
    const big = content(7, 2_500_000);
    const tree = memoryTree({ 'big.bin': big, 'small.txt': 'x' });
    await extractImage(request(tree, target, { mode: 'full' }));
    expect((await readFile(path.join(target, 'big.bin'))).equals(big)).toBe(true);
    expect(tree.calls.reads.filter((read) => read.path === 'big.bin').length).toBe(3); // 1 MiB chunks
  });

  it('a backing file shorter than its extents fails, and leaves nothing behind', async () => {
    const { dir, target, backing } = await place();
    const tree = await memoryTreeOnDisk({ 'a.bin': content(1, 50_000) }, backing);
    await truncate(backing, 20_000);
    await expect(extractImage(request(tree, target, { mode: 'full' }))).rejects.toThrow(/ends after/);
    expect(await readdir(path.join(dir, 'images'))).toEqual([]);
  });
});

describe('extractImage: abort, conflict, overwrite', () => {
  /** A tree that aborts the extraction when the copy reaches its third file. */
  function abortingTree(tree: MemoryTree, controller: AbortController): ReadOnlyTree {
    let copies = 0;
    return {
      kind: tree.kind,
      stat: (p) => tree.stat(p),
      list: (p) => tree.list(p),
      read: (p, o, l) => tree.read(p, o, l),
      extents: (p) => {
        copies += 1;
        if (copies === 3) controller.abort(new Error('stopped by the test'));
        return tree.extents(p);
      },
      close: () => tree.close(),
    };
  }

  it('an abort removes the partial output and publishes nothing', async () => {
    const { dir, target, backing } = await place();
    const controller = new AbortController();
    const tree = abortingTree(await memoryTreeOnDisk(DEBIAN, backing), controller);
    await expect(extractImage(request(tree, target, { mode: 'full', signal: controller.signal }))).rejects.toThrow(/stopped by the test|abort/i);
    expect(await readdir(path.join(dir, 'images'))).toEqual([]);
  });

  it('an already aborted signal writes nothing', async () => {
    const { dir, target } = await place();
    const controller = new AbortController();
    controller.abort();
    await expect(extractImage(request(memoryTree({ a: 'a' }), target, { signal: controller.signal }))).rejects.toThrow();
    await expect(lstat(path.join(dir, 'images'))).rejects.toThrow(/ENOENT/);
  });

  it('an existing target without overwrite is a CONFLICT and stays as it was', async () => {
    const { target } = await place();
    await mkdir(target, { recursive: true });
    await writeFile(path.join(target, 'old.txt'), 'old');
    const error = await extractImage(request(memoryTree({ a: 'a' }), target, { mode: 'full' })).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('CONFLICT');
    expect(await readdir(target)).toEqual(['old.txt']);
  });

  it('overwrite replaces the old directory only after success, and an aborted overwrite keeps the old one', async () => {
    const { dir, target, backing } = await place();
    await mkdir(target, { recursive: true });
    await writeFile(path.join(target, 'old.txt'), 'old');
    const controller = new AbortController();
    const tree = await memoryTreeOnDisk(DEBIAN, backing);
    await expect(extractImage(request(abortingTree(tree, controller), target, { mode: 'full', overwrite: true, signal: controller.signal }))).rejects.toThrow();
    expect(await readdir(target)).toEqual(['old.txt']);
    const result: ExtractResult = await extractImage(request(tree, target, { mode: 'full', overwrite: true }));
    expect(result.files).toBe(Object.keys(DEBIAN).length);
    expect(await readdir(target)).not.toContain('old.txt');
    // No staging or old directories left beside the target.
    expect(await readdir(path.join(dir, 'images'))).toEqual(['debian']);
  });

  it('refuses a relative target', async () => {
    await expect(extractImage(request(memoryTree({ a: 'a' }), 'images/x'))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

describe('extractImage: hostile trees', () => {
  /** A tree whose root listing also holds nodes with names no file may have. */
  function hostileTree(tree: MemoryTree): ReadOnlyTree {
    const fake = (name: string, type: TreeNode['type'] = 'file'): TreeNode => ({ name, path: name, type, size: 1, mtimeMs: 0, mode: 0o444, id: 999n });
    return {
      kind: 'hostile',
      stat: (p) => tree.stat(p),
      list: async (p) => {
        const real = await tree.list(p);
        if (p !== '') return real;
        const first = real[0];
        return [
          ...real,
          fake('..', 'directory'),
          fake('.', 'directory'),
          fake(''),
          fake('a/../../escape'),
          fake('/etc/passwd'),
          fake('nul\u0000name'),
          fake('back\\slash'),
          fake('x'.repeat(300)),
          ...(first ? [first] : []),
        ];
      },
      read: (p, o, l) => tree.read(p, o, l),
      extents: (p) => tree.extents(p),
      close: () => tree.close(),
    };
  }

  it('refuses unsafe names and duplicates (skipped and reported), extracts the rest, writes nothing outside', async () => {
    const { dir, target } = await place();
    const result = await extractImage(request(hostileTree(memoryTree({ 'good.txt': 'good', 'sub/ok.txt': 'ok' })), target, { mode: 'full' }));
    expect([...(await snapshot(target)).keys()].sort()).toEqual(['good.txt', 'sub/ok.txt']);
    expect(result.files).toBe(2);
    expect(result.skipped?.map((entry) => entry.reason)).toHaveLength(9);
    expect(result.skipped?.some((entry) => /second entry/.test(entry.reason))).toBe(true);
    expect(result.skipped?.every((entry) => !entry.path.includes('\u0000'))).toBe(true);
    expect((await readdir(dir)).sort()).toEqual(['images']);
    await expect(lstat(path.join(dir, 'escape'))).rejects.toThrow(/ENOENT/);
  });

  it('recreates symlinks inside the image as relative links, skips those that lead out', async () => {
    const { target } = await place();
    const tree = memoryTree({
      'casper/vmlinuz-6.8.0-41-generic': 'kernel',
      'casper/vmlinuz': { symlink: 'vmlinuz-6.8.0-41-generic' },
      'boot/kernel': { symlink: '/casper/vmlinuz-6.8.0-41-generic' },
      'boot/up': { symlink: '../casper' },
      'boot/root': { symlink: '/' },
      'boot/out': { symlink: '../../etc/passwd' },
      'boot/abs-out': { symlink: '/../../etc/shadow' },
    });
    const result = await extractImage(request(tree, target, { mode: 'full' }));
    const files = await snapshot(target);
    expect(files.get('casper/vmlinuz')).toBe('-> vmlinuz-6.8.0-41-generic');
    expect(files.get('boot/kernel')).toBe('-> ../casper/vmlinuz-6.8.0-41-generic');
    expect(files.get('boot/up')).toBe('-> ../casper');
    expect(files.get('boot/root')).toBe('-> ..');
    expect(files.has('boot/out')).toBe(false);
    expect(files.has('boot/abs-out')).toBe(false);
    expect(result.skipped?.map((entry) => entry.path).sort()).toEqual(['boot/abs-out', 'boot/out']);
    expect(await readFile(path.join(target, 'boot/kernel'), 'utf8')).toBe('kernel');
  });

  it('boot mode follows a kernel recorded as a symlink to its file', async () => {
    const { target } = await place();
    const tree = memoryTree({ 'casper/vmlinuz-6.8': 'kernel', 'casper/vmlinuz': { symlink: 'vmlinuz-6.8' } });
    await extractImage(request(tree, target));
    const files = await snapshot(target);
    expect(files.get('casper/vmlinuz')).toBe('-> vmlinuz-6.8');
    expect(files.get('casper/vmlinuz-6.8')).toEqual(Buffer.from('kernel'));
  });
});
