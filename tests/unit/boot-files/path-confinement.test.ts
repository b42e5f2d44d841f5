import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInside, normalizeBootPath, resolveInsideRoot } from '../../../src-main/boot-files/path-confinement.js';
import { parseRange } from '../../../src-main/boot-files/byte-range.js';

describe('normalizeBootPath', () => {
  it('normalises harmless paths', () => {
    expect(normalizeBootPath('ipxe/entry.ipxe')).toEqual({ ok: true, path: 'ipxe/entry.ipxe' });
    expect(normalizeBootPath('a//b/./c')).toEqual({ ok: true, path: 'a/b/c' });
    expect(normalizeBootPath('..foo/bar..')).toEqual({ ok: true, path: '..foo/bar..' });
  });

  it.each(['../x', 'a/../../x', 'a/..', '/etc/passwd', 'a\\b', '..\\x', 'C:/x', 'c:x', 'a\0b', 'a\nb', 'x'.repeat(1025)])('refuses %j as forbidden', (requested) => {
    expect(normalizeBootPath(requested)).toMatchObject({ ok: false, reason: 'forbidden' });
  });

  it('treats empty names as not found', () => {
    expect(normalizeBootPath('')).toMatchObject({ ok: false, reason: 'not-found' });
    expect(normalizeBootPath('./')).toMatchObject({ ok: false, reason: 'not-found' });
  });
});

describe('resolveInsideRoot', () => {
  let base: string;
  let root: string;
  beforeAll(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'bw-confine-'));
    root = path.join(base, 'root');
    await mkdir(path.join(root, 'sub'), { recursive: true });
    await writeFile(path.join(root, 'sub', 'file'), 'x');
    await writeFile(path.join(base, 'outside'), 'secret');
    await symlink(path.join(base, 'outside'), path.join(root, 'out-link'));
    await symlink(path.join(root, 'sub', 'file'), path.join(root, 'in-link'));
    await symlink(base, path.join(root, 'up'));
    await symlink('sub', path.join(root, 'relative-dir'));
  });
  afterAll(async () => rm(base, { recursive: true, force: true }));

  it('resolves files and symlinks that stay inside', async () => {
    expect(await resolveInsideRoot(root, 'sub/file')).toEqual({ ok: true, absolute: path.join(root, 'sub', 'file') });
    expect(await resolveInsideRoot(root, 'in-link')).toEqual({ ok: true, absolute: path.join(root, 'sub', 'file') });
    expect(await resolveInsideRoot(root, 'relative-dir/file')).toEqual({ ok: true, absolute: path.join(root, 'sub', 'file') });
  });

  it('refuses symlinks that leave the root, and reports missing files', async () => {
    expect(await resolveInsideRoot(root, 'out-link')).toMatchObject({ ok: false, reason: 'forbidden' });
    expect(await resolveInsideRoot(root, 'up/outside')).toMatchObject({ ok: false, reason: 'forbidden' });
    expect(await resolveInsideRoot(root, 'missing')).toMatchObject({ ok: false, reason: 'not-found' });
    expect(await resolveInsideRoot(path.join(base, 'no-root'), 'x')).toMatchObject({ ok: false, reason: 'not-found' });
  });

  it('isInside compares real paths by segment', () => {
    expect(isInside('/a/root', '/a/root/x')).toBe(true);
    expect(isInside('/a/root', '/a/root')).toBe(true);
    expect(isInside('/a/root', '/a/root2/x')).toBe(false);
    expect(isInside('/a/root', '/a/root/..x')).toBe(true);
    expect(isInside('/a/root', '/a')).toBe(false);
  });
});

describe('parseRange (RFC 9110 §14.2)', () => {
  it('parses single ranges and clamps them', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
  });

  it('says unsatisfiable past the end, and ignores what it does not serve', () => {
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-0', 0)).toBe('unsatisfiable');
    for (const header of [undefined, 'bytes=5-1', 'bytes=0-1,3-4', 'pages=1-2', 'bytes=-', 'bytes=x-1', `bytes=${'9'.repeat(30)}-`]) {
      expect(parseRange(header, 100), String(header)).toBeNull();
    }
  });
});
