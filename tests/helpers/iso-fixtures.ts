import { chmod, copyFile, mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { MemoryEntry } from './memory-tree.js';
import { findTool, run } from './netns.js';

/*
 * Builds real ISO images for tests with Debian's tools: `xorriso -as mkisofs`
 * by default, `genisoimage` where xorriso cannot (UDF bridge: `-udf`). The
 * caller describes the files; the helper stages them in a folder, adds the
 * boot setup asked for (isolinux for BIOS, an EFI FAT image for UEFI, the
 * Debian installer's kernel and initrd) and returns the ISO's path.
 *
 *   const work = await makeIsoWorkDir();
 *   const iso = await buildIso(work, 'plain.iso', { entries: [{ kind: 'file', path: 'a.txt', content: 'hi' }] });
 *   ...
 *   await rm(work, { recursive: true, force: true });
 */

export const DEBIAN_INSTALLER_DIR = '/usr/lib/debian-installer/images/12/amd64/text/debian-installer/amd64';
export const DEBIAN_KERNEL = `${DEBIAN_INSTALLER_DIR}/linux`;
export const DEBIAN_INITRD = `${DEBIAN_INSTALLER_DIR}/initrd.gz`;
const ISOLINUX_BIN = '/usr/lib/ISOLINUX/isolinux.bin';
const LDLINUX_C32 = '/usr/lib/syslinux/modules/bios/ldlinux.c32';
const GRUB_EFI = '/usr/lib/grub/x86_64-efi/monolithic/grubx64.efi';

export type IsoFixtureEntry =
  /** A file with `content`, or the bytes of `source` (grafted, not copied: a 4 GiB sparse source costs nothing). */
  | { kind: 'file'; path: string; content?: string | Buffer; source?: string; mode?: number; mtime?: Date }
  | { kind: 'dir'; path: string; mode?: number }
  | { kind: 'symlink'; path: string; target: string };

/** The shared detection media (os-media.ts, in-memory trees) as ISO fixture entries, to build them as real ISOs. */
export function mediaEntries(media: Record<string, MemoryEntry>): IsoFixtureEntry[] {
  return Object.entries(media).map(([file, entry]): IsoFixtureEntry => {
    if (typeof entry === 'string' || Buffer.isBuffer(entry)) return { kind: 'file', path: file, content: entry };
    if ('symlink' in entry) return { kind: 'symlink', path: file, target: entry.symlink };
    return { kind: 'dir', path: file };
  });
}

export interface IsoFixtureSpec {
  entries?: IsoFixtureEntry[];
  /** Volume identifier (default BOOTWRIGHT_TEST). */
  volumeId?: string;
  /** Rock Ridge extensions (default true). */
  rockRidge?: boolean;
  /** A Joliet tree; 'long' allows 103-character names. */
  joliet?: boolean | 'long';
  /** ISO 9660 conformance level (1: 8.3 names; 2: 31 characters; 3: multi-extent files > 4 GiB). Default: the tool's. */
  isoLevel?: 1 | 2 | 3 | 4;
  /** El Torito entries: BIOS (isolinux, no emulation) and/or UEFI (an EFI FAT image, no emulation). */
  elTorito?: { bios?: boolean; uefi?: boolean };
  /** Relocate directories deeper than 8 levels into rr_moved (Rock Ridge CL/PL/RE). */
  relocateDeep?: boolean;
  /** A UDF bridge (built with genisoimage -udf). */
  udf?: boolean;
  /** Adds install.amd/vmlinuz and install.amd/initrd.gz (the Debian installer's, grafted) and an isolinux.cfg booting them. */
  debianInstaller?: boolean;
  /** Force the tool (genisoimage is chosen automatically for udf). */
  tool?: 'xorriso' | 'genisoimage';
  /** More arguments for the tool, before the source folder. */
  extraArgs?: string[];
}

/** The tool a spec needs. */
export function isoToolFor(spec: Pick<IsoFixtureSpec, 'udf' | 'tool'>): 'xorriso' | 'genisoimage' {
  return spec.tool ?? (spec.udf ? 'genisoimage' : 'xorriso');
}

/**
 * Whether the tool is installed; prints why `what` is skipped when it is not
 * (in CI a missing tool is an error: .ci/run installs xorriso and genisoimage).
 */
export function isoToolPresent(tool: 'xorriso' | 'genisoimage', what: string): boolean {
  if (findTool(tool)) return true;
  if (process.env.CI) throw new Error(`${tool} is not installed: .ci/run installs it (APT_PACKAGES)`);
  console.warn(`skipping ${what}: ${tool} is not installed`);
  return false;
}

/** Whether the Debian installer's kernel and initrd are installed (debian-installer-12-netboot-amd64); prints why not. */
export function debianInstallerPresent(what: string): boolean {
  if (existsSync(DEBIAN_KERNEL) && existsSync(DEBIAN_INITRD)) return true;
  if (process.env.CI) throw new Error('debian-installer-12-netboot-amd64 is not installed: .ci/run installs it');
  console.warn(`skipping ${what}: the Debian installer images (${DEBIAN_INSTALLER_DIR}) are not installed`);
  return false;
}

/** A fresh folder under the system temp dir for ISOs and their staging trees; the caller removes it. */
export function makeIsoWorkDir(prefix = 'bw-iso-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

async function stageEntries(root: string, entries: readonly IsoFixtureEntry[], grafts: string[]): Promise<void> {
  for (const entry of entries) {
    const at = join(root, entry.path);
    if (entry.kind === 'dir') {
      await mkdir(at, { recursive: true });
      if (entry.mode !== undefined) await chmod(at, entry.mode);
      continue;
    }
    await mkdir(dirname(at), { recursive: true });
    if (entry.kind === 'symlink') {
      await symlink(entry.target, at);
      continue;
    }
    if (entry.source !== undefined) {
      // Grafted by the tool (-graft-points): no copy of large sources.
      grafts.push(`/${entry.path}=${entry.source}`);
      continue;
    }
    await writeFile(at, entry.content ?? '');
    if (entry.mode !== undefined) await chmod(at, entry.mode);
    if (entry.mtime) await utimes(at, entry.mtime, entry.mtime);
  }
}

async function makeEfiImage(file: string): Promise<void> {
  const loader = existsSync(GRUB_EFI) ? GRUB_EFI : null;
  const mkfs = findTool('mkfs.vfat');
  const mcopy = findTool('mcopy');
  const mmd = findTool('mmd');
  if (loader && mkfs && mcopy && mmd) {
    // A real EFI system partition image holding EFI/BOOT/BOOTX64.EFI (GRUB), like distribution ISOs.
    const made = await run(mkfs, ['-C', file, '8192']);
    if (made.code !== 0) throw new Error(`mkfs.vfat failed: ${made.stderr}`);
    for (const folder of ['::/EFI', '::/EFI/BOOT']) {
      const result = await run(mmd, ['-i', file, folder]);
      if (result.code !== 0) throw new Error(`mmd failed: ${result.stderr}`);
    }
    const copied = await run(mcopy, ['-i', file, loader, '::/EFI/BOOT/BOOTX64.EFI']);
    if (copied.code !== 0) throw new Error(`mcopy failed: ${copied.stderr}`);
    return;
  }
  // The reader only needs the El Torito entry; any small image does.
  await writeFile(file, Buffer.alloc(64 * 1024));
}

async function stageBoot(root: string, spec: IsoFixtureSpec, args: string[], grafts: string[]): Promise<void> {
  if (spec.debianInstaller) {
    grafts.push(`/install.amd/vmlinuz=${DEBIAN_KERNEL}`, `/install.amd/initrd.gz=${DEBIAN_INITRD}`);
  }
  if (spec.elTorito?.bios) {
    await mkdir(join(root, 'isolinux'), { recursive: true });
    // Copied: -boot-info-table patches the boot image (genisoimage patches its source file).
    await copyFile(ISOLINUX_BIN, join(root, 'isolinux/isolinux.bin'));
    if (existsSync(LDLINUX_C32)) await copyFile(LDLINUX_C32, join(root, 'isolinux/ldlinux.c32'));
    const cfg = spec.debianInstaller
      ? 'default install\nprompt 0\ntimeout 1\nlabel install\n  kernel /install.amd/vmlinuz\n  append vga=788 initrd=/install.amd/initrd.gz --- quiet\n'
      : 'default test\nprompt 0\nlabel test\n  kernel /vmlinuz\n';
    await writeFile(join(root, 'isolinux/isolinux.cfg'), cfg);
    args.push('-b', 'isolinux/isolinux.bin', '-c', 'isolinux/boot.cat', '-no-emul-boot', '-boot-load-size', '4', '-boot-info-table');
  }
  if (spec.elTorito?.uefi) {
    await mkdir(join(root, 'boot/grub'), { recursive: true });
    await makeEfiImage(join(root, 'boot/grub/efi.img'));
    if (existsSync(GRUB_EFI)) {
      await mkdir(join(root, 'EFI/BOOT'), { recursive: true });
      await copyFile(GRUB_EFI, join(root, 'EFI/BOOT/BOOTX64.EFI'));
    }
    if (spec.elTorito.bios) args.push('-eltorito-alt-boot');
    else args.push('-c', 'boot/boot.cat');
    // genisoimage's -e is spelled -efi-boot.
    args.push(isoToolFor(spec) === 'genisoimage' ? '-efi-boot' : '-e', 'boot/grub/efi.img', '-no-emul-boot');
  }
}

/**
 * Builds `name` in `workDir` from `spec` and returns its path. Throws with the
 * tool's output when the tool fails (check `isoToolPresent` first).
 */
export async function buildIso(workDir: string, name: string, spec: IsoFixtureSpec): Promise<string> {
  const tool = isoToolFor(spec);
  const binary = findTool(tool);
  if (!binary) throw new Error(`${tool} is not installed`);
  const root = join(workDir, `${name}.d`);
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  const grafts: string[] = [];
  const bootArgs: string[] = [];
  await stageEntries(root, spec.entries ?? [], grafts);
  await stageBoot(root, spec, bootArgs, grafts);

  const output = join(workDir, name);
  const args = tool === 'xorriso' ? ['-as', 'mkisofs'] : [];
  args.push('-quiet', '-o', output, '-V', spec.volumeId ?? 'BOOTWRIGHT_TEST');
  const rockRidge = spec.rockRidge ?? true;
  if (rockRidge) args.push('-R');
  else if (tool === 'xorriso') args.push('--norock');
  if (spec.joliet) args.push('-J');
  if (spec.joliet === 'long') args.push('-joliet-long');
  if (spec.isoLevel !== undefined) args.push('-iso-level', String(spec.isoLevel));
  if (spec.relocateDeep) {
    if (tool === 'xorriso') args.push('-rr_reloc_dir', 'rr_moved');
    // genisoimage relocates by default.
  } else if (tool === 'genisoimage') {
    args.push('-D');
  }
  if (spec.udf) args.push('-udf');
  args.push(...bootArgs, ...(spec.extraArgs ?? []));
  args.push('-graft-points', root, ...grafts);
  const result = await run(binary, args, { timeoutMs: 300_000 });
  if (result.code !== 0) throw new Error(`${tool} ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return output;
}
