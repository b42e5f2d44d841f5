import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256File } from '../../../src-main/boot-files/boot-file-check.js';
import { inspectFormat, PXE_MAX_SIZE } from '../../../src-main/boot-files/file-format.js';
import { loadManifest, parseManifest } from '../../../src-main/boot-files/bootloader-manifest.js';
import { expectedFor } from '../../../src-main/boot-files/file-format.js';
import { GRUB_CHAINS } from '../../../src-main/dhcp/boot-loader-chains.js';

const DIR = path.resolve(import.meta.dirname, '../../../resources/bootloaders');

describe('bundled boot loaders (resources/bootloaders)', () => {
  it('ship the BIOS and UEFI x64 iPXE builds and the signed GRUB chains for x64 and ARM64, from Debian packages, as the manifest records them', async () => {
    const manifest = await loadManifest(DIR);
    const names = manifest.files.map((file) => file.name);
    expect(names).toEqual(expect.arrayContaining(['undionly.kpxe', 'ipxe.pxe', 'ipxe.efi', 'snponly.efi', 'shimx64.efi', 'grubx64.efi', 'mmx64.efi', 'shimaa64.efi', 'grubaa64.efi']));
    // The ARM64 pair is PE for arm64 (checked below with every file), not an x64 build under an arm64 name.
    expect(manifest.files.filter((file) => file.architecture === 'uefi-arm64').map((file) => file.name).sort()).toEqual(['grubaa64.efi', 'shimaa64.efi']);
    for (const entry of manifest.files) {
      const file = path.join(DIR, entry.name);
      const bytes = await readFile(file);
      expect(bytes.length, entry.name).toBe(entry.size);
      expect(await sha256File(file), entry.name).toBe(entry.sha256);
      expect(entry.source.package).toMatch(/^(ipxe|shim-signed|shim-helpers-amd64-signed|grub-efi-amd64-signed|debian-installer-12-netboot-arm64)$/);
      expect(entry.source.version).not.toBe('');
      const expected = expectedFor(entry.architecture);
      expect(entry.format).toBe(expected.format);
      expect(inspectFormat(bytes.subarray(0, 65536), bytes.length, expected.format, expected.machine).problem, entry.name).toBeNull();
    }
    expect(manifest.files.filter((file) => !file.optional).map((file) => file.name).sort()).toEqual(['ipxe.efi', 'ipxe.pxe', 'snponly.efi', 'undionly.kpxe']);
  });

  it('ship every file of both signed GRUB chains DHCP hands out (GRUB_CHAINS), as optional PE images of the right machine', async () => {
    const manifest = await loadManifest(DIR);
    for (const [architecture, chain] of Object.entries(GRUB_CHAINS)) {
      const names = [chain.shim, chain.grub, ...(chain.mok ? [chain.mok] : [])];
      for (const name of names) {
        const entry = manifest.files.find((file) => file.name === name);
        expect(entry, `${architecture}: ${name}`).toMatchObject({ optional: true, format: 'pe', architecture: architecture.replace('_', '-') });
        const bytes = await readFile(path.join(DIR, name));
        expect(inspectFormat(bytes.subarray(0, 65536), bytes.length, 'pe', chain.cpu === 'arm64' ? 'arm64' : 'x64')).toMatchObject({ machine: chain.cpu === 'arm64' ? 'arm64' : 'x64', problem: null });
      }
    }
    // The ARM64 pair comes from the installer's netboot image: the shim under its name there (bootnetaa64.efi).
    expect(manifest.files.find((file) => file.name === 'shimaa64.efi')?.source).toMatchObject({
      package: 'debian-installer-12-netboot-arm64',
      path: '/usr/lib/debian-installer/images/12/arm64/text/debian-installer/arm64/bootnetaa64.efi',
    });
  });

  it('rejects a malformed manifest', () => {
    const good = { name: 'a.efi', architecture: 'uefi-x64', format: 'pe', optional: false, description: '', source: { package: 'p', version: '1', path: '/a' }, size: 1, sha256: 'a'.repeat(64) };
    expect(() => parseManifest({ files: [good] }, 'm')).not.toThrow();
    expect(() => parseManifest({}, 'm')).toThrow('files');
    expect(() => parseManifest({ files: [{ ...good, name: '../x' }] }, 'm')).toThrow('plain file name');
    expect(() => parseManifest({ files: [good, good] }, 'm')).toThrow('twice');
    expect(() => parseManifest({ files: [{ ...good, sha256: 'xyz' }] }, 'm')).toThrow('sha256');
    expect(() => parseManifest({ files: [{ ...good, architecture: 'mips' }] }, 'm')).toThrow('architecture');
  });
});

describe('boot file format checks', () => {
  function pe(machine: number, subsystem = 10): Buffer {
    const buf = Buffer.alloc(512);
    buf.write('MZ', 0, 'latin1');
    buf.writeUInt32LE(0x80, 0x3c);
    buf.write('PE\0\0', 0x80, 'latin1');
    buf.writeUInt16LE(machine, 0x84);
    buf.writeUInt16LE(0x20b, 0x80 + 24);
    buf.writeUInt16LE(subsystem, 0x80 + 24 + 68);
    return buf;
  }

  it('recognises UEFI PE/COFF images and their machine', () => {
    expect(inspectFormat(pe(0x8664), 512, 'pe', 'x64')).toEqual({ detected: 'pe', machine: 'x64', problem: null });
    expect(inspectFormat(pe(0xaa64), 512, 'pe', 'x64').problem).toContain('expected x64');
    expect(inspectFormat(pe(0x8664, 3), 512, 'pe', 'x64').problem).toContain('subsystem 3');
  });

  it('recognises PXE boot programs and refuses the wrong kind', () => {
    const pxe = Buffer.concat([Buffer.from([0xea, 0x05, 0x00, 0xc0, 0x07]), Buffer.from('....PXENV+....')]);
    expect(inspectFormat(pxe, pxe.length, 'pxe', null)).toEqual({ detected: 'pxe', machine: null, problem: null });
    expect(inspectFormat(pe(0x8664), 512, 'pxe', null).problem).toContain('not a BIOS PXE');
    expect(inspectFormat(pxe, pxe.length, 'pe', 'x64')).toMatchObject({ detected: 'pxe', problem: expect.stringContaining('MZ') });
    expect(inspectFormat(Buffer.from('<html>not found</html>'), 22, 'pxe', null).problem).toContain('does not look like');
    expect(inspectFormat(pxe, PXE_MAX_SIZE + 1, 'pxe', null).problem).toContain('more than');
    expect(inspectFormat(Buffer.from('MZ'), 2, 'pe', 'x64').problem).toContain('MZ');
  });
});
