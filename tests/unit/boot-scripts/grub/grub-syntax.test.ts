import { describe, expect, it } from 'vitest';
import { grubFileFromUrl, grubKernelArguments, grubQuote, grubText, tftpDevicePath } from '../../../../src-main/boot-scripts/grub/grub-syntax.js';
import { lintGrubConfig } from './grub-lint.js';

describe('GRUB quoting', () => {
  it('keeps any text literal inside single quotes, a quote inside closed and reopened', () => {
    expect(grubQuote('plain')).toBe("'plain'");
    expect(grubQuote("it's")).toBe(`'it'\\''s'`);
    expect(grubQuote('$x ${y} ; } {')).toBe("'$x ${y} ; } {'");
  });

  it('cannot be broken out of: hostile labels stay one echo command', () => {
    for (const hostile of ["'; exit; echo '", "a\nboot\n", "x'\\''y", '"$(reboot)"', "}\nmenuentry 'x' {", "\u0000\u001b[2J"]) {
      const script = `echo ${grubText(hostile)}\n`;
      expect(lintGrubConfig(script), hostile).toEqual([]);
      expect(script.split('\n').filter((line) => line !== '')).toHaveLength(1);
    }
  });

  it('shortens shown text to its limit', () => {
    expect(grubText('x'.repeat(500), 10)).toBe(`'${'x'.repeat(9)}…'`);
  });
});

describe('kernel command lines for GRUB', () => {
  it('quotes each argument so $ and ; reach the kernel as they are', () => {
    expect(grubKernelArguments('console=ttyS0  auto=true url=http://10.0.0.1:8080/a?b=1;c=$d')).toEqual({
      words: ["'console=ttyS0'", "'auto=true'", "'url=http://10.0.0.1:8080/a?b=1;c=$d'"],
    });
    expect(grubKernelArguments('   ')).toEqual({ words: [] });
  });

  it('refuses quotes and backslashes, which GRUB would pass on escaped', () => {
    expect(grubKernelArguments('preseed/late_command="in-target true"')).toEqual({ problem: expect.stringContaining('double quote') });
    expect(grubKernelArguments("a='b'")).toEqual({ problem: expect.stringContaining('single quote') });
    expect(grubKernelArguments('a=b\\c')).toEqual({ problem: expect.stringContaining('backslash') });
  });
});

describe('file URLs as GRUB loads them (TFTP)', () => {
  const bootUrl = 'http://10.9.0.1:8080/boot';
  it('turns a URL under our boot URL into the TFTP path of the same file, decoded', () => {
    expect(grubFileFromUrl(`${bootUrl}/netboot/debian/12/x86_64/linux`, bootUrl, '10.9.0.1')).toBe('(tftp,10.9.0.1)/netboot/debian/12/x86_64/linux');
    expect(grubFileFromUrl(`${bootUrl}/iso/my%20image/casper/vmlinuz?x=1`, bootUrl, '10.9.0.1')).toBe('(tftp,10.9.0.1)/iso/my image/casper/vmlinuz');
  });

  it('refuses remote URLs, other ports, and paths that climb or are malformed', () => {
    expect(grubFileFromUrl('http://deb.debian.org/debian/linux', bootUrl, '10.9.0.1')).toBeNull();
    expect(grubFileFromUrl('http://10.9.0.1:8081/boot/linux', bootUrl, '10.9.0.1')).toBeNull();
    expect(grubFileFromUrl(`${bootUrl}/a/../../etc/passwd`, bootUrl, '10.9.0.1')).toBeNull();
    expect(grubFileFromUrl(`${bootUrl}/a/%2e%2e/b`, bootUrl, '10.9.0.1')).toBeNull();
    expect(grubFileFromUrl(`${bootUrl}/%E0%A4%A`, bootUrl, '10.9.0.1')).toBeNull();
    expect(grubFileFromUrl(`${bootUrl}/`, bootUrl, '10.9.0.1')).toBeNull();
  });

  it('names the TFTP device of the server', () => {
    expect(tftpDevicePath('10.9.0.1', '/grub/x.cfg')).toBe('(tftp,10.9.0.1)/grub/x.cfg');
  });
});
