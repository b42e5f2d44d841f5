import { createHash } from 'node:crypto';
import http from 'node:http';
import { mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src-main/core/errors.js';
import { PARTIAL_PREFIX, type FileDeleteResult, type FileList, type FileRoot, type FileUploadResult, type BrowseResult } from '../../../src-main/files/index.js';
import { createTestCore, tempDir, type TestCore } from '../../helpers/test-core.js';
import { toolPresent } from '../../helpers/tools.js';
import { auditEntryOf, call, callers, curlUpload, type Caller } from './files-helpers.js';

let t: TestCore;
let base: string;
let who: { viewer: Caller; operator: Caller; admin: Caller };
let boot: string;
let images: string;
let drop: { dir: string; remove: () => Promise<void> };
let scratch: { dir: string; remove: () => Promise<void> };
let dropFolder: string | null = null;
const deleteChecks: string[] = [];
const hasCurl = toolPresent('curl', 'the /files upload tests over curl');

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  drop = await tempDir('bootwright-drop-');
  scratch = await tempDir('bootwright-files-src-');
  t = await createTestCore({
    config: { allowedRoots: [drop.dir] },
    files: {
      dropFolder: () => dropFolder,
      beforeDelete: async (root, absolute) => {
        deleteChecks.push(`${root}:${absolute}`);
        if (path.basename(absolute) === 'in-use.iso') throw new AppError('CONFLICT', 'in-use.iso is used by the OS image "Debian"');
      },
    },
  });
  await t.core.start();
  base = t.core.url();
  who = await callers(t.core);
  boot = t.core.area('boot-files').files.root;
  images = path.join(t.dataDir, 'images');
}, 60_000);

afterAll(async () => {
  await t?.close();
  await drop?.remove();
  await scratch?.remove();
});

describe('GET /files/root', () => {
  it('names the three roots, usable ones with their space, an unset drop folder with its problem', async () => {
    const res = await call(base, who.viewer, 'GET', '/files/root');
    expect(res.status).toBe(200);
    const roots = res.json.data as FileRoot[];
    expect(roots.map((root) => root.id)).toEqual(['boot', 'images', 'drop']);
    expect(roots[0]).toMatchObject({ path: boot, problem: null });
    expect(roots[0]?.free_bytes).toBeGreaterThan(0);
    expect(roots[1]).toMatchObject({ path: images, problem: null });
    expect(roots[2]).toMatchObject({ path: '', free_bytes: null });
    expect(roots[2]?.problem).toMatch(/no drop folder/);
  });

  it('uses the drop folder once one is set, and refuses it when the served-root policy does', async () => {
    dropFolder = drop.dir;
    try {
      const roots = (await call(base, who.viewer, 'GET', '/files/root')).json.data as FileRoot[];
      expect(roots[2]).toMatchObject({ path: drop.dir, problem: null });
      await writeFile(path.join(drop.dir, 'dropped.iso'), 'iso');
      const list = await call(base, who.viewer, 'GET', '/files?root=drop');
      expect((list.json.data as FileList).entries.map((entry) => entry.name)).toEqual(['dropped.iso']);
      dropFolder = '/etc';
      const refused = await call(base, who.viewer, 'GET', '/files?root=drop');
      expect(refused.status).toBe(400);
      expect(refused.json.details?.[0]?.field).toBe('query.root');
    } finally {
      dropFolder = null;
    }
  });
});

describe('GET /files', () => {
  it('lists directories first, symlinks with their in-root target only, and hides partial uploads', async () => {
    await mkdir(path.join(boot, 'listing', 'zdir'), { recursive: true });
    await writeFile(path.join(boot, 'listing', 'a.txt'), 'abc');
    await writeFile(path.join(boot, 'listing', `${PARTIAL_PREFIX}123`), 'half');
    await symlink('a.txt', path.join(boot, 'listing', 'to-a'));
    await symlink('/etc/passwd', path.join(boot, 'listing', 'to-passwd'));
    const res = await call(base, who.viewer, 'GET', '/files?root=boot&path=listing');
    expect(res.status).toBe(200);
    const list = res.json.data as FileList;
    expect(list).toMatchObject({ root: 'boot', path: 'listing' });
    expect(list.entries.map((entry) => [entry.name, entry.type, entry.target])).toEqual([
      ['zdir', 'directory', null],
      ['a.txt', 'file', null],
      ['to-a', 'symlink', 'listing/a.txt'],
      ['to-passwd', 'symlink', null],
    ]);
    expect(list.entries[1]).toMatchObject({ size: 3, path: 'listing/a.txt' });
  });

  it('lists the root by default, 404 for a missing directory, 400 for a file', async () => {
    const root = await call(base, who.viewer, 'GET', '/files');
    expect(root.status).toBe(200);
    expect((root.json.data as FileList).path).toBe('');
    expect((await call(base, who.viewer, 'GET', '/files?path=no/such/dir')).status).toBe(404);
    const file = await call(base, who.viewer, 'GET', '/files?path=listing/a.txt');
    expect(file.status).toBe(400);
    expect(file.json).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'query.path' }] });
  });
});

describe.runIf(hasCurl)('POST /files/upload (curl)', () => {
  it('takes a raw body (curl -X POST -T) with parents=true and reports its SHA-256; the file is exact', async () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 17, 0);
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 31) & 0xff;
    const source = path.join(scratch.dir, 'payload.bin');
    await writeFile(source, bytes);
    const res = await curlUpload(base, who.operator, '/files/upload?root=boot&path=up/deep/payload.bin&parents=true', { raw: source });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    const result = res.json.data as FileUploadResult;
    expect(result).toMatchObject({ root: 'boot', sha256: sha256(bytes), replaced: false, entry: { path: 'up/deep/payload.bin', size: bytes.length, type: 'file' } });
    expect(sha256(await readFile(path.join(boot, 'up', 'deep', 'payload.bin')))).toBe(sha256(bytes));
    expect((await readdir(path.join(boot, 'up', 'deep'))).filter((name) => name.startsWith(PARTIAL_PREFIX))).toEqual([]);
    const audit = await auditEntryOf(t.core, res.requestId);
    expect(audit).toMatchObject({ action: 'files.upload', outcome: 'success', detail: { root: 'boot', path: 'up/deep/payload.bin', sha256: sha256(bytes) } });
  });

  it('takes a multipart part (curl -F) into a directory, under the part\'s file name', async () => {
    const source = path.join(scratch.dir, 'form-file.txt');
    await writeFile(source, 'from a form');
    const res = await curlUpload(base, who.operator, '/files/upload?root=images&path=', { form: source });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect((res.json.data as FileUploadResult).entry.path).toBe('form-file.txt');
    expect(await readFile(path.join(images, 'form-file.txt'), 'utf8')).toBe('from a form');
  });

  it('never overwrites without overwrite=true, and then replaces the file', async () => {
    const source = path.join(scratch.dir, 'v2.txt');
    await writeFile(source, 'version two');
    await writeFile(path.join(boot, 'keep.txt'), 'version one');
    const refused = await curlUpload(base, who.operator, '/files/upload?path=keep.txt', { data: source });
    expect(refused.status).toBe(409);
    expect(await readFile(path.join(boot, 'keep.txt'), 'utf8')).toBe('version one');
    const replaced = await curlUpload(base, who.operator, '/files/upload?path=keep.txt&overwrite=true', { data: source });
    expect(replaced.status).toBe(201);
    expect((replaced.json.data as FileUploadResult).replaced).toBe(true);
    expect(await readFile(path.join(boot, 'keep.txt'), 'utf8')).toBe('version two');
  });

  it('never replaces a directory, needs parents for missing directories, and leaves no partial file', async () => {
    const source = path.join(scratch.dir, 'small.txt');
    await writeFile(source, 'small');
    await mkdir(path.join(boot, 'a-dir'), { recursive: true });
    const dir = await curlUpload(base, who.operator, '/files/upload?path=a-dir&overwrite=true', { raw: source });
    expect(dir.status).toBe(409);
    expect((await stat(path.join(boot, 'a-dir'))).isDirectory()).toBe(true);
    const missing = await curlUpload(base, who.operator, '/files/upload?path=new-dir/x.txt', { raw: source });
    expect(missing.status).toBe(404);
    expect(missing.json.error).toMatch(/parents=true/);
    await expect(stat(path.join(boot, 'new-dir'))).rejects.toThrow();
    expect((await readdir(boot)).filter((name) => name.startsWith(PARTIAL_PREFIX))).toEqual([]);
  });

  it('refuses a declared size larger than the free space (413) before writing anything', async () => {
    const source = path.join(scratch.dir, 'small.txt');
    const roots = (await call(base, who.viewer, 'GET', '/files/root')).json.data as FileRoot[];
    const free = roots[0]?.free_bytes ?? 0;
    expect(free).toBeGreaterThan(0);
    const res = await curlUpload(base, who.operator, `/files/upload?path=huge.bin&size=${free + 1}`, { raw: source });
    expect(res.status).toBe(413);
    // Over the upload limit or over the free space, whichever this machine's disk makes it.
    expect(res.json.error).toMatch(/free|at most/);
    await expect(stat(path.join(boot, 'huge.bin'))).rejects.toThrow();
    expect((await readdir(boot)).filter((name) => name.startsWith(PARTIAL_PREFIX))).toEqual([]);
  });

  it('a client that goes away mid-upload leaves neither the file nor a partial file', async () => {
    const url = new URL(`${base}/api/v1/files/upload?root=boot&path=aborted.bin`);
    const request = http.request({ host: url.hostname, port: url.port, method: 'POST', path: `${url.pathname}${url.search}`, headers: { authorization: who.operator.authorization, 'content-type': 'application/octet-stream', 'content-length': String(64 * 1024 * 1024) } });
    request.on('error', () => undefined);
    request.write(Buffer.alloc(1024 * 1024, 7));
    const partials = async () => (await readdir(boot)).filter((name) => name.startsWith(PARTIAL_PREFIX));
    for (let attempt = 0; attempt < 200 && (await partials()).length === 0; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await partials()).toHaveLength(1);
    request.destroy();
    for (let attempt = 0; attempt < 200 && (await partials()).length > 0; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await partials()).toEqual([]);
    await expect(stat(path.join(boot, 'aborted.bin'))).rejects.toThrow();
  });

  it('a viewer may list but not upload or delete', async () => {
    const source = path.join(scratch.dir, 'small.txt');
    expect((await curlUpload(base, who.viewer, '/files/upload?path=viewer.txt', { raw: source })).status).toBe(403);
    expect((await call(base, who.viewer, 'DELETE', '/files?path=keep.txt')).status).toBe(403);
    await expect(stat(path.join(boot, 'viewer.txt'))).rejects.toThrow();
  });
});

describe('DELETE /files', () => {
  it('deletes a file, a symlink itself (not its target), an empty directory, and a tree only with recursive', async () => {
    await mkdir(path.join(boot, 'del', 'tree', 'inner'), { recursive: true });
    await mkdir(path.join(boot, 'del', 'empty'));
    await writeFile(path.join(boot, 'del', 'file.txt'), 'x');
    await writeFile(path.join(boot, 'del', 'tree', 'inner', 'f'), 'y');
    await symlink('/etc/hostname', path.join(boot, 'del', 'link'));

    const file = await call(base, who.operator, 'DELETE', '/files?path=del/file.txt');
    expect(file.json.data as FileDeleteResult).toEqual({ root: 'boot', path: 'del/file.txt', type: 'file' });
    const link = await call(base, who.operator, 'DELETE', '/files?path=del/link');
    expect(link.json.data as FileDeleteResult).toMatchObject({ type: 'symlink' });
    expect((await stat('/etc/hostname')).isFile()).toBe(true);
    expect((await call(base, who.operator, 'DELETE', '/files?path=del/empty')).status).toBe(200);
    const full = await call(base, who.operator, 'DELETE', '/files?path=del/tree');
    expect(full.status).toBe(409);
    expect(full.json.error).toMatch(/recursive=true/);
    const tree = await call(base, who.operator, 'DELETE', '/files?path=del/tree&recursive=true');
    expect(tree.status).toBe(200);
    expect(await readdir(path.join(boot, 'del'))).toEqual([]);
    const audit = await auditEntryOf(t.core, tree.requestId);
    expect(audit).toMatchObject({ action: 'files.delete', outcome: 'success', detail: { root: 'boot', path: 'del/tree', type: 'directory', recursive: 'true' } });
  });

  it('never deletes a root itself; 404 for a missing file', async () => {
    for (const rootPath of ['.', '/', '//', './']) {
      const res = await call(base, who.operator, 'DELETE', `/files?root=images&path=${encodeURIComponent(rootPath)}`);
      expect(res.status, rootPath).toBe(400);
    }
    expect((await stat(images)).isDirectory()).toBe(true);
    expect((await call(base, who.operator, 'DELETE', '/files?path=no-such-file')).status).toBe(404);
  });

  it('asks the delete hook first, with the root and the absolute path; its refusal keeps the file', async () => {
    await writeFile(path.join(images, 'in-use.iso'), 'iso');
    await writeFile(path.join(images, 'free.iso'), 'iso');
    deleteChecks.length = 0;
    expect((await call(base, who.operator, 'DELETE', '/files?root=images&path=free.iso')).status).toBe(200);
    expect(deleteChecks).toEqual([`images:${path.join(images, 'free.iso')}`]);
    const refused = await call(base, who.operator, 'DELETE', '/files?root=images&path=in-use.iso');
    expect(refused.status).toBe(409);
    expect(refused.json.error).toMatch(/Debian/);
    expect((await stat(path.join(images, 'in-use.iso'))).isFile()).toBe(true);
  });
});

describe('GET /fs/browse', () => {
  it('without a path lists the usable allowed roots; inside, directories (files with show=all and extensions)', async () => {
    await mkdir(path.join(drop.dir, 'isos', 'nested'), { recursive: true });
    await writeFile(path.join(drop.dir, 'isos', 'debian.iso'), 'iso');
    await writeFile(path.join(drop.dir, 'isos', 'notes.txt'), 'txt');
    const top = await call(base, who.admin, 'GET', '/fs/browse');
    expect(top.status).toBe(200);
    const roots = top.json.data as BrowseResult;
    expect(roots).toMatchObject({ path: null, parent: null });
    expect(roots.roots).toEqual(expect.arrayContaining([boot, images, drop.dir]));
    expect(roots.entries.map((entry) => entry.path)).toEqual(roots.roots);

    const atRoot = (await call(base, who.admin, 'GET', `/fs/browse?path=${encodeURIComponent(drop.dir)}`)).json.data as BrowseResult;
    expect(atRoot).toMatchObject({ path: drop.dir, parent: null });
    const dirs = (await call(base, who.admin, 'GET', `/fs/browse?path=${encodeURIComponent(path.join(drop.dir, 'isos'))}`)).json.data as BrowseResult;
    expect(dirs.parent).toBe(drop.dir);
    expect(dirs.entries.map((entry) => entry.name)).toEqual(['nested']);
    const all = (await call(base, who.admin, 'GET', `/fs/browse?path=${encodeURIComponent(path.join(drop.dir, 'isos'))}&show=all&extensions=.ISO,img`)).json.data as BrowseResult;
    expect(all.entries.map((entry) => [entry.name, entry.type])).toEqual([
      ['nested', 'directory'],
      ['debian.iso', 'file'],
    ]);
  });

  it('is an admin\'s: an operator gets 403', async () => {
    expect((await call(base, who.operator, 'GET', '/fs/browse')).status).toBe(403);
  });
});
