import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src-main/core/errors.js';
import { detectImage } from '../../../src-main/os-images/detect/index.js';
import type { OpenedImage } from '../../../src-main/os-images/image-ports.js';
import { bootFromImage, ImageLocalBoot, type LocalBootImages } from '../../../src-main/os-images/local-boot.js';
import type { Detection, OsImage } from '../../../src-main/os-images/os-images-contract.js';
import { memoryTree, type MemoryEntry } from '../../helpers/memory-tree.js';
import { ALPINE, ARCH, DEBIAN_NETINST, FEDORA_NETINST, isoInfo, OPENSUSE_LEAP, ROCKY_DVD, UBUNTU_SERVER, WINDOWS_11 } from '../../helpers/os-media.js';

/* Which ready image an install task boots from, and how, per family (docs/netboot.md, "Installing from an OS image (offline)"). */

const ROCKY = { distro: 'rocky', version: '9', arch: 'x86_64', family: 'redhat' };

/** Detection of the media as the real detector reads it, linked to `entry`. */
async function detect(media: Record<string, MemoryEntry>, entry: { distro: string; version: string; arch: string }): Promise<Detection> {
  return detectImage({ tree: memoryTree(media), info: isoInfo(), fileName: 'image.iso', catalog: () => entry });
}

function image(id: number, detection: Detection | null, patch: Partial<OsImage> = {}): OsImage {
  return {
    id,
    name: `image-${id}`,
    slug: `image-${id}`,
    description: '',
    file_name: `image-${id}.iso`,
    path: `/srv/images/image-${id}.iso`,
    size: 1,
    sha256: 'ab'.repeat(32),
    source: 'import',
    state: 'ready',
    error: null,
    iso: null,
    detection,
    extracted: null,
    mounted: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...patch,
  };
}

class FakeImages implements LocalBootImages {
  readonly mounts: number[] = [];
  opened = 0;
  failMount: string | null = null;
  constructor(
    readonly rows: OsImage[],
    private readonly trees: Record<number, Record<string, MemoryEntry>> = {},
  ) {}
  list(): OsImage[] {
    return this.rows;
  }
  async mount(id: number): Promise<OsImage> {
    if (this.failMount) throw new AppError('INVALID_STATE', this.failMount);
    this.mounts.push(id);
    const row = this.rows.find((item) => item.id === id);
    if (!row) throw new AppError('NOT_FOUND', `no image ${id}`);
    row.mounted = { url_path: `/boot/iso/${row.slug}/`, since: row.updated_at };
    return row;
  }
  async openTree(id: number): Promise<OpenedImage> {
    this.opened += 1;
    return Object.assign(memoryTree(this.trees[id] ?? {}), { info: isoInfo() });
  }
}

describe('booting an entry from an image, per family', () => {
  it('RHEL family DVD: the pxeboot kernel and initrd from the mount, inst.repo at the image, packages from it', async () => {
    const boot = bootFromImage(image(3, await detect(ROCKY_DVD, ROCKY)), ROCKY, false);
    expect(boot).toMatchObject({
      image: { id: 3, slug: 'image-3' },
      files: [
        { role: 'kernel', name: 'vmlinuz', served_path: 'iso/image-3/images/pxeboot/vmlinuz' },
        { role: 'initrd', name: 'initrd.img', served_path: 'iso/image-3/images/pxeboot/initrd.img' },
      ],
      repo_path: 'iso/image-3/',
      debian_mirror: false,
      network: '',
    });
    expect(typeof boot !== 'string' && boot.cmdline).toMatch(/^inst\.repo=\{\{ image_url \}\} ip=dhcp/);
  });

  it('a boot ISO (no packages): stage 2 from the image, packages from the entry\'s mirror, said so', async () => {
    const entry = { distro: 'fedora', version: '40', arch: 'arm64', family: 'redhat' };
    const boot = bootFromImage(image(4, await detect(FEDORA_NETINST, entry)), entry, false);
    expect(boot).toMatchObject({ repo_path: null, network: expect.stringContaining("entry's mirror") });
    expect(typeof boot !== 'string' && boot.cmdline).toContain('inst.stage2={{ image_url }}');
  });

  it('openSUSE, Alpine, Arch and Ubuntu boot their own installer from the mount', async () => {
    const cases: [Record<string, MemoryEntry>, { distro: string; version: string; arch: string; family: string }, RegExp, string | null][] = [
      [OPENSUSE_LEAP, { distro: 'opensuse-leap', version: '15.6', arch: 'x86_64', family: 'suse' }, /install=\{\{ image_url \}\}/, 'iso/image-5/'],
      [ALPINE, { distro: 'alpine', version: '3.20', arch: 'x86_64', family: 'alpine' }, /alpine_repo=\{\{ image_url \}\}apks/, 'iso/image-5/apks/'],
      [ARCH, { distro: 'archlinux', version: 'latest', arch: 'x86_64', family: 'arch' }, /archiso_http_srv=\{\{ image_url \}\}/, null],
      [UBUNTU_SERVER, { distro: 'ubuntu', version: '24.04', arch: 'x86_64', family: 'ubuntu' }, /url=\{\{ iso_url \}\}/, null],
    ];
    for (const [media, entry, cmdline, repo] of cases) {
      const boot = bootFromImage(image(5, await detect(media, entry)), entry, false);
      if (typeof boot === 'string') throw new Error(`${entry.distro}: ${boot}`);
      expect(boot.cmdline, entry.distro).toMatch(cmdline);
      expect(boot.repo_path, entry.distro).toBe(repo);
      expect(boot.files?.[0]?.served_path.startsWith('iso/image-5/'), entry.distro).toBe(true);
    }
  });

  it('Debian never hands out the CD initrd: the catalog\'s netboot files, the image as the mirror when it is an archive', async () => {
    const entry = { distro: 'debian', version: '12', arch: 'x86_64', family: 'debian' };
    const detection = await detect(DEBIAN_NETINST, entry);
    const withArchive = bootFromImage(image(6, detection), entry, true);
    expect(withArchive).toMatchObject({ files: null, cmdline: null, debian_mirror: true, network: expect.stringContaining('download cache') });
    expect(bootFromImage(image(6, detection), entry, false)).toMatch(/no Debian archive/);
  });

  it('refuses an image of another family, and Windows', async () => {
    expect(bootFromImage(image(7, await detect(ROCKY_DVD, ROCKY)), { ...ROCKY, family: 'suse' }, false)).toMatch(/not an installer of the suse family/);
    const pe = { distro: 'windows-pe', version: '11', arch: 'x86_64', family: 'windows' };
    expect(typeof bootFromImage(image(8, await detect(WINDOWS_11, pe)), pe, false)).toBe('string');
  });
});

describe('ImageLocalBoot: which image answers', () => {
  it('answers nothing when no image is linked to the entry', async () => {
    const images = new FakeImages([image(1, await detect(ROCKY_DVD, { distro: 'rocky', version: '8', arch: 'x86_64' }))]);
    expect(await new ImageLocalBoot(images).find(ROCKY, { mount: true })).toEqual({ boot: null, skipped: null });
  });

  it('prefers a ready image, then a mounted one, then the newest; mounts on demand only when asked', async () => {
    const detection = await detect(ROCKY_DVD, ROCKY);
    const images = new FakeImages([image(1, detection), image(2, detection, { mounted: { url_path: '/boot/iso/image-2/', since: 'x' } }), image(3, detection), image(9, detection, { state: 'error', error: 'file missing' })]);
    const source = new ImageLocalBoot(images);
    expect((await source.find(ROCKY, { mount: false })).boot?.image.id).toBe(2);
    images.rows[1] = image(2, detection);
    expect((await source.find(ROCKY, { mount: false })).boot?.image.id).toBe(3);
    expect(images.mounts).toEqual([]);
    expect((await source.find(ROCKY, { mount: true })).boot?.image.id).toBe(3);
    expect(images.mounts).toEqual([3]);
  });

  it('says why linked images were skipped: not ready, not mountable', async () => {
    const detection = await detect(ROCKY_DVD, ROCKY);
    const images = new FakeImages([image(4, detection, { state: 'error', error: 'the file is missing' })]);
    const source = new ImageLocalBoot(images);
    expect(await source.find(ROCKY, { mount: true })).toEqual({ boot: null, skipped: expect.stringMatching(/OS image 4 \(image-4\) is linked to rocky 9 x86_64 but is error \(the file is missing\)/) });
    images.rows[0] = image(4, detection);
    images.failMount = 'the ISO cannot be read';
    expect((await source.find(ROCKY, { mount: true })).skipped).toMatch(/could not be mounted: the ISO cannot be read/);
  });

  it('checks a Debian image for dists/ and pool/ once per version of the image', async () => {
    const entry = { distro: 'debian', version: '12', arch: 'x86_64', family: 'debian' };
    const detection = await detect(DEBIAN_NETINST, entry);
    const images = new FakeImages([image(5, detection)], { 5: { ...DEBIAN_NETINST, 'dists/bookworm/Release': 'Suite: stable\n', 'pool/main/b/bash/bash_5.2.15-2+b2_amd64.deb': 'x' } });
    const source = new ImageLocalBoot(images);
    expect((await source.find(entry, { mount: false })).boot).toMatchObject({ debian_mirror: true, files: null });
    await source.find(entry, { mount: false });
    expect(images.opened).toBe(1);
    const withoutArchive = Object.fromEntries(Object.entries(DEBIAN_NETINST).filter(([file]) => !/^(dists|pool)(\/|$)/.test(file)));
    const bare = new FakeImages([image(6, detection)], { 6: withoutArchive });
    expect((await new ImageLocalBoot(bare).find(entry, { mount: false })).skipped).toMatch(/no Debian archive/);
  });
});
