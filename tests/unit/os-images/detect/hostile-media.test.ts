import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { detectImage, MAX_CONFIG_FILES, MAX_TEXT_BYTES } from '../../../../src-main/os-images/detect/index.js';
import { DetectionSchema, type Detection } from '../../../../src-main/os-images/os-images-contract.js';
import { memoryTree, type MemoryEntry, type MemoryTree } from '../../../helpers/memory-tree.js';
import { DEBIAN_NETINST, isoInfo, ROCKY_DVD } from '../../../helpers/os-media.js';
import { prng } from '../../../helpers/prng.js';

/*
 * Media built to hurt a detector: configs of megabytes, binary garbage
 * where text belongs, include loops and chains, huge directories, menu
 * paths that climb out of the tree. Detection must end, read a bounded
 * amount and return a Detection the contract accepts.
 */

async function detect(files: Record<string, MemoryEntry>): Promise<{ detection: Detection; tree: MemoryTree }> {
  const tree = memoryTree(files);
  const detection = await detectImage({ tree, info: isoInfo(), fileName: 'hostile.iso', catalog: () => null });
  expect(Value.Check(DetectionSchema, detection)).toBe(true);
  return { detection, tree };
}

function bytesRead(tree: MemoryTree): number {
  return tree.calls.reads.reduce((sum, read) => sum + read.length, 0);
}


function garbage(random: () => number, size: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let index = 0; index < size; index += 1) bytes[index] = Math.floor(random() * 256);
  return bytes;
}

describe('detectImage on hostile media', () => {
  it('reads at most MAX_TEXT_BYTES of a 6 MB GRUB config and still finds the entry at its start', async () => {
    const entry = "menuentry 'Install' {\n linux /install.amd/vmlinuz --- quiet\n initrd /install.amd/initrd.gz\n}\n";
    const filler = "menuentry 'x' {\n linux /nowhere ---\n}\n".repeat(200_000);
    const { detection, tree } = await detect({ '.disk/info': DEBIAN_NETINST['.disk/info'] as string, 'install.amd/vmlinuz': 'k', 'install.amd/initrd.gz': 'i', 'boot/grub/grub.cfg': entry + filler });
    expect(detection.kernel).toBe('install.amd/vmlinuz');
    expect(detection.iso_cmdline).toBe('--- quiet');
    const grubReads = tree.calls.reads.filter((read) => read.path === 'boot/grub/grub.cfg');
    expect(grubReads.every((read) => read.length <= MAX_TEXT_BYTES)).toBe(true);
  });

  it('a single line of a megabyte, no newline at all', async () => {
    const { detection } = await detect({ 'isolinux/isolinux.cfg': `label x kernel ${'a'.repeat(1024 * 1024)}`, 'boot/grub/grub.cfg': `menuentry ${'"'.repeat(500_000)}` });
    expect(detection.family).toBe('other');
  });

  it('binary garbage in every file detection reads', async () => {
    const random = prng(14);
    for (let round = 0; round < 20; round += 1) {
      const files: Record<string, MemoryEntry> = {};
      for (const path of ['.disk/info', '.treeinfo', 'isolinux/isolinux.cfg', 'isolinux/txt.cfg', 'boot/grub/grub.cfg', 'EFI/BOOT/grub.cfg', 'media.1/products', 'content', '.alpine-release', 'arch/version', 'sources/idwbinfo.txt', 'README.TXT', 'GParted-Live-Version']) {
        files[path] = garbage(random, Math.floor(random() * 8192));
      }
      files['install.amd/vmlinuz'] = 'k';
      files['images/pxeboot/vmlinuz'] = 'k';
      await detect(files);
    }
  });

  it('mutated real menus (bytes flipped, lines cut) never throw', async () => {
    const random = prng(1414);
    const sources = [DEBIAN_NETINST, ROCKY_DVD];
    for (let round = 0; round < 60; round += 1) {
      const base = sources[round % sources.length] ?? DEBIAN_NETINST;
      const files: Record<string, MemoryEntry> = {};
      for (const [path, value] of Object.entries(base)) {
        if (typeof value !== 'string') {
          files[path] = value;
          continue;
        }
        const bytes = Buffer.from(value, 'utf8');
        for (let flips = Math.floor(random() * 8); flips > 0 && bytes.length > 0; flips -= 1) bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
        files[path] = bytes.subarray(0, Math.floor(random() * (bytes.length + 1)));
      }
      await detect(files);
    }
  });

  it('GRUB source/configfile loops end: self, a↔b, and a chain through $prefix', async () => {
    const { detection, tree } = await detect({
      'boot/grub/grub.cfg': 'source /boot/grub/grub.cfg\nsource /boot/grub/a.cfg\nmenuentry "Go" {\n linux /k quiet\n}\n',
      'boot/grub/a.cfg': 'set prefix=/boot/grub\nsource $prefix/b.cfg\n',
      'boot/grub/b.cfg': 'configfile ${prefix}/a.cfg\nsource (cd0)/boot/grub/grub.cfg\n',
      'EFI/BOOT/grub.cfg': 'configfile /EFI/BOOT/grub.cfg\n',
      k: 'k',
    });
    expect(detection.notes.join(' ')).toMatch(/boots k with "quiet"/);
    const configReads = new Set(tree.calls.reads.map((read) => read.path));
    expect(configReads).toEqual(new Set(['boot/grub/grub.cfg', 'boot/grub/a.cfg', 'boot/grub/b.cfg', 'EFI/BOOT/grub.cfg']));
  });

  it('an include chain of 200 files stops after MAX_CONFIG_FILES', async () => {
    const files: Record<string, MemoryEntry> = { 'isolinux/isolinux.cfg': 'include c0.cfg\n' };
    for (let index = 0; index < 200; index += 1) files[`isolinux/c${index}.cfg`] = `label l${index}\n kernel /k\ninclude c${index + 1}.cfg\n`;
    files['isolinux/c0.cfg'] = 'include c1.cfg\ninclude c0.cfg\ninclude ../isolinux/c0.cfg\n';
    files.k = 'k';
    const { tree } = await detect(files);
    const configs = new Set(tree.calls.reads.map((read) => read.path).filter((path) => path.startsWith('isolinux/')));
    expect(configs.size).toBeLessThanOrEqual(MAX_CONFIG_FILES);
    expect(bytesRead(tree)).toBeLessThan(MAX_CONFIG_FILES * 1024);
  });

  it('menu paths that climb out of the tree or use variables are ignored', async () => {
    const { detection } = await detect({
      'isolinux/isolinux.cfg': 'default a\nlabel a\n kernel ../../../../etc/passwd\n append initrd=/../x quiet\nlabel b\n kernel $kernel\n',
      'boot/grub/grub.cfg': 'menuentry "x" {\n linux /../../k\n initrd ${i}\n}\n',
      k: 'k',
    });
    expect(detection).toMatchObject({ family: 'other', boot_method: 'sanboot', kernel: null });
    expect(detection.notes.join(' ')).not.toMatch(/passwd/);
  });

  it('a root directory of 20 000 entries is cut, detection still ends and finds what sits early', async () => {
    const files: Record<string, MemoryEntry> = { '.treeinfo': ROCKY_DVD['.treeinfo'] as string, 'images/pxeboot/vmlinuz': 'k', 'images/pxeboot/initrd.img': 'i' };
    for (let index = 0; index < 20_000; index += 1) files[`f${index}`] = '';
    const { detection, tree } = await detect(files);
    expect(detection.family).toBe('rhel');
    // Listings are cached: the root is listed once, whatever the number of lookups.
    expect(tree.calls.lists.filter((path) => path === '').length).toBe(1);
  });

  it('unbalanced braces and stray keywords in GRUB do not confuse the entries that are well formed', async () => {
    const { detection } = await detect({
      'boot/grub/grub.cfg': '}\n}\nmenuentry "A" {\n linux /k one\n}\n}}\nmenuentry "B" {\n{\n linux /k two\n}\ninitrd /nothing\nlinux /k three\n',
      k: 'k',
    });
    expect(detection.notes.join(' ')).toMatch(/boots k with "one"/);
  });
});
