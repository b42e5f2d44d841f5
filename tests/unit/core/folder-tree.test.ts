import { execFileSync } from 'node:child_process';
import { mkdir, stat, symlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FolderTree } from '../../../src-main/core/folder-tree.js';
import { resolveTreePath, TreeError, type TreeErrorCode } from '../../../src-main/core/read-only-tree.js';
import { tempDir } from '../../helpers/test-core.js';

let work: { dir: string; remove: () => Promise<void> };
let root: string;
let tree: FolderTree;
let socketServer: net.Server | null = null;

async function refused(promise: Promise<unknown>, code: TreeErrorCode): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, `expected TreeError ${code}`).toBeInstanceOf(TreeError);
  expect((error as TreeError).code).toBe(code);
}

beforeAll(async () => {
  work = await tempDir('bootwright-folder-tree-');
  root = path.join(work.dir, 'root');
  await mkdir(path.join(root, 'sub', 'deeper'), { recursive: true });
  await writeFile(path.join(work.dir, 'outside.txt'), 'secret outside the root');
  await writeFile(path.join(root, 'a.txt'), 'hello folder tree');
  await writeFile(path.join(root, 'empty'), '');
  await writeFile(path.join(root, 'sub', 'b.bin'), Buffer.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
  await writeFile(path.join(root, 'sub', 'deeper', 'c.txt'), 'deep');
  await symlink('sub/b.bin', path.join(root, 'link-in'));
  await symlink('sub', path.join(root, 'dir-link-in'));
  await symlink('/etc/passwd', path.join(root, 'etc-file'));
  await symlink('/etc', path.join(root, 'etc-dir'));
  await symlink('../outside.txt', path.join(root, 'escape'));
  await symlink('..', path.join(root, 'up'));
  await symlink('loop-b', path.join(root, 'loop-a'));
  await symlink('loop-a', path.join(root, 'loop-b'));
  await symlink('/dev/null', path.join(root, 'null'));
  execFileSync('mkfifo', [path.join(root, 'fifo')]);
  const server = net.createServer();
  socketServer = server;
  await new Promise<void>((resolve) => server.listen(path.join(root, 'sock'), resolve));
  tree = await FolderTree.open(root);
});

afterAll(async () => {
  await tree?.close();
  await new Promise<void>((resolve) => (socketServer ? socketServer.close(() => resolve()) : resolve()));
  await work?.remove();
});

describe('FolderTree: reading inside the root', () => {
  it('stats files, directories and symlinks with inode ids', async () => {
    const file = await tree.stat('a.txt');
    expect(file).toMatchObject({ name: 'a.txt', path: 'a.txt', type: 'file', size: 17 });
    expect(file?.id).toBe((await stat(path.join(root, 'a.txt'), { bigint: true })).ino);
    expect(await tree.stat('')).toMatchObject({ name: '', path: '', type: 'directory', size: 0 });
    expect(await tree.stat('sub/deeper')).toMatchObject({ type: 'directory', name: 'deeper' });
    expect(await tree.stat('link-in')).toMatchObject({ type: 'symlink', target: 'sub/b.bin', size: 0 });
    expect(await tree.stat('/sub//b.bin/')).toMatchObject({ path: 'sub/b.bin', size: 10 });
    expect(await tree.stat('missing')).toBeNull();
    expect(await tree.stat('missing/deeper/x')).toBeNull();
    expect(await tree.stat('a.txt/below')).toBeNull();
  });

  it('ids are stable across reopening the same folder', async () => {
    const again = await FolderTree.open(root);
    expect((await again.stat('sub/b.bin'))?.id).toBe((await tree.stat('sub/b.bin'))?.id);
    await again.close();
  });

  it('lists a directory sorted, leaving out FIFOs and sockets', async () => {
    const names = (await tree.list('')).map((node) => node.name);
    expect(names).toEqual(['a.txt', 'dir-link-in', 'empty', 'escape', 'etc-dir', 'etc-file', 'link-in', 'loop-a', 'loop-b', 'null', 'sub', 'up']);
    expect((await tree.list('sub')).map((node) => [node.path, node.type])).toEqual([
      ['sub/b.bin', 'file'],
      ['sub/deeper', 'directory'],
    ]);
    // The same listing when the metadata is slow (every lstat after the first two through libuv's pool).
    const slow = await FolderTree.open(tree.root, { slowLstatMs: 0 });
    expect(await slow.list('')).toEqual(await tree.list(''));
    expect(await slow.list('sub')).toEqual(await tree.list('sub'));
    await slow.close();
    await refused(tree.list('a.txt'), 'NOT_DIRECTORY');
    await refused(tree.list('missing'), 'NOT_FOUND');
    // A symlink is not a directory to the tree: callers resolve it first.
    await refused(tree.list('dir-link-in'), 'NOT_DIRECTORY');
  });

  it('runs metadata calls on this thread until two in a row are slow, then through the pool', async () => {
    // slowLstatMs 0: every call counts as slow. One (a garbage collection in a timed call) is not enough.
    const slow = await FolderTree.open(tree.root, { slowLstatMs: 0 });
    expect((await slow.stat(''))?.type).toBe('directory');
    expect(slow.metadataOnPool).toBe(false);
    expect((await slow.stat('sub/b.bin'))?.size).toBe(10);
    expect(slow.metadataOnPool).toBe(true);
    // Through the pool, the answers are the same.
    expect(await slow.stat('sub/b.bin')).toEqual(await tree.stat('sub/b.bin'));
    expect(await slow.stat('missing')).toBeNull();
    await refused(slow.list('a.txt'), 'NOT_DIRECTORY');
    await slow.close();
  });

  it('reads byte ranges and gives the file itself as its one extent', async () => {
    expect((await tree.read('sub/b.bin', 2, 3)).toJSON().data).toEqual([2, 3, 4]);
    expect((await tree.read('sub/b.bin', 8, 100)).toJSON().data).toEqual([8, 9]);
    expect((await tree.read('sub/b.bin', 50, 4)).length).toBe(0);
    expect(await tree.extents('sub/b.bin')).toEqual([{ file: path.join(root, 'sub', 'b.bin'), offset: 0, length: 10 }]);
    expect(await tree.extents('empty')).toEqual([]);
    await refused(tree.read('sub', 0, 1), 'IS_DIRECTORY');
    await refused(tree.read('missing', 0, 1), 'NOT_FOUND');
    await expect(tree.read('a.txt', -1, 1)).rejects.toThrow(RangeError);
  });

  it('follows a symlinked directory that stays inside the root', async () => {
    expect(await tree.stat('dir-link-in/b.bin')).toMatchObject({ type: 'file', size: 10 });
    expect((await resolveTreePath(tree, 'link-in'))?.path).toBe('sub/b.bin');
    expect((await resolveTreePath(tree, 'dir-link-in/deeper/c.txt'))?.path).toBe('sub/deeper/c.txt');
  });
});

describe('FolderTree: confinement', () => {
  it('refuses paths with .., backslashes and control characters', async () => {
    for (const bad of ['..', '../outside.txt', 'sub/../../outside.txt', 'sub\\b.bin', 'a.txt\u0000', 'sub\n']) {
      await refused(tree.stat(bad), 'OUTSIDE');
      await refused(tree.read(bad, 0, 10), 'OUTSIDE');
    }
  });

  it('reports a symlink to a file outside as a symlink and never reads through it', async () => {
    expect(await tree.stat('etc-file')).toMatchObject({ type: 'symlink', target: '/etc/passwd' });
    await refused(tree.read('etc-file', 0, 100), 'UNSUPPORTED');
    await refused(tree.extents('etc-file'), 'UNSUPPORTED');
    // resolveTreePath takes an absolute target from the tree's root (like a chroot): /etc/passwd is not in this tree.
    expect(await resolveTreePath(tree, 'etc-file')).toBeNull();
    await refused(resolveTreePath(tree, 'escape'), 'OUTSIDE');
  });

  it('refuses a path below a symlinked directory that leads outside (OUTSIDE)', async () => {
    await refused(tree.stat('etc-dir/passwd'), 'OUTSIDE');
    await refused(tree.read('etc-dir/passwd', 0, 100), 'OUTSIDE');
    await refused(tree.extents('etc-dir/hostname'), 'OUTSIDE');
    await refused(tree.list('etc-dir/ssl'), 'OUTSIDE');
    await refused(tree.stat('up/outside.txt'), 'OUTSIDE');
    await refused(tree.read('up/outside.txt', 0, 100), 'OUTSIDE');
    expect(await resolveTreePath(tree, 'etc-dir/passwd')).toBeNull();
  });

  it('a loop of links ends in LOOP, not a hang', async () => {
    await refused(resolveTreePath(tree, 'loop-a'), 'LOOP');
    await refused(tree.stat('loop-a/x'), 'LOOP');
    expect(await tree.stat('loop-a')).toMatchObject({ type: 'symlink', target: 'loop-b' });
  });

  it('never reads device files, sockets or FIFOs (and does not block on a FIFO)', async () => {
    await refused(tree.stat('fifo'), 'UNSUPPORTED');
    await refused(tree.read('fifo', 0, 10), 'UNSUPPORTED');
    await refused(tree.extents('fifo'), 'UNSUPPORTED');
    await refused(tree.read('sock', 0, 10), 'UNSUPPORTED');
    await refused(tree.read('null', 0, 10), 'UNSUPPORTED');
    // /dev/null named through the tree's root is simply not there.
    expect(await resolveTreePath(tree, 'null')).toBeNull();
    const devices = await FolderTree.open('/dev');
    await refused(devices.read('null', 0, 10), 'UNSUPPORTED');
    await refused(devices.stat('null'), 'UNSUPPORTED');
    await devices.close();
  });

  it('a root given through a symlink is served from its real path', async () => {
    const alias = path.join(work.dir, 'alias');
    await symlink(root, alias);
    const aliased = await FolderTree.open(alias);
    expect(aliased.root).toBe(root);
    expect((await aliased.read('a.txt', 0, 5)).toString()).toBe('hello');
    await aliased.close();
  });

  it('refuses to open a missing folder or a file, and is unusable once closed', async () => {
    await refused(FolderTree.open(path.join(work.dir, 'nope')), 'NOT_FOUND');
    await refused(FolderTree.open(path.join(root, 'a.txt')), 'NOT_DIRECTORY');
    const short = await FolderTree.open(root);
    await short.close();
    await expect(short.stat('a.txt')).rejects.toThrow(/closed/);
  });
});
