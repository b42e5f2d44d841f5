import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogEntryView, CatalogGroup, Overlay } from '../../../src-main/netboot/netboot-contract.js';
import { bearerHeaders } from '../../helpers/auth.js';
import { collectionOnDisk } from '../../helpers/store-journal.js';
import { createTestCore, tempDir, type TestCore } from '../../helpers/test-core.js';
import { api, eventsOf } from '../power/power-harness.js';

/*
 * The catalog API against a real core with the shipped catalog: list,
 * filters, entries, groups; overlays stored, merged, refused and deleted;
 * access; and a broken catalog file stopping the start.
 */

let t: TestCore;

beforeEach(async () => {
  t = await createTestCore();
});

afterEach(async () => {
  await t.close();
});

describe('catalog', () => {
  it('lists the shipped entries in boot-menu order, with filters and paging', async () => {
    const all = await api<CatalogEntryView[]>(t.core, 'GET', '/netboot/catalog?size=500');
    expect(all.status).toBe(200);
    const distros = all.body.data.map((entry) => entry.distro);
    expect(distros).toEqual(expect.arrayContaining(['debian', 'ubuntu', 'fedora', 'rocky', 'almalinux', 'opensuse-leap', 'alpine', 'archlinux', 'windows-pe', 'memtest86plus-efi', 'memtest86plus-bios', 'debian-rescue']));
    expect(distros[0]).toBe('debian');
    expect(all.body.data.every((entry) => entry.overlay === false)).toBe(true);
    // The view carries the whole entry (the response schema lets nothing drop).
    const debian = all.body.data[0];
    expect(debian?.versions.find((version) => version.version === '12')?.architectures.map((arch) => arch.arch)).toEqual(['x86_64', 'arm64']);
    expect(debian?.answer).toEqual({ kind: 'preseed', argument: 'auto=true priority=critical preseed/url={{ answer_url }}' });

    const windows = await api<CatalogEntryView[]>(t.core, 'GET', '/netboot/catalog?group=windows');
    expect(windows.body.data.map((entry) => entry.distro)).toEqual(['windows-pe']);
    const redhat = await api<CatalogEntryView[]>(t.core, 'GET', '/netboot/catalog?family=redhat');
    expect(redhat.body.data.map((entry) => entry.distro).sort()).toEqual(['almalinux', 'fedora', 'rocky']);
    const arm = await api<CatalogEntryView[]>(t.core, 'GET', '/netboot/catalog?arch=arm64&size=500');
    expect(arm.body.data.map((entry) => entry.distro)).not.toContain('archlinux');
    expect(arm.body.data.map((entry) => entry.distro)).toContain('alpine');
    const search = await api<CatalogEntryView[]>(t.core, 'GET', '/netboot/catalog?q=kickstart');
    expect(search.body.data.map((entry) => entry.distro).sort()).toEqual(['almalinux', 'fedora', 'rocky']);
    const page = await api<CatalogEntryView[]>(t.core, 'GET', '/netboot/catalog?size=2&page=2&sort=distro');
    expect(page.body.meta).toEqual({ total: all.body.data.length, page: 2, size: 2 });
    expect(page.body.data.map((entry) => entry.distro)).toEqual([...distros].sort().slice(2, 4));

    expect((await api(t.core, 'GET', '/netboot/catalog?family=beos')).status).toBe(400);
  });

  it('gets one entry, and 404 for an unknown one', async () => {
    const ubuntu = await api<CatalogEntryView>(t.core, 'GET', '/netboot/catalog/ubuntu');
    expect(ubuntu.status).toBe(200);
    expect(ubuntu.body.data.answer?.argument).toBe('autoinstall ds=nocloud-net;s={{ answer_seed_url }}');
    const missing = await api(t.core, 'GET', '/netboot/catalog/beos');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('NOT_FOUND');
  });

  it('lists the groups by order', async () => {
    const groups = await api<CatalogGroup[]>(t.core, 'GET', '/netboot/groups');
    expect(groups.body.data.map((group) => group.id)).toEqual(['linux-installers', 'windows', 'utilities', 'rescue']);
  });
});

describe('overlays', () => {
  it('stores, applies, lists and deletes an overlay', async () => {
    const body = {
      mirror: 'http://127.0.0.1:8080/debian',
      extra_initrds: ['firmware/firmware.cpio.gz'],
      hidden_versions: ['11'],
      versions: [{ version: '14', name: '14 (forky)', codename: 'forky', architectures: [{ arch: 'x86_64', firmware: ['bios', 'uefi'], kernel: 'd/{{ codename }}/linux', initrds: ['d/{{ codename }}/initrd.gz'] }] }],
    };
    const put = await api<Overlay>(t.core, 'PUT', '/netboot/overlays/debian', body);
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ distro: 'debian', ...body, warnings: [] });
    expect(put.body.data.updated_by).toBeTruthy();
    // Durable before the answer: the collection's journal holds it.
    expect(await collectionOnDisk(t.dataDir, 'config', 'netboot_overlays')).toContain('http://127.0.0.1:8080/debian');

    const entry = (await api<CatalogEntryView>(t.core, 'GET', '/netboot/catalog/debian')).body.data;
    expect(entry.overlay).toBe(true);
    expect(entry.mirror).toBe('http://127.0.0.1:8080/debian');
    expect(entry.versions.map((version) => version.version)).toEqual(['13', '12', '14']);
    expect(entry.versions[0]?.architectures[0]?.initrds.at(-1)).toBe('firmware/firmware.cpio.gz');
    const resolved = t.core.area('netboot').catalog.resolve('debian', '14');
    expect(resolved.files.map((file) => file.url)).toEqual(['http://127.0.0.1:8080/debian/d/forky/linux', 'http://127.0.0.1:8080/debian/d/forky/initrd.gz', 'http://127.0.0.1:8080/debian/firmware/firmware.cpio.gz']);

    expect((await api<Overlay[]>(t.core, 'GET', '/netboot/overlays')).body.data.map((overlay) => overlay.distro)).toEqual(['debian']);
    expect((await api<Overlay>(t.core, 'GET', '/netboot/overlays/debian')).body.data.mirror).toBe('http://127.0.0.1:8080/debian');
    expect(eventsOf(t.core, 'netboot.overlay.changed').map((event) => event.detail?.['action'])).toEqual(['created']);

    // PUT replaces: fields not sent are no longer overridden.
    await api(t.core, 'PUT', '/netboot/overlays/debian', { cmdline: '{{ answer_argument }} DEBIAN_FRONTEND=text' });
    const replaced = (await api<CatalogEntryView>(t.core, 'GET', '/netboot/catalog/debian')).body.data;
    expect(replaced.mirror).toBe('https://deb.debian.org/debian');
    expect(replaced.cmdline).toBe('{{ answer_argument }} DEBIAN_FRONTEND=text');

    const deleted = await api<Overlay>(t.core, 'DELETE', '/netboot/overlays/debian');
    expect(deleted.status).toBe(200);
    const restored = (await api<CatalogEntryView>(t.core, 'GET', '/netboot/catalog/debian')).body.data;
    expect(restored.overlay).toBe(false);
    expect(restored.cmdline).not.toContain('DEBIAN_FRONTEND');
    expect((await api(t.core, 'GET', '/netboot/overlays/debian')).status).toBe(404);
    expect((await api(t.core, 'DELETE', '/netboot/overlays/debian')).status).toBe(404);
    expect(eventsOf(t.core, 'netboot.overlay.changed').map((event) => event.detail?.['action'])).toEqual(['created', 'replaced', 'deleted']);
    // The audit hook records the writes.
    await t.core.kernel.audit.flush();
    const audit = t.core.kernel.audit.all().filter((row) => row.path.includes('/netboot/overlays/debian'));
    expect(audit.length).toBeGreaterThanOrEqual(3);
  });

  it('refuses a bad overlay with 400 and stores nothing', async () => {
    const cases: [unknown, string][] = [
      [{ mirror: 'ftp://mirror' }, 'body.mirror'],
      [{ colour: 'blue' }, 'body'],
      [{}, 'body'],
      [{ hidden_versions: ['99'] }, 'body.hidden_versions[0]'],
      [{ hidden_versions: ['13', '12', '11'] }, 'debian with the overlay'],
      [{ cmdline: 'auto=true {{ secrets.root }}' }, 'debian with the overlay.cmdline'],
      [{ cmdline: 'no answer here' }, 'debian with the overlay.cmdline'],
      [{ extra_initrds: ['../../etc/passwd'] }, 'body.extra_initrds'],
      [{ extra_initrds: ['other/linux'] }, 'debian with the overlay.versions[13].architectures[x86_64].initrds[1]'],
      [{ versions: [{ version: '14', name: '14', default: true, architectures: [{ arch: 'x86_64', firmware: ['bios'], kernel: 'a/{{ codename }}/linux', initrds: [] }] }] }, 'debian with the overlay.versions[14].architectures[x86_64].kernel'],
      [{ answer: { kind: 'kickstart', argument: 'inst.ks={{ answer_url }}' } }, 'debian with the overlay.answer.kind'],
    ];
    for (const [body, field] of cases) {
      const response = await api(t.core, 'PUT', '/netboot/overlays/debian', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
      expect(response.body.details?.map((detail) => detail.field).join(' | '), JSON.stringify(body)).toContain(field);
    }
    expect((await api(t.core, 'GET', '/netboot/overlays')).body.data).toEqual([]);
    expect(eventsOf(t.core, 'netboot.overlay.changed')).toEqual([]);
  });

  it('answers 404 for an overlay of an unknown distro', async () => {
    const response = await api(t.core, 'PUT', '/netboot/overlays/beos', { cmdline: 'x' });
    expect(response.status).toBe(404);
    expect(response.body.error).toContain('beos');
  });

  it('lets a viewer read but not write', async () => {
    const viewer = await bearerHeaders(t.core, 'viewer');
    const read = await t.core.http.inject({ method: 'GET', url: '/api/v1/netboot/catalog', headers: viewer });
    expect(read.statusCode).toBe(200);
    const put = await t.core.http.inject({ method: 'PUT', url: '/api/v1/netboot/overlays/debian', headers: viewer, payload: { cmdline: '{{ answer_argument }}' } });
    expect(put.statusCode).toBe(403);
    const operator = await bearerHeaders(t.core, 'operator');
    const allowed = await t.core.http.inject({ method: 'PUT', url: '/api/v1/netboot/overlays/debian', headers: operator, payload: { cmdline: '{{ answer_argument }}' } });
    expect(allowed.statusCode).toBe(200);
  });
});

describe('an invalid catalog file', () => {
  it('stops the start with a message naming the file, the entry and the field', async () => {
    const dir = await tempDir();
    const file = path.join(dir.dir, 'catalog.yaml');
    await writeFile(
      file,
      [
        'schema_version: 1',
        'groups: [{ id: g, name: G, description: "", order: 1 }]',
        'entries:',
        '  - { distro: tool, name: Tool, family: utility, group: nowhere, description: "", loader: efi, mirror: null, cmdline: "", answer: null,',
        '      versions: [{ version: "1", name: "1", architectures: [{ arch: x86_64, firmware: [uefi], kernel: tool.efi, initrds: [] }] }] }',
      ].join('\n'),
    );
    const broken = await createTestCore({ netboot: { catalogFile: file } });
    try {
      await expect(broken.core.start()).rejects.toThrow(/catalog\.yaml is invalid: entries\[tool\]\.group: group "nowhere" does not exist/);
      const [event] = eventsOf(broken.core, 'netboot.catalog.invalid');
      expect(event?.level).toBe('error');
      expect(event?.detail?.['file']).toBe(file);
    } finally {
      await broken.close();
      await dir.remove();
    }
  });
});
