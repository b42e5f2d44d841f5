import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notFound } from '../../../../src-main/core/errors.js';
import type { Detection, OsImage } from '../../../../src-main/os-images/os-images-contract.js';
import { bootProfileRoutes, type BootProfileDeps } from '../../../../src-main/os-images/mount/boot-profile-routes.js';
import { ImageMounts } from '../../../../src-main/os-images/mount/image-mounts.js';
import type { ImageNfsExports } from '../../../../src-main/os-images/image-ports.js';
import type { AppCore } from '../../../../src-main/app/app-core.js';
import { loginHeaders } from '../../../helpers/auth.js';
import { createTestCore, type TestCore } from '../../../helpers/test-core.js';
import { patternBytes } from '../../tftp/tftp-harness.js';
import { packImage, type PackedImage } from './packed-tree.js';

/*
 * POST /os-images/{id}/boot-profile against the real profiles area: a fake
 * image service (the lead wires the real one) whose ensureMounted mounts a
 * packed "ISO" with the real ImageMounts, so the profile's kernel and initrd
 * URLs, rendered for a client, fetch the image's bytes.
 */

const KERNEL = patternBytes(300_000, 8);
const INITRD = patternBytes(500_000, 9);

let t: TestCore;
let dir: string;
let packed: PackedImage;
let mounts: ImageMounts;
const images = new Map<number, OsImage>();
const mountCalls: number[] = [];
let wimboot: string | null = null;
/** What the fake NFS area answers: an export per slug, a refusal, or no NFS area at all. */
let nfsAnswer: ((slug: string) => ReturnType<ImageNfsExports['exportOf']>) | null = (slug) => ({ path: `/iso/${slug}`, notes: ['The NFS service is not running: start it.'] });

function detection(overrides: Partial<Detection>): Detection {
  return {
    family: 'debian', distro: 'Debian GNU/Linux', version: '12', arch: 'amd64', boot_method: 'linux',
    kernel: 'install.amd/vmlinuz', initrds: ['install.amd/initrd.gz'], iso_cmdline: '',
    netboot_cmdline: 'console=ttyS0 url={{ iso_url }}', boot_wim: null, efi_loaders: [], catalog_entry: null,
    evidence: [], notes: [], ...overrides,
  };
}

function addImage(id: number, slug: string, found: Detection | null): void {
  images.set(id, {
    id, name: `Image ${id}`, slug, description: '', file_name: `${slug}.iso`, path: packed.file, size: 0, sha256: null,
    source: 'import', state: 'ready', error: null, iso: null, detection: found, extracted: null, mounted: null,
    created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-01T00:00:00.000Z',
  });
}

/** The fake image service: lookup by id, mount through the real ImageMounts. */
function fakeImages(): BootProfileDeps['images'] {
  return {
    requireImage(id) {
      const image = images.get(id);
      if (!image) throw notFound('os image', id);
      return image;
    },
    async ensureMounted(id) {
      const image = this.requireImage(id);
      if (image.mounted) return image;
      mountCalls.push(id);
      mounts.mount({ id, slug: image.slug, file: packed.file, tree: packed.tree });
      const mounted = { ...image, mounted: { url_path: `/boot/iso/${image.slug}/`, since: new Date().toISOString() } };
      images.set(id, mounted);
      return mounted;
    },
  };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'bw-bootprofile-'));
  packed = await packImage(path.join(dir, 'deb.iso'), { 'install.amd/vmlinuz': KERNEL, 'install.amd/initrd.gz': { split: INITRD } });
  // The routes are registered when the core is built; the profiles facade exists only after: reached late.
  let core: AppCore | null = null;
  const profiles = () => {
    if (!core) throw new Error('core not built yet');
    return core.area('profiles');
  };
  t = await createTestCore({
    nicReader: () => [],
    // Under a prefix of its own: the os-images area registers the same route wired to the real service.
    extraApiPlugins: [
      async (app) => {
        await app.register(
          bootProfileRoutes({
            images: fakeImages(),
            profiles: { all: () => profiles().all(), create: (input, note) => profiles().create(input, note), update: (id, input, note) => profiles().update(id, input, note) },
            wimboot: async () => wimboot,
            nfs: () => {
              const answer = nfsAnswer;
              return answer ? { exportOf: (slug) => answer(slug) } : null;
            },
          }),
          { prefix: '/fake-images' },
        );
      },
    ],
  });
  core = t.core;
  mounts = new ImageMounts(t.core.area('boot-files').files);
  await t.core.start();
  addImage(1, 'debian-12', detection({}));
  addImage(2, 'rescue', detection({ family: 'rescue', boot_method: 'sanboot', kernel: null, initrds: [] }));
  addImage(3, 'win11', detection({ family: 'windows', boot_method: 'windows', kernel: null, initrds: [], boot_wim: 'sources/boot.wim' }));
  addImage(4, 'blank', detection({ boot_method: 'none', kernel: null, initrds: [] }));
  addImage(5, 'ubuntu-live', detection({ family: 'ubuntu', kernel: 'install.amd/vmlinuz', initrds: ['install.amd/initrd.gz'], netboot_cmdline: 'boot=casper ip=dhcp url={{ iso_url }} quiet ---' }));
});
afterAll(async () => {
  mounts?.close();
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function post(id: number, body: unknown, role: 'operator' | 'viewer' = 'operator') {
  const headers = { ...(await loginHeaders(t.core, role)), 'content-type': 'application/json' };
  const res = await fetch(`${t.core.url()}/api/v1/fake-images/os-images/${id}/boot-profile`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as { success: boolean; data: { profile: { id: number; name: string; boot_type: string; linux: unknown; sanboot: unknown }; created: boolean; notes: string[] }; code?: string; error?: string } };
}

describe('POST /os-images/{id}/boot-profile', () => {
  it('mounts the image, creates a linux profile whose rendered script fetches the kernel and initrd from the mount', async () => {
    const res = await post(1, {});
    expect(res.status).toBe(201);
    expect(res.body.data.created).toBe(true);
    expect(mountCalls).toEqual([1]);
    expect(res.body.data.profile).toMatchObject({
      name: 'ISO debian-12',
      boot_type: 'linux',
      linux: { kernel: 'iso/debian-12/install.amd/vmlinuz', initrds: ['iso/debian-12/install.amd/initrd.gz'], cmdline: 'console=ttyS0 url={{ server.boot_url }}/iso/debian-12.iso' },
    });
    expect(res.body.data.notes.join(' ')).toContain('mounted at /boot/iso/debian-12/');

    // What a machine booting it gets: the profile as the default for unknown machines, its script rendered for this client.
    const netboot = t.core.kernel.settings.netboot();
    await t.core.kernel.settings.update({ netboot: { ...netboot, default_action: 'profile', default_profile_id: res.body.data.profile.id } });
    const script = await (await fetch(`${t.core.url()}/boot/ipxe/boot.ipxe?mac=52%3A54%3A00%3A12%3A34%3A56&arch=x86_64&platform=pcbios`)).text();
    const boot = `${t.core.url()}/boot`;
    expect(script).toContain(`kernel ${boot}/iso/debian-12/install.amd/vmlinuz initrd=initrd0 console=ttyS0 url=${boot}/iso/debian-12.iso`);
    expect(script).toContain(`initrd --name initrd0 ${boot}/iso/debian-12/install.amd/initrd.gz`);
    expect(Buffer.from(await (await fetch(`${boot}/iso/debian-12/install.amd/vmlinuz`)).arrayBuffer()).equals(KERNEL)).toBe(true);
    expect(Buffer.from(await (await fetch(`${boot}/iso/debian-12/install.amd/initrd.gz`)).arrayBuffer()).equals(INITRD)).toBe(true);
  });

  it('updates the same profile when asked again, without mounting again', async () => {
    const before = t.core.area('profiles').all().length;
    const res = await post(1, { description: 'again' });
    expect(res.status).toBe(200);
    expect(res.body.data.created).toBe(false);
    expect(t.core.area('profiles').all().length).toBe(before);
    expect(mountCalls).toEqual([1]);
  });

  it('makes a sanboot profile with the ISO URL and says it is BIOS only', async () => {
    const res = await post(2, { name: 'Rescue ISO' });
    expect(res.status).toBe(201);
    expect(res.body.data.profile).toMatchObject({ name: 'Rescue ISO', boot_type: 'sanboot', sanboot: { url: 'iso/rescue.iso' } });
    expect(res.body.data.notes.join(' ')).toMatch(/BIOS machines only/);
  });

  it('says clearly that Windows needs wimboot, which is not bundled, and changes nothing', async () => {
    const profiles = t.core.area('profiles').all().length;
    const res = await post(3, {});
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('INVALID_STATE');
    expect(res.body.error).toMatch(/wimboot/);
    expect(mountCalls).not.toContain(3);
    expect(t.core.area('profiles').all().length).toBe(profiles);
    wimboot = 'wimboot';
    try {
      const made = await post(3, {});
      expect(made.status).toBe(201);
      expect(made.body.data.profile.boot_type).toBe('ipxe_script');
    } finally {
      wimboot = null;
    }
  });

  it('refuses an image with nothing bootable (409), an unknown image (404), a viewer (403) and unknown body fields (400)', async () => {
    expect((await post(4, {})).status).toBe(409);
    expect((await post(99, {})).status).toBe(404);
    expect((await post(1, {}, 'viewer')).status).toBe(403);
    expect((await post(1, { kernel: 'x' })).status).toBe(400);
  });

  it('over NFS: a casper image reads its medium from the image export, named per client; beside the HTTP profile', async () => {
    const http = await post(5, {});
    expect(http.status).toBe(201);
    const res = await post(5, { via: 'nfs' });
    expect(res.status, res.body.error).toBe(201);
    expect(res.body.data.profile).toMatchObject({
      name: 'ISO ubuntu-live (NFS)',
      boot_type: 'linux',
      linux: { kernel: 'iso/ubuntu-live/install.amd/vmlinuz', cmdline: 'boot=casper ip=dhcp netboot=nfs nfsroot={{ server.ip }}:/iso/ubuntu-live quiet ---' },
    });
    expect(res.body.data.notes.join(' ')).toMatch(/over NFS v3 from <this server>:\/iso\/ubuntu-live \(casper\)/);
    expect(res.body.data.notes).toContain('The NFS service is not running: start it.');
    expect(t.core.area('profiles').all().find((profile) => profile.name === 'ISO ubuntu-live')?.linux?.cmdline).toContain('url={{ server.boot_url }}/iso/ubuntu-live.iso');
    // Rendered for a machine: the address it reached us on.
    const netboot = t.core.kernel.settings.netboot();
    await t.core.kernel.settings.update({ netboot: { ...netboot, default_action: 'profile', default_profile_id: res.body.data.profile.id } });
    const script = await (await fetch(`${t.core.url()}/boot/ipxe/boot.ipxe?mac=52%3A54%3A00%3A12%3A34%3A57&arch=x86_64&platform=pcbios`)).text();
    expect(script).toContain('boot=casper ip=dhcp netboot=nfs nfsroot=127.0.0.1:/iso/ubuntu-live quiet ---');
  });

  it('over NFS: refuses what cannot take its medium over NFS, a refusing NFS area and no NFS area (409); nothing is made', async () => {
    const before = t.core.area('profiles').all().length;
    const debian = await post(1, { via: 'nfs' });
    expect(debian.status).toBe(409);
    expect(debian.body.error).toMatch(/over HTTP only/);
    const sanboot = await post(2, { via: 'nfs' });
    expect(sanboot.status).toBe(409);
    expect(sanboot.body.error).toMatch(/boots by sanboot/);
    const answer = nfsAnswer;
    try {
      nfsAnswer = () => ({ problem: 'mounted images are not exported over NFS (export_mounted_images is off)' });
      expect((await post(5, { via: 'nfs', name: 'Other' })).body.error).toMatch(/export_mounted_images is off/);
      nfsAnswer = null;
      expect((await post(5, { via: 'nfs', name: 'Other' })).body.error).toMatch(/no NFS service/);
    } finally {
      nfsAnswer = answer;
    }
    expect((await post(5, { via: 'smb' })).status).toBe(400);
    expect(t.core.area('profiles').all().length).toBe(before);
  });
});
