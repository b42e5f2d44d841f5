import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../../../src-main/core/read-only-tree.js';
import { directoryIndex } from '../../../../src-main/os-images/mount/directory-index.js';

function node(name: string, type: TreeNode['type'], size = 0): TreeNode {
  return { name, path: name, type, size, mtimeMs: Date.UTC(2024, 4, 6, 7, 8), mode: 0o444, id: 1n };
}

describe('directory index of a mounted image', () => {
  it('lists directories first with a slash, files with their size, under absolute links', () => {
    const page = directoryIndex('/boot/iso/deb/pool', [node('z.deb', 'file', 12), node('main', 'directory')]);
    expect(page.indexOf('main/')).toBeLessThan(page.indexOf('z.deb'));
    expect(page).toContain('<a href="/boot/iso/deb/pool/main/">main/</a>');
    expect(page).toContain('<a href="/boot/iso/deb/pool/z.deb">z.deb</a>  2024-05-06 07:08  12');
    expect(page).toContain('<a href="/boot/iso/deb/">../</a>');
  });

  it('never lets a name become markup or break out of an attribute', () => {
    const page = directoryIndex('/boot/iso/x/', [node('"><script>alert(1)</script>', 'file'), node("it's & <b>", 'directory')]);
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<b>');
    expect(page).toContain('href="/boot/iso/x/%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E"');
    expect(page).toContain('&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;</a>');
    expect(page).toContain('href="/boot/iso/x/it\'s%20%26%20%3Cb%3E/"'.replace("'", '&#39;'));
  });
});
