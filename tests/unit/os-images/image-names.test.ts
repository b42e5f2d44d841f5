import { describe, expect, it } from 'vitest';
import { hasImageExtension, isImageFileName, nameFromFileName, slugFromFileName, uniqueSlug } from '../../../src-main/os-images/image-names.js';

describe('image names', () => {
  it('knows image extensions in any case', () => {
    expect(hasImageExtension('a.iso')).toBe(true);
    expect(hasImageExtension('A.IMG')).toBe(true);
    expect(hasImageExtension('a.iso.part')).toBe(false);
    expect(isImageFileName('debian-12.iso')).toBe(true);
    expect(isImageFileName('.hidden.iso')).toBe(false);
    expect(isImageFileName('a b.iso')).toBe(false);
    expect(isImageFileName('readme.txt')).toBe(false);
  });

  it('makes a display name and a slug from a file name', () => {
    expect(nameFromFileName('debian-12.5.0-amd64-netinst.iso')).toBe('debian-12.5.0-amd64-netinst');
    expect(nameFromFileName('/x/Ubuntu Server [24.04].iso')).toBe('Ubuntu Server 24.04');
    expect(nameFromFileName('###.iso')).toBe('image');
    expect(slugFromFileName('Debian 12.5 netinst.ISO')).toBe('debian-12.5-netinst');
    expect(slugFromFileName('--x--.iso')).toBe('x');
    expect(slugFromFileName('ü.iso')).toBe('image');
    expect(slugFromFileName(`${'a'.repeat(100)}.iso`)).toHaveLength(64);
  });

  it('finds a free slug by numbering', () => {
    const taken = new Set(['deb', 'deb-2']);
    expect(uniqueSlug('deb', (slug) => taken.has(slug))).toBe('deb-3');
    expect(uniqueSlug('new', (slug) => taken.has(slug))).toBe('new');
    const long = 'a'.repeat(64);
    expect(uniqueSlug(long, (slug) => slug === long)).toBe(`${'a'.repeat(62)}-2`);
  });
});
