import { describe, expect, it } from 'vitest';
import { archmapFileRefs, expectationForArchCode } from '../../../src-main/boot-files/archmap-refs.js';

describe('archmap file references', () => {
  it('lists each TFTP boot file and HTTP boot path once, with what the client type runs', () => {
    const refs = archmapFileRefs([
      { code: 0x00, name: 'x86 BIOS', boot_file: 'undionly.kpxe', http_boot_url_path: null },
      { code: 0x07, name: 'x64 UEFI', boot_file: 'ipxe.efi', http_boot_url_path: null },
      { code: 0x10, name: 'x64 UEFI HTTP boot', boot_file: 'ipxe.efi', http_boot_url_path: 'ipxe.efi' },
      { code: 0x14, name: 'x86 BIOS HTTP boot', boot_file: 'undionly.kpxe', http_boot_url_path: 'ipxe.pxe' },
      { code: 0x0b, name: 'ARM 64-bit UEFI', boot_file: 'ipxe-arm64.efi', http_boot_url_path: null },
      { code: 0x06, name: 'x86 UEFI (IA32)', boot_file: null, http_boot_url_path: null },
    ]);
    expect(refs).toEqual([
      { file: 'undionly.kpxe', architecture: 'x86 BIOS', format: 'pxe', machine: null, codes: [0x00, 0x14] },
      { file: 'ipxe.efi', architecture: 'x64 UEFI', format: 'pe', machine: 'x64', codes: [0x07, 0x10] },
      { file: 'ipxe.pxe', architecture: 'x86 BIOS HTTP boot', format: 'pxe', machine: null, codes: [0x14] },
      { file: 'ipxe-arm64.efi', architecture: 'ARM 64-bit UEFI', format: 'pe', machine: 'arm64', codes: [0x0b] },
    ]);
  });

  it('maps option 93 types to PE machines (RFC 4578, IANA processor architecture types)', () => {
    expect(expectationForArchCode(0x06)).toEqual({ format: 'pe', machine: 'ia32' });
    expect(expectationForArchCode(0x09)).toEqual({ format: 'pe', machine: 'x64' });
    expect(expectationForArchCode(0x13)).toEqual({ format: 'pe', machine: 'arm64' });
    expect(expectationForArchCode(0x1b)).toEqual({ format: 'pe', machine: 'riscv64' });
    expect(expectationForArchCode(0x27)).toEqual({ format: 'pe', machine: 'loongarch64' });
  });
});
