import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFile, mkdir, readdir, readFile, rm, stat, statfs, symlink, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../src-main/core/http-kit/access.js';
import type { OsImage } from '../../../src-main/os-images/os-images-contract.js';
import { FakeMounts, fakeDetector, fakeExtractor, fakeIso, fakeOpener } from '../../helpers/os-image-fakes.js';
import { createTestCore, tempDir, type TestCore } from '../../helpers/test-core.js';
import { as, ROLE_HEADER, roleAuthenticator } from '../settings/role-authenticator.js';

const run = promisify(execFile);
const sha = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

let t: TestCore;
let base: string;
let work: { dir: string; remove: () => Promise<void> };
let library: string;
const mounts = new FakeMounts();
const opener = fakeOpener();
let releaseExtract: () => void = () => undefined;
const extractGate = new Promise<void>((resolve) => {
  releaseExtract = resolve;
});

interface Body {
  success: boolean;
  data: OsImage & Record<string, unknown>;
  meta?: { total: number };
  error?: string;
  code?: string;
  details?: { field: string; message: string }[];
}

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, role: Role = 'operator') {
  const res = await t.core.http.inject({ method, url: `/api/v1${url}`, headers: as(role), ...(payload !== undefined ? { payload: payload as object } : {}) });
  return { status: res.statusCode, body: res.json() as Body, headers: res.headers };
}

async function list(query = ''): Promise<OsImage[]> {
  const res = await t.core.http.inject({ method: 'GET', url: `/api/v1/os-images${query}`, headers: as('viewer') });
  return (res.json() as { data: OsImage[] }).data;
}

/** curl with the test role; answers status, headers and the JSON body. */
async function curl(args: string[], role: Role = 'operator'): Promise<{ status: number; headers: string; body: Body }> {
  const headerFile = path.join(work.dir, `headers-${Math.random().toString(16).slice(2)}`);
  const { stdout } = await run('curl', ['-sS', '-D', headerFile, '-H', `${ROLE_HEADER}: ${role}`, ...args], { maxBuffer: 16 * 1024 * 1024 });
  const headers = await readFile(headerFile, 'utf8');
  await rm(headerFile, { force: true });
  const statuses = [...headers.matchAll(/^HTTP\/[\d.]+ (\d+)/gm)].map((match) => Number(match[1]));
  return { status: statuses.at(-1) ?? 0, headers, body: JSON.parse(stdout) as Body };
}

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, tries = 200): Promise<T> {
  for (let i = 0; i < tries; i += 1) {
    const value = await probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const eventsOf = (kind: string) => t.core.kernel.events.all().filter((event) => event.kind === kind);
const exists = async (file: string) => stat(file).then(() => true, () => false);

beforeAll(async () => {
  work = await tempDir('bootwright-os-images-');
  library = path.join(work.dir, 'library');
  await mkdir(library, { recursive: true });
  t = await createTestCore({
    authenticator: roleAuthenticator,
    config: { allowedRoots: [library] },
    osImages: { opener, detector: fakeDetector, extractor: fakeExtractor(extractGate), mounts, dropSettleMs: 300 },
  });
  await t.core.start();
  base = `http://127.0.0.1:${t.core.kernel.http.port()}/api/v1`;
});
afterAll(async () => {
  releaseExtract();
  await t?.close();
  await work?.remove();
});

describe('OS images: upload', () => {
  it('takes a raw body streamed by curl -T, hashes it, reads it and lists it; the upload id comes back in Upload-Id', async () => {
    const data = fakeIso('DEBIAN 12.5.0 amd64', 200_000);
    const file = path.join(work.dir, 'debian-12.iso');
    await writeFile(file, data);
    const res = await curl(['-X', 'POST', '-T', file, `${base}/os-images/upload?file_name=debian-12.5.0-amd64.iso&size=${data.length}`]);
    expect(res.status, res.body.error).toBe(201);
    expect(res.headers).toMatch(/^upload-id: [a-f0-9]{32}\r?$/im);
    const image = res.body.data;
    expect(image).toMatchObject({ name: 'debian-12.5.0-amd64', slug: 'debian-12.5.0-amd64', file_name: 'debian-12.5.0-amd64.iso', size: data.length, sha256: sha(data), source: 'upload', state: 'ready', mounted: null, extracted: null });
    expect(image.iso?.volume_id).toBe('DEBIAN 12.5.0 amd64');
    expect(image.detection?.catalog_entry).toEqual({ distro: 'debian', version: '12', arch: 'x86_64' });
    expect(image.path).toBe(path.join(t.dataDir, 'images', 'debian-12.5.0-amd64.iso'));
    expect(await readFile(image.path)).toEqual(data);
    expect(await readdir(path.join(t.dataDir, 'images', '.uploads'))).toEqual([]);
    const events = eventsOf('os_image.upload.progress');
    expect(events.at(-1)?.detail).toMatchObject({ file_name: 'debian-12.5.0-amd64.iso', bytes: data.length, total: data.length, percent: 100 });
    expect(eventsOf('os_image.added')).toHaveLength(1);
    // Reading is a viewer's, uploading an operator's.
    expect((await call('GET', `/os-images/${image.id}`, undefined, 'viewer')).body.data.sha256).toBe(sha(data));
    expect((await curl(['-X', 'POST', '-T', file, `${base}/os-images/upload?file_name=v.iso`], 'viewer')).status).toBe(403);
    expect((await list('?family=debian')).map((row) => row.id)).toEqual([image.id]);
    expect(await list('?family=ubuntu')).toEqual([]);
    expect((await list('?state=ready&q=12.5')).map((row) => row.id)).toEqual([image.id]);
  });

  it('takes a multipart body (curl -F): the part names the file', async () => {
    const data = fakeIso('UBUNTU 24.04.1 amd64');
    const file = path.join(work.dir, 'ubuntu-24.04.iso');
    await writeFile(file, data);
    const res = await curl(['-F', `file=@${file}`, `${base}/os-images/upload?name=Ubuntu%20Server`]);
    expect(res.status, res.body.error).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'Ubuntu Server', file_name: 'ubuntu-24.04.iso', sha256: sha(data), source: 'upload' });
    expect(res.body.data.detection?.catalog_entry).toEqual({ distro: 'ubuntu', version: '24.04', arch: 'x86_64' });
  });

  it('refuses a file the reader does not take (400 with its reason) and removes it', async () => {
    const file = path.join(work.dir, 'not-an-iso.iso');
    await writeFile(file, Buffer.alloc(10_000, 7));
    const res = await curl(['-X', 'POST', '-T', file, `${base}/os-images/upload?file_name=not-an-iso.iso`]);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/not a readable ISO image: no ISO 9660 volume descriptor/);
    expect(await exists(path.join(t.dataDir, 'images', 'not-an-iso.iso'))).toBe(false);
    expect(await readdir(path.join(t.dataDir, 'images', '.uploads'))).toEqual([]);
    expect((await call('GET', '/os-images/uploads', undefined, 'viewer')).body.data).toEqual([]);
  });

  it('refuses a SHA-256 mismatch and keeps nothing', async () => {
    const file = path.join(work.dir, 'hashme.iso');
    await writeFile(file, fakeIso('HASH 1 amd64'));
    const res = await curl(['-X', 'POST', '-T', file, `${base}/os-images/upload?file_name=hashme.iso&sha256=${'0'.repeat(64)}`]);
    expect(res.status).toBe(400);
    expect(res.body.details?.[0]?.field).toBe('sha256');
    expect(await exists(path.join(t.dataDir, 'images', 'hashme.iso'))).toBe(false);
    expect(await readdir(path.join(t.dataDir, 'images', '.uploads'))).toEqual([]);
  });

  it('refuses a duplicate name (409) and replaces the file with overwrite=true (same image, new hash)', async () => {
    const first = fakeIso('DUP 1 amd64');
    const second = fakeIso('DUP 2 amd64');
    const file = path.join(work.dir, 'dup.iso');
    await writeFile(file, first);
    const made = await curl(['-X', 'POST', '--data-binary', `@${file}`, `${base}/os-images/upload?file_name=dup.iso`]);
    expect(made.status, made.body.error).toBe(201);
    await writeFile(file, second);
    const again = await curl(['-X', 'POST', '-T', file, `${base}/os-images/upload?file_name=dup.iso`]);
    expect(again.status).toBe(409);
    expect(await readFile(made.body.data.path)).toEqual(first);
    const replaced = await curl(['-X', 'POST', '-T', file, `${base}/os-images/upload?file_name=dup.iso&overwrite=true`]);
    expect(replaced.status, replaced.body.error).toBe(200);
    expect(replaced.body.data).toMatchObject({ id: made.body.data.id, sha256: sha(second) });
    expect(replaced.body.data.iso?.volume_id).toBe('DUP 2 amd64');
  });

  it('refuses before writing when the disk cannot hold the declared size', async () => {
    const file = path.join(work.dir, 'small.iso');
    await writeFile(file, fakeIso('SMALL 1 amd64'));
    // More than this disk holds (or, on a disk with more than 64 GiB free, more than an image may be).
    const space = await statfs(t.dataDir);
    const size = Math.min(space.bavail * space.bsize + 2 ** 30, 64 * 1024 ** 3 + 1);
    const res = await curl(['-X', 'POST', '-T', file, `${base}/os-images/upload?file_name=huge.iso&size=${size}`]);
    expect(res.status).toBe(413);
    expect(res.body.error).toMatch(/not enough free space|at most/);
    expect(await readdir(path.join(t.dataDir, 'images', '.uploads'))).toEqual([]);
    const over = await curl(['-X', 'POST', '-T', file, `${base}/os-images/upload?file_name=huge.iso&size=${65 * 1024 ** 3}`]);
    expect(over.status).toBe(413);
  });

  it('resumes a raw upload whose connection was cut, after refusing a wrong offset; lists and cancels partial uploads', async () => {
    const data = fakeIso('RESUME 1 amd64', 3_000_000);
    const uploadId = 'ab'.repeat(16);
    const half = 1_000_000;
    // A client that sends a third, then drops the connection.
    await new Promise<void>((resolve) => {
      const req = httpRequest(`${base}/os-images/upload?file_name=resume.iso&upload_id=${uploadId}&size=${data.length}`, {
        method: 'POST',
        headers: { [ROLE_HEADER]: 'operator', 'content-type': 'application/octet-stream', 'content-length': String(data.length) },
      });
      req.on('error', () => resolve());
      req.on('response', () => resolve());
      req.write(data.subarray(0, half), () => setTimeout(() => req.destroy(), 300));
    });
    const partial = await until('the partial upload', async () => {
      const uploads = (await call('GET', '/os-images/uploads', undefined, 'viewer')).body.data as unknown as { upload_id: string; received: number }[];
      const found = uploads.find((upload) => upload.upload_id === uploadId);
      return found && found.received === half && !t.core.area('os-images').service.byPath(path.join(t.dataDir, 'images', 'resume.iso')) ? found : undefined;
    });
    expect(partial).toMatchObject({ file_name: 'resume.iso', size: data.length });
    const rest = path.join(work.dir, 'rest.bin');
    await writeFile(rest, data.subarray(half));
    const wrong = await curl(['-X', 'POST', '-T', rest, `${base}/os-images/upload?upload_id=${uploadId}&offset=5`]);
    expect(wrong.status).toBe(409);
    expect(wrong.body.error).toContain(`resume from offset ${half}`);
    const done = await curl(['-X', 'POST', '-T', rest, `${base}/os-images/upload?upload_id=${uploadId}&offset=${half}&sha256=${sha(data)}`]);
    expect(done.status, done.body.error).toBe(201);
    expect(done.body.data).toMatchObject({ file_name: 'resume.iso', size: data.length, sha256: sha(data) });
    expect((await call('GET', '/os-images/uploads', undefined, 'viewer')).body.data).toEqual([]);

    // A broken-off upload can be cancelled instead.
    const otherId = 'cd'.repeat(16);
    const cut = await curl(['-X', 'POST', '-H', 'content-type: application/octet-stream', '--data-binary', `@${rest}`, `${base}/os-images/upload?file_name=cancel.iso&upload_id=${otherId}&size=${data.length}`]);
    expect(cut.status).toBe(400);
    expect(cut.body.error).toContain(`resume from offset ${data.length - half}`);
    expect((await call('DELETE', `/os-images/uploads/${otherId}`, undefined, 'viewer')).status).toBe(403);
    const cancelled = await call('DELETE', `/os-images/uploads/${otherId}`);
    expect(cancelled.status).toBe(200);
    expect(await readdir(path.join(t.dataDir, 'images', '.uploads'))).toEqual([]);
    expect((await call('DELETE', `/os-images/uploads/${otherId}`)).status).toBe(404);
  });
});

describe('OS images: import and the drop folder', () => {
  it('links a file where it is (hash in the background, usable before) and refuses the same real path twice', async () => {
    const data = fakeIso('DEBIAN 12.7.0 amd64', 500_000);
    const file = path.join(library, 'linked.iso');
    await writeFile(file, data);
    const res = await call('POST', '/os-images/import', { path: file });
    expect(res.status, res.body.error).toBe(201);
    expect(res.body.data).toMatchObject({ source: 'import', path: file, size: data.length });
    expect(res.body.data.detection?.family).toBe('debian');
    const hashed = await until('the background hash', async () => {
      const image = (await call('GET', `/os-images/${res.body.data.id}`, undefined, 'viewer')).body.data;
      return image.sha256 !== null ? image : undefined;
    });
    expect(hashed).toMatchObject({ sha256: sha(data), state: 'ready' });
    await symlink(file, path.join(library, 'alias.iso'));
    const twice = await call('POST', '/os-images/import', { path: path.join(library, 'alias.iso') });
    expect(twice.status).toBe(409);
    // Deleting a linked image keeps the user's file.
    const removed = await call('DELETE', `/os-images/${res.body.data.id}`);
    expect(removed.status, removed.body.error).toBe(200);
    expect(removed.body.data.file_deleted).toBe(false);
    expect(await readFile(file)).toEqual(data);
  });

  it('copies a file into the images folder; deleting the copy removes the copy only', async () => {
    const data = fakeIso('COPY 1 amd64', 300_000);
    const file = path.join(library, 'copied.iso');
    await writeFile(file, data);
    const res = await call('POST', '/os-images/import', { path: file, mode: 'copy', name: 'Copied' });
    expect(res.status, res.body.error).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'Copied', source: 'import', sha256: sha(data), state: 'ready', path: path.join(t.dataDir, 'images', 'copied.iso') });
    expect(await readFile(res.body.data.path)).toEqual(data);
    const removed = await call('DELETE', `/os-images/${res.body.data.id}`);
    expect(removed.body.data.file_deleted).toBe(true);
    expect(await exists(res.body.data.path)).toBe(false);
    expect(await exists(file)).toBe(true);
  });

  it('refuses traversal, symlinks out of the roots, device files, NUL, relative paths and non-images (400 naming body.path, audited)', async () => {
    const outside = path.join(work.dir, 'outside');
    await mkdir(outside, { recursive: true });
    await writeFile(path.join(outside, 'secret.iso'), fakeIso('SECRET 1 amd64'));
    await symlink(path.join(outside, 'secret.iso'), path.join(library, 'escape.iso'));
    await symlink('/dev/null', path.join(library, 'devnull.iso'));
    await writeFile(path.join(library, 'junk.iso'), 'not an iso');
    const before = (await list()).length;
    for (const bad of [
      `${library}/../outside/secret.iso`,
      path.join(library, 'escape.iso'),
      path.join(library, 'devnull.iso'),
      '/dev/null',
      `${library}/a\u0000.iso`,
      'library/linked.iso',
      path.join(outside, 'secret.iso'),
    ]) {
      const res = await call('POST', '/os-images/import', { path: bad });
      expect(res.status, bad).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.details?.[0]?.field).toBe('body.path');
    }
    const junk = await call('POST', '/os-images/import', { path: path.join(library, 'junk.iso') });
    expect(junk.status).toBe(400);
    expect(junk.body.error).toMatch(/not a readable ISO/);
    expect(await list()).toHaveLength(before);
    const audit = await t.core.http.inject({ method: 'GET', url: '/api/v1/audit-logs?q=os-images/import&size=100', headers: as('admin') });
    const entries = (audit.json() as { data: { status_code?: number; result?: string }[] }).data;
    expect(entries.length).toBeGreaterThanOrEqual(8);
  });

  it('takes a file copied slowly into the drop folder only once it is complete; a removed file turns its image to error', async () => {
    const drop = path.join(library, 'drop');
    await mkdir(drop, { recursive: true });
    expect((await call('PUT', '/os-images/settings', { drop_folder: drop })).status).toBe(403);
    const bad = await call('PUT', '/os-images/settings', { drop_folder: work.dir }, 'admin');
    expect(bad.status).toBe(400);
    expect(bad.body.details?.[0]?.field).toBe('body.drop_folder');
    const set = await call('PUT', '/os-images/settings', { drop_folder: drop }, 'admin');
    expect(set.status, set.body.error).toBe(200);
    expect(set.body.data).toEqual({ drop_folder: drop, auto_mount: false });
    const data = fakeIso('DROPPED 1 amd64', 400_000);
    const file = path.join(drop, 'dropped.iso');
    const chunk = 50_000;
    for (let offset = 0; offset < data.length; offset += chunk) {
      await appendFile(file, data.subarray(offset, offset + chunk));
      await new Promise((resolve) => setTimeout(resolve, 100));
      // Never imported half-written.
      expect(t.core.area('os-images').service.byPath(file)).toBeUndefined();
    }
    const image = await until('the dropped image', async () => t.core.area('os-images').service.byPath(file));
    expect(image).toMatchObject({ source: 'drop_folder', size: data.length });
    expect(opener.opened.filter((opened) => opened === file).length).toBeGreaterThanOrEqual(1);
    await until('its hash', async () => t.core.area('os-images').service.byPath(file)?.sha256 === sha(data));
    await rm(file);
    const missing = await until('the missing file', async () => {
      const row = t.core.area('os-images').service.byPath(file);
      return row?.state === 'error' ? row : undefined;
    });
    expect(missing.error).toBe('file missing');
    await writeFile(file, data);
    await until('the file back', async () => t.core.area('os-images').service.byPath(file)?.state !== 'error');
    expect((await call('PUT', '/os-images/settings', { drop_folder: null }, 'admin')).body.data.drop_folder).toBeNull();
  });
});

describe('OS images: use, download, extract, mount', () => {
  let image: OsImage;
  let data: Buffer;

  beforeAll(async () => {
    data = fakeIso('DEBIAN 12.8.0 amd64', 1_000_000);
    const file = path.join(work.dir, 'used.iso');
    await writeFile(file, data);
    const res = await curl(['-X', 'POST', '-T', file, `${base}/os-images/upload?file_name=used.iso`]);
    expect(res.status, res.body.error).toBe(201);
    image = res.body.data;
  });

  it('downloads with ranges, HEAD and ETag', async () => {
    const whole = await fetch(`${base}/os-images/${image.id}/file`, { headers: as('viewer') });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-disposition')).toBe('attachment; filename="used.iso"');
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(data);
    const etag = whole.headers.get('etag') ?? '';
    expect(etag).toBe(`"${sha(data)}"`);
    const part = await fetch(`${base}/os-images/${image.id}/file`, { headers: { ...as('viewer'), range: 'bytes=1000-204999' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-204999/${data.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(data.subarray(1000, 205000));
    const tail = await fetch(`${base}/os-images/${image.id}/file`, { headers: { ...as('viewer'), range: 'bytes=-10' } });
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(data.subarray(data.length - 10));
    expect((await fetch(`${base}/os-images/${image.id}/file`, { headers: { ...as('viewer'), range: `bytes=${data.length}-` } })).status).toBe(416);
    expect((await fetch(`${base}/os-images/${image.id}/file`, { headers: { ...as('viewer'), 'if-none-match': etag } })).status).toBe(304);
    const head = await fetch(`${base}/os-images/${image.id}/file`, { method: 'HEAD', headers: as('viewer') });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(data.length));
    expect((await fetch(`${base}/os-images/${image.id}/file`)).status).toBe(401);
  });

  it('refuses to delete an image a profile uses (409 naming it) unless forced', async () => {
    const profiles = t.core.area('profiles');
    const profile = await profiles.create({ name: 'Boot used ISO', boot_type: 'linux', linux: { kernel: `iso/${image.slug}/casper/vmlinuz`, initrds: [`iso/${image.slug}/casper/initrd`] } }, { author: 'test' });
    const refused = await call('DELETE', `/os-images/${image.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.details).toEqual([{ field: 'profile', message: `profile ${profile.id} (Boot used ISO)` }]);
    expect(refused.body.error).toContain('Boot used ISO');
    expect((await call('GET', `/os-images/${image.id}`, undefined, 'viewer')).status).toBe(200);
    await profiles.remove(profile.id);
  });

  it('extracts in the background through the extractor (202, one operation at a time, progress and done events)', async () => {
    const started = await call('POST', `/os-images/${image.id}/extract`, { mode: 'boot' });
    expect(started.status, started.body.error).toBe(202);
    const busy = await call('POST', `/os-images/${image.id}/extract`);
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe('INVALID_STATE');
    expect((await call('POST', `/os-images/${image.id}/reprocess`)).status).toBe(409);
    releaseExtract();
    await t.core.area('os-images').service.settled(image.id);
    const extracted = (await call('GET', `/os-images/${image.id}`, undefined, 'viewer')).body.data.extracted;
    expect(extracted).toMatchObject({ mode: 'boot', boot_path: `images/${image.slug}/`, files: 3 });
    const target = path.join(t.core.area('boot-files').files.root, 'images', image.slug);
    expect(await readFile(path.join(target, 'casper', 'vmlinuz'), 'utf8')).toBe('kernel bytes');
    expect(eventsOf('os_image.extract.progress').length).toBeGreaterThanOrEqual(1);
    expect(eventsOf('os_image.extracted')).toHaveLength(1);
  });

  it('mounts and unmounts through the mount port; a new slug remounts; slugs are unique', async () => {
    const mounted = await call('POST', `/os-images/${image.id}/mount`);
    expect(mounted.status, mounted.body.error).toBe(200);
    expect(mounted.body.data.mounted?.url_path).toBe(`/boot/iso/${image.slug}/`);
    expect(mounts.current.get(image.id)).toMatchObject({ slug: image.slug, file: image.path });
    const taken = await call('PUT', `/os-images/${image.id}`, { slug: 'debian-12.5.0-amd64' });
    expect(taken.status).toBe(409);
    const renamed = await call('PUT', `/os-images/${image.id}`, { slug: 'used-renamed', description: 'moved' });
    expect(renamed.status, renamed.body.error).toBe(200);
    expect(renamed.body.data).toMatchObject({ slug: 'used-renamed', description: 'moved', extracted: expect.objectContaining({ boot_path: 'images/used-renamed/' }) });
    expect(renamed.body.data.mounted?.url_path).toBe('/boot/iso/used-renamed/');
    expect(mounts.current.get(image.id)?.slug).toBe('used-renamed');
    expect(await exists(path.join(t.core.area('boot-files').files.root, 'images', 'used-renamed', 'casper', 'vmlinuz'))).toBe(true);
    const reprocessed = await call('POST', `/os-images/${image.id}/reprocess`);
    expect(reprocessed.status, reprocessed.body.error).toBe(200);
    expect(mounts.current.has(image.id)).toBe(true);
    const unmounted = await call('POST', `/os-images/${image.id}/unmount`);
    expect(unmounted.body.data.mounted).toBeNull();
    expect(mounts.current.has(image.id)).toBe(false);
    expect((await call('POST', `/os-images/${image.id}/mount`, undefined, 'viewer')).status).toBe(403);
  });

  it('deletes an uploaded image with its file, its extraction and its mount', async () => {
    await call('POST', `/os-images/${image.id}/mount`);
    const removed = await call('DELETE', `/os-images/${image.id}`);
    expect(removed.status, removed.body.error).toBe(200);
    expect(removed.body.data.file_deleted).toBe(true);
    expect(mounts.current.has(image.id)).toBe(false);
    expect(await exists(image.path)).toBe(false);
    expect(await exists(path.join(t.core.area('boot-files').files.root, 'images', 'used-renamed'))).toBe(false);
    expect((await call('GET', `/os-images/${image.id}`, undefined, 'viewer')).status).toBe(404);
  });
});

describe('OS images: auto-mount', () => {
  it('mounts a new image as soon as it is detected when auto_mount is on', async () => {
    expect((await call('PUT', '/os-images/settings', { auto_mount: true }, 'admin')).body.data.auto_mount).toBe(true);
    const file = path.join(work.dir, 'auto.iso');
    await writeFile(file, fakeIso('AUTO 1 amd64'));
    const res = await curl(['-X', 'POST', '-T', file, `${base}/os-images/upload?file_name=auto.iso`]);
    expect(res.status, res.body.error).toBe(201);
    expect(res.body.data.mounted?.url_path).toBe('/boot/iso/auto/');
    expect(mounts.current.get(res.body.data.id)?.slug).toBe('auto');
    expect((await call('PUT', '/os-images/settings', { auto_mount: false }, 'admin')).body.data.auto_mount).toBe(false);
  });
});

describe('OS images: restart', () => {
  it('mounts again after a restart what was mounted before', async () => {
    const dir = await tempDir('bootwright-os-images-restart-');
    try {
      const firstMounts = new FakeMounts();
      const first = await createTestCore({ dataDir: dir.dir, authenticator: roleAuthenticator, osImages: { opener: fakeOpener(), detector: fakeDetector, mounts: firstMounts } });
      await first.core.start();
      const file = path.join(dir.dir, 'r.iso');
      await writeFile(file, fakeIso('RESTART 1 amd64'));
      const up = await first.core.http.inject({ method: 'POST', url: '/api/v1/os-images/upload?file_name=restart.iso', headers: { ...as('operator'), 'content-type': 'application/octet-stream' }, payload: await readFile(file) });
      expect(up.statusCode, up.body).toBe(201);
      const id = (up.json() as Body).data.id;
      await first.core.http.inject({ method: 'POST', url: `/api/v1/os-images/${id}/mount`, headers: as('operator') });
      expect(firstMounts.mounted()).toEqual([id]);
      await first.close();
      const secondMounts = new FakeMounts();
      const second = await createTestCore({ dataDir: dir.dir, authenticator: roleAuthenticator, osImages: { opener: fakeOpener(), detector: fakeDetector, mounts: secondMounts } });
      await second.core.start();
      expect(secondMounts.current.get(id)).toMatchObject({ slug: 'restart' });
      await second.close();
    } finally {
      await dir.remove();
    }
  });
});
