import { describe, expect, it } from 'vitest';
import { toNetascii } from '../../../../src-main/tftp/server/netascii.js';

describe('netascii (RFC 764 line ends)', () => {
  it('turns LF into CR LF and a bare CR into CR NUL, keeping existing CR LF', () => {
    expect(toNetascii(Buffer.from('a\nb\r\nc\rd\r')).toString('latin1')).toBe('a\r\nb\r\nc\r\0d\r\0');
  });

  it('returns text without line ends unchanged', () => {
    const input = Buffer.from('plain');
    expect(toNetascii(input)).toBe(input);
    expect(toNetascii(Buffer.alloc(0)).length).toBe(0);
  });
});
