// Refreshes resources/bootloaders/ from Debian packages and writes its manifest.
//
// Provenance: every file is taken from a Debian binary package fetched with
// `apt-get download` (signed repository metadata, so apt verifies it) and
// unpacked with `dpkg-deb -x`; nothing is built here. The manifest records
// for each file the package, its exact version, the path inside the package,
// the size and the SHA-256, and Bootwright checks the installed copies
// against it (GET /api/v1/bootloader/check).
//
//   node scripts/fetch-bootloaders.mjs            # iPXE + the Secure Boot chain
//   node scripts/fetch-bootloaders.mjs --no-secure-boot
//
// Needs a Debian-like system with apt (the packages: ipxe; optional
// shim-signed, shim-helpers-amd64-signed, grub-efi-amd64-signed and
// debian-installer-12-netboot-arm64, about 130 MB, for the ARM64 chain).
// Debian 12's ipxe package has no ARM64 build; when a later one ships one
// (e.g. /usr/lib/ipxe/arm64-efi/ipxe.efi) it is picked up as ipxe-arm64.efi.
// The Secure Boot chains are documented in docs/secure-boot-arm64.md; their
// file names must match GRUB_CHAINS in src-main/dhcp/boot-loader-chains.ts.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'resources', 'bootloaders');
const withSecureBoot = !process.argv.includes('--no-secure-boot');

/**
 * What to take from which package. `from` lists candidate paths inside the
 * package (the first that exists wins); `optional` files may be missing from
 * the package and are not required for a healthy install.
 */
const WANTED = [
  { name: 'undionly.kpxe', architecture: 'bios', format: 'pxe', package: 'ipxe', from: ['usr/lib/ipxe/undionly.kpxe'], optional: false,
    description: 'iPXE for BIOS PXE, using the NIC\'s UNDI driver (the usual BIOS choice)' },
  { name: 'ipxe.pxe', architecture: 'bios', format: 'pxe', package: 'ipxe', from: ['usr/lib/ipxe/ipxe.pxe'], optional: false,
    description: 'iPXE for BIOS PXE with iPXE\'s own NIC drivers' },
  { name: 'ipxe.efi', architecture: 'uefi-x64', format: 'pe', package: 'ipxe', from: ['boot/ipxe.efi', 'usr/lib/ipxe/ipxe.efi'], optional: false,
    description: 'iPXE for UEFI x86-64 with iPXE\'s own NIC drivers' },
  { name: 'snponly.efi', architecture: 'uefi-x64', format: 'pe', package: 'ipxe', from: ['usr/lib/ipxe/snponly.efi'], optional: false,
    description: 'iPXE for UEFI x86-64 using the firmware\'s SNP driver (the usual UEFI choice)' },
  { name: 'ipxe-arm64.efi', architecture: 'uefi-arm64', format: 'pe', package: 'ipxe', from: ['usr/lib/ipxe/arm64-efi/ipxe.efi', 'usr/lib/ipxe/ipxe-arm64.efi'], optional: true,
    description: 'iPXE for UEFI ARM64' },
];

const ARM64_NETBOOT = 'debian-installer-12-netboot-arm64';
const ARM64_NETBOOT_DIR = 'usr/lib/debian-installer/images/12/arm64/text/debian-installer/arm64';

const SECURE_BOOT = [
  { name: 'shimx64.efi', architecture: 'uefi-x64', format: 'pe', package: 'shim-signed', from: ['usr/lib/shim/shimx64.efi.signed'], optional: true,
    description: 'Secure Boot: shim signed by Microsoft\'s UEFI CA; loads grubx64.efi from the same directory' },
  { name: 'mmx64.efi', architecture: 'uefi-x64', format: 'pe', package: 'shim-helpers-amd64-signed', from: ['usr/lib/shim/mmx64.efi.signed'], optional: true,
    description: 'Secure Boot: MokManager, which shim starts to enrol keys' },
  { name: 'grubx64.efi', architecture: 'uefi-x64', format: 'pe', package: 'grub-efi-amd64-signed', from: ['usr/lib/grub/x86_64-efi-signed/grubnetx64.efi.signed'], optional: true,
    description: 'Secure Boot: Debian-signed network GRUB (grubnetx64, prefix /grub), loaded by shim; reads grub/grub.cfg over TFTP, which Bootwright renders' },
  // Debian ships no signed network GRUB for ARM64 outside the installer: its netboot image carries the
  // signed shim (as bootnetaa64.efi) and the signed GRUB built with the installer's prefix.
  { name: 'shimaa64.efi', architecture: 'uefi-arm64', format: 'pe', package: ARM64_NETBOOT, from: [`${ARM64_NETBOOT_DIR}/bootnetaa64.efi`], optional: true,
    description: 'Secure Boot: ARM64 shim signed by Microsoft\'s UEFI CA (the installer\'s bootnetaa64.efi); loads grubaa64.efi from the same directory' },
  { name: 'grubaa64.efi', architecture: 'uefi-arm64', format: 'pe', package: ARM64_NETBOOT, from: [`${ARM64_NETBOOT_DIR}/grubaa64.efi`], optional: true,
    description: 'Secure Boot: Debian-signed ARM64 network GRUB (prefix /debian-installer/arm64/grub), loaded by shim; reads debian-installer/arm64/grub/grub.cfg over TFTP, which Bootwright renders' },
];

function run(cmd, args, cwd) {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

function isRegularFile(file) {
  try {
    return lstatSync(file).isFile();
  } catch {
    return false;
  }
}

function sha256(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

const wanted = withSecureBoot ? [...WANTED, ...SECURE_BOOT] : WANTED;
const packages = [...new Set(wanted.map((entry) => entry.package))];
const work = mkdtempSync(path.join(os.tmpdir(), 'bootwright-bootloaders-'));
try {
  // apt-get download writes into the current directory; _apt cannot write a root-owned temp dir, so it warns and downloads as root.
  run('apt-get', ['download', ...packages], work);
  const debs = readdirSync(work).filter((name) => name.endsWith('.deb'));
  const unpacked = new Map();
  for (const pkg of packages) {
    const deb = debs.find((name) => name.startsWith(`${pkg}_`));
    if (!deb) throw new Error(`apt-get download did not produce a .deb for ${pkg}`);
    const dir = path.join(work, pkg);
    mkdirSync(dir);
    run('dpkg-deb', ['-x', path.join(work, deb), dir]);
    unpacked.set(pkg, { dir, version: run('dpkg-deb', ['-f', path.join(work, deb), 'Version']) });
  }

  mkdirSync(outDir, { recursive: true });
  const files = [];
  for (const entry of wanted) {
    const { dir, version } = unpacked.get(entry.package);
    // Regular files only: the package's absolute symlinks (usr/lib/ipxe/ipxe.efi -> /boot/ipxe.efi) would point at this machine's files.
    const inside = entry.from.find((candidate) => isRegularFile(path.join(dir, candidate)));
    if (!inside) {
      if (entry.optional) {
        console.log(`skip ${entry.name}: not in ${entry.package} ${version}`);
        continue;
      }
      throw new Error(`${entry.package} ${version} has none of ${entry.from.join(', ')}`);
    }
    const target = path.join(outDir, entry.name);
    copyFileSync(path.join(dir, inside), target);
    files.push({
      name: entry.name,
      architecture: entry.architecture,
      format: entry.format,
      optional: entry.optional,
      description: entry.description,
      source: { package: entry.package, version, path: `/${inside}` },
      size: readFileSync(target).length,
      sha256: sha256(target),
    });
    console.log(`${entry.name.padEnd(16)} ${entry.package} ${version}`);
  }
  const manifest = {
    comment: 'Written by scripts/fetch-bootloaders.mjs; do not edit by hand. Files are unmodified copies from the Debian packages named.',
    generated_at: new Date().toISOString(),
    files,
  };
  writeFileSync(path.join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`wrote ${path.relative(root, path.join(outDir, 'manifest.json'))} (${files.length} files)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
