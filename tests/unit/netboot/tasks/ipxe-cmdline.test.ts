import { describe, expect, it } from 'vitest';
import { ipxeKernelArguments } from '../../../../src-main/netboot/tasks/ipxe-cmdline.js';

describe('kernel command lines in iPXE', () => {
  it('passes plain words as they are, including ; and & inside a word (cloud-init\'s ds=nocloud-net;s=…)', () => {
    const args = ipxeKernelArguments('autoinstall ds=nocloud-net;s=http://192.0.2.1:8080/api/v1/netboot/answer/3/tok/ a&b=c x||y ---');
    expect(args).toEqual({ text: 'autoinstall ds=nocloud-net;s=http://192.0.2.1:8080/api/v1/netboot/answer/3/tok/ a&b=c x||y ---', settings: [] });
  });

  it('folds newlines and runs of whitespace to one space: a newline would start a command of its own', () => {
    expect(ipxeKernelArguments('  auto=true\npriority=critical\r\n\t quiet  ').text).toBe('auto=true priority=critical quiet');
    expect(ipxeKernelArguments('   ').text).toBe('');
  });

  it('writes a word that iPXE would take as a separator or comment with its first character from a setting', () => {
    const args = ipxeKernelArguments('a ; b && c || d #comment e');
    expect(args.text).toBe('a ${bw-c3b:string} b ${bw-c26:string}& c ${bw-c7c:string}| d ${bw-c23:string}comment e');
    expect(args.settings.sort()).toEqual(['set bw-c23:hex 23', 'set bw-c26:hex 26', 'set bw-c3b:hex 3b', 'set bw-c7c:hex 7c']);
    // The escaped words are none of iPXE's terminators any more, and none starts a comment.
    for (const word of args.text.split(' ')) {
      expect([';', '&&', '||']).not.toContain(word);
      expect(word.startsWith('#')).toBe(false);
    }
  });

  it('refuses ${…}, which iPXE would expand however it is spelt', () => {
    expect(() => ipxeKernelArguments('root=${root}')).toThrow(/holds "\$\{…\}"/);
    expect(() => ipxeKernelArguments('a=${b:string}x')).toThrow(/no escape/);
    // `${` and `}` in two words are two tokens: iPXE expands within a token only.
    expect(ipxeKernelArguments('a=${ b}').text).toBe('a=${ b}');
    expect(ipxeKernelArguments('cost=$5 {x}').text).toBe('cost=$5 {x}');
  });

  it('refuses control characters other than whitespace', () => {
    expect(() => ipxeKernelArguments('quiet\u0000evil')).toThrow(/control character/);
    expect(() => ipxeKernelArguments('quiet\u001bevil')).toThrow(/control character/);
  });
});
