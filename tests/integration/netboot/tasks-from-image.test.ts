import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../../src-main/events/event-types.js';
import type { InstallTask } from '../../../src-main/netboot/netboot-contract.js';
import type { OsImage } from '../../../src-main/os-images/os-images-contract.js';
import { loginHeaders } from '../../helpers/auth.js';
import { buildIso, isoToolPresent, mediaEntries } from '../../helpers/iso-fixtures.js';
import { NetbootMirror } from '../../helpers/netboot-mirror.js';
import { DEBIAN_NETINST, ROCKY_DVD } from '../../helpers/os-media.js';
import { createTestCore, tempDir, type TestCore } from '../../helpers/test-core.js';
import { patternBytes } from '../tftp/tftp-harness.js';

/*
 * An install task for a catalog entry boots from a ready OS image linked to
 * it (docs/netboot.md, "Installing from an OS image (offline)"): a Rocky
 * DVD built by xorriso is imported, a task for rocky 9 x86_64 gets a boot
 * script whose kernel, initrd, inst.repo and kickstart mirror all point into
 * /boot/iso/<slug>/, the files served there are the ISO's bytes, and the
 * local "mirror" the catalog names is never asked. Once the image is gone,
 * the task falls back to the entry's files (download cache, mirror) and says
 * so.
 */

const canRun = isoToolPresent('xorriso', 'the install-from-image test');

const ISO_KERNEL = patternBytes(300_007, 21);
const ISO_INITRD = patternBytes(900_011, 22);
const MIRROR_KERNEL = patternBytes(50_003, 31);
const MIRROR_INITRD = patternBytes(60_007, 32);
const MAC = '52:54:00:0f:f1:01';

let t: TestCore;
let mirror: NetbootMirror;
let work: { dir: string; remove: () => Promise<void> };
let operator: Record<string, string>;
let base: string;
const events: AppEvent[] = [];

async function api<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown): Promise<{ status: number; data: T; text: string }> {
  const res = await t.core.http.inject({ method, url: `/api/v1${url}`, headers: operator, ...(body !== undefined ? { payload: body as object } : {}) });
  const parsed = JSON.parse(res.body) as { data: T };
  return { status: res.statusCode, data: parsed.data, text: res.body };
}

/** The machine's boot script over real HTTP, as iPXE asks for it. */
async function bootScript(mac = MAC): Promise<string> {
  const res = await fetch(`${base}/boot/ipxe/boot.ipxe?mac=${encodeURIComponent(mac)}&arch=x86_64&platform=efi&uuid=12345678-1234-1234-1234-123456789abc&serial=SN1`);
  expect(res.status).toBe(200);
  return res.text();
}

/** The kernel and initrd URLs and the kernel arguments of an installer script. */
function loads(script: string): { kernel: string; args: string; initrds: string[] } {
  const kernel = /^kernel (\S+) (.*) \|\| goto bw-failed$/m.exec(script);
  if (!kernel?.[1] || kernel[2] === undefined) throw new Error(`no kernel line in\n${script}`);
  const initrds = [...script.matchAll(/^initrd --name \S+ (\S+) \|\| goto bw-failed$/gm)].map((match) => match[1] ?? '');
  return { kernel: kernel[1], args: kernel[2], initrds };
}

async function bytesOf(url: string): Promise<Buffer> {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

beforeAll(async () => {
  if (!canRun) return;
  work = await tempDir('bw-tasks-from-image-');
  const library = path.join(work.dir, 'library');
  await mkdir(library, { recursive: true });
  mirror = await new NetbootMirror().start();
  mirror.files.set('rocky/9/BaseOS/x86_64/os/images/pxeboot/vmlinuz', MIRROR_KERNEL);
  mirror.files.set('rocky/9/BaseOS/x86_64/os/images/pxeboot/initrd.img', MIRROR_INITRD);
  t = await createTestCore({ config: { allowedRoots: [library] } });
  t.core.kernel.events.subscribe((event) => events.push(event));
  await t.core.start();
  base = t.core.url();
  operator = await loginHeaders(t.core, 'operator');
  // The shipped Rocky entry, its mirror the local one: any request there would show in mirror.requests.
  for (const distro of ['rocky', 'debian']) {
    const overlay = await api('PUT', `/netboot/overlays/${distro}`, { mirror: `${mirror.base}/${distro}` });
    expect(overlay.status, overlay.text).toBe(200);
  }
  await buildIso(library, 'Rocky-9.4-x86_64-dvd.iso', {
    joliet: true,
    volumeId: 'Rocky-9-4-x86_64-dvd',
    entries: mediaEntries({ ...ROCKY_DVD, 'images/pxeboot/vmlinuz': ISO_KERNEL, 'images/pxeboot/initrd.img': ISO_INITRD }),
  });
  // A Debian CD with an archive (dists/, pool/), and the catalog's netboot installer under the boot root (as the debian-installer package puts it).
  await buildIso(library, 'debian-12.5.0-amd64-DVD-1.iso', { joliet: true, entries: mediaEntries(DEBIAN_NETINST) });
  const netboot = path.join(t.core.area('boot-files').files.root, 'netboot', 'debian', '12', 'x86_64');
  await mkdir(netboot, { recursive: true });
  await writeFile(path.join(netboot, 'linux'), patternBytes(4096, 41));
  await writeFile(path.join(netboot, 'initrd.gz'), patternBytes(4096, 42));
}, 60_000);

afterAll(async () => {
  await t?.close();
  await mirror?.close();
  await work?.remove();
});

describe.runIf(canRun)('an install task from an OS image linked to its catalog entry', () => {
  let image: OsImage;
  let task: InstallTask;

  it('boots the image\'s own installer: kernel, initrd, repository and kickstart mirror from /boot/iso/<slug>/, nothing from the mirror', async () => {
    const imported = await api<OsImage>('POST', '/os-images/import', { path: path.join(work.dir, 'library', 'Rocky-9.4-x86_64-dvd.iso') });
    expect(imported.status, imported.text).toBe(201);
    image = imported.data;
    expect(image.detection?.catalog_entry).toEqual({ distro: 'rocky', version: '9', arch: 'x86_64' });
    expect(image.mounted).toBeNull();

    const created = await api<InstallTask>('POST', '/netboot/tasks', { mac: MAC, distro: 'rocky', version: '9', arch: 'x86_64' });
    expect(created.status, created.text).toBe(201);
    task = created.data;
    // Nothing to download: no "not in the download cache" message, no prefetch.
    expect(task.message).toBe('');
    expect(task.boot_source).toMatchObject({ kind: 'image', image_id: image.id, network: '', fallback: null });
    expect(task.boot_source?.message).toContain(`/boot/iso/${image.slug}/`);

    const script = await bootScript();
    const { kernel, args, initrds } = loads(script);
    const mount = `${base}/boot/iso/${image.slug}/`;
    expect(kernel).toBe(`${mount}images/pxeboot/vmlinuz`);
    expect(initrds).toEqual([`${mount}images/pxeboot/initrd.img`]);
    expect(args).toContain(`inst.repo=${mount}`);
    expect(args).not.toMatch(/inst\.stage2=hd:|rd\.live\.check/);
    expect(args).toMatch(/inst\.ks=http:\/\/\S+\/answer/);
    // The boot mounted the image on demand.
    expect((await api<OsImage>('GET', `/os-images/${image.id}`)).data.mounted?.url_path).toBe(`/boot/iso/${image.slug}/`);

    expect(await bytesOf(kernel)).toEqual(ISO_KERNEL);
    expect(await bytesOf(initrds[0] ?? '')).toEqual(ISO_INITRD);
    // The DVD's repository is there too (what inst.repo= reads).
    expect((await bytesOf(`${mount}.treeinfo`)).toString()).toContain('[variant-BaseOS]');

    // The kickstart installs from the image, not from the entry's mirror.
    const ks = /inst\.ks=(\S+)/.exec(args)?.[1] ?? '';
    const answer = await fetch(ks);
    expect(answer.status).toBe(200);
    const kickstart = await answer.text();
    expect(kickstart).toContain(`url --url="${mount}"`);
    expect(kickstart).not.toContain(mirror.base);

    expect(mirror.requests).toEqual([]);
    const served = events.filter((event) => event.kind === 'netboot.task.state' && event.detail?.task_id === task.id && event.detail?.to === 'booting');
    expect(served.at(-1)?.message).toContain(`from OS image ${image.id}`);
    expect(events.filter((event) => event.kind === 'netboot.task.image_fallback')).toEqual([]);
    const scriptServed = events.filter((event) => event.kind === 'boot.script_served' && event.mac === MAC).at(-1);
    expect(scriptServed?.detail).toMatchObject({ boot_source: 'image', image_id: image.id });
  });

  it('falls back to the entry\'s files (download cache, mirror) once the image is gone, and says so', async () => {
    const removed = await api('DELETE', `/os-images/${image.id}?force=true`);
    expect(removed.status, removed.text).toBe(200);

    const view = await api<InstallTask>('GET', `/netboot/tasks/${task.id}`);
    expect(view.data.boot_source).toMatchObject({ kind: 'catalog', image_id: null });
    expect(view.data.boot_source?.fallback).toContain(`OS image ${image.id}`);

    const script = await bootScript();
    const { kernel, initrds, args } = loads(script);
    expect(kernel).toBe(`${base}/boot/netboot/rocky/9/x86_64/vmlinuz`);
    expect(initrds).toEqual([`${base}/boot/netboot/rocky/9/x86_64/initrd.img`]);
    expect(args).toContain(`inst.repo=${mirror.base}/rocky/9/BaseOS/x86_64/os/`);
    const fallback = events.filter((event) => event.kind === 'netboot.task.image_fallback');
    expect(fallback.at(-1)).toMatchObject({ level: 'warn', mac: MAC });
    expect(fallback.at(-1)?.detail).toMatchObject({ task_id: task.id, boot_source: 'catalog' });

    // The entry's files come through the download cache from the mirror.
    expect(await bytesOf(kernel)).toEqual(MIRROR_KERNEL);
    expect(mirror.requests.map((request) => request.path)).toContain('/rocky/9/BaseOS/x86_64/os/images/pxeboot/vmlinuz');
  });
});

describe.runIf(canRun)('a Debian install task with a Debian CD linked to its entry', () => {
  it('boots the catalog\'s netboot installer (never the CD initrd) with the mounted image as its mirror, and says what still needs the network', async () => {
    const imported = await api<OsImage>('POST', '/os-images/import', { path: path.join(work.dir, 'library', 'debian-12.5.0-amd64-DVD-1.iso') });
    expect(imported.status, imported.text).toBe(201);
    const image = imported.data;
    expect(image.detection?.catalog_entry).toEqual({ distro: 'debian', version: '12', arch: 'x86_64' });
    const mac = '52:54:00:0f:f1:02';
    const created = await api<InstallTask>('POST', '/netboot/tasks', { mac, distro: 'debian', version: '12', arch: 'x86_64' });
    expect(created.status, created.text).toBe(201);
    expect(created.data.boot_source).toMatchObject({ kind: 'image', image_id: image.id, network: expect.stringContaining('download cache') });

    const { kernel, initrds, args } = loads(await bootScript(mac));
    expect(kernel).toBe(`${base}/boot/netboot/debian/12/x86_64/linux`);
    expect(initrds).toEqual([`${base}/boot/netboot/debian/12/x86_64/initrd.gz`]);
    expect(args).not.toContain('install.amd');
    const host = new URL(base).host;
    expect(args).toContain(`mirror/country=manual mirror/http/hostname=${host} mirror/http/directory=/boot/iso/${image.slug} mirror/http/proxy=`);
    // The preseed preset names the image as its mirror too (a preseed file would otherwise set deb.debian.org).
    const preseed = await (await fetch(/preseed\/url=(\S+)/.exec(args)?.[1] ?? '')).text();
    expect(preseed).toContain(`d-i mirror/http/hostname string ${host}`);
    expect(preseed).toContain(`d-i mirror/http/directory string /boot/iso/${image.slug}`);
    // The archive is there over HTTP.
    expect((await bytesOf(`${base}/boot/iso/${image.slug}/dists/bookworm/Release`)).toString()).toContain('Codename: bookworm');
    expect(mirror.requests.filter((request) => request.path.startsWith('/debian/'))).toEqual([]);
  });
});
