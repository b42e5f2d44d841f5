import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectImage } from '../../../../src-main/os-images/detect/index.js';
import { extractImage } from '../../../../src-main/os-images/extract/index.js';
import type { ExtractProgress } from '../../../../src-main/os-images/image-ports.js';
import { folderBackedTree } from '../../../helpers/memory-tree.js';
import { isoInfo } from '../../../helpers/os-media.js';

/*
 * The real Debian 12 installer's kernel and initrd (package
 * debian-installer-12-netboot-amd64), laid out as a Debian CD lays them
 * out, read through a folder-backed tree whose extents are the real files:
 * detection finds them, extraction streams their 50 MB byte for byte.
 */

const DI = '/usr/lib/debian-installer/images/12/amd64/text/debian-installer/amd64';
const missing = existsSync(path.join(DI, 'linux')) ? null : `${DI}/linux is missing (apt-get install debian-installer-12-netboot-amd64)`;
if (missing) console.log(`skipping the real installer extraction: ${missing}`);

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

let work: string;
let medium: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'bootwright-real-di-'));
  medium = path.join(work, 'medium');
  if (missing) return;
  await mkdir(path.join(medium, 'install.amd'), { recursive: true });
  await mkdir(path.join(medium, 'isolinux'), { recursive: true });
  await mkdir(path.join(medium, 'EFI/boot'), { recursive: true });
  await mkdir(path.join(medium, '.disk'), { recursive: true });
  await copyFile(path.join(DI, 'linux'), path.join(medium, 'install.amd/vmlinuz'));
  await copyFile(path.join(DI, 'initrd.gz'), path.join(medium, 'install.amd/initrd.gz'));
  await copyFile(path.join(DI, 'grubx64.efi'), path.join(medium, 'EFI/boot/grubx64.efi'));
  await writeFile(path.join(medium, '.disk/info'), 'Debian GNU/Linux 12.5.0 "Bookworm" - Official amd64 NETINST with firmware 20240210-11:27');
  await writeFile(path.join(medium, 'isolinux/isolinux.cfg'), 'include txt.cfg\ndefault install\n');
  await writeFile(path.join(medium, 'isolinux/txt.cfg'), 'label install\n\tmenu label ^Install\n\tkernel /install.amd/vmlinuz\n\tappend vga=788 initrd=/install.amd/initrd.gz --- quiet \n');
  await writeFile(path.join(medium, 'README.txt'), 'not a boot file\n');
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe.skipIf(missing !== null)('extracting the real Debian installer from a folder-backed tree', () => {
  it('detects it and extracts the boot files byte for byte, streamed from the files themselves', async () => {
    const tree = folderBackedTree(medium);
    const detection = await detectImage({ tree, info: isoInfo(), fileName: 'debian-12.5.0-amd64-netinst.iso', catalog: () => null });
    expect(detection).toMatchObject({ family: 'debian', version: '12.5.0', kernel: 'install.amd/vmlinuz', initrds: ['install.amd/initrd.gz'], iso_cmdline: 'vga=788 --- quiet' });
    const target = path.join(work, 'boot', 'images', 'debian-12');
    const progress: ExtractProgress[] = [];
    const result = await extractImage({ tree, detection, target, mode: 'boot', overwrite: false, signal: new AbortController().signal, onProgress: (update) => progress.push(update) });
    for (const file of ['install.amd/vmlinuz', 'install.amd/initrd.gz', 'EFI/boot/grubx64.efi', '.disk/info', 'isolinux/txt.cfg']) {
      expect(await sha256(path.join(target, file)), file).toBe(await sha256(path.join(medium, file)));
    }
    expect(await readdir(target)).not.toContain('README.txt');
    expect(result.bytes).toBeGreaterThan(40_000_000);
    expect(progress.at(-1)).toMatchObject({ files: result.files, bytes: result.bytes });
  });
});
