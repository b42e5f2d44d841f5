import { describe, expect, it } from 'vitest';
import { detectImage } from '../../../../src-main/os-images/detect/index.js';
import { nfsCmdline } from '../../../../src-main/os-images/mount/nfs-cmdline.js';
import { memoryTree, type MemoryEntry } from '../../../helpers/memory-tree.js';
import { ALPINE, ARCH, CLONEZILLA, DEBIAN_LIVE, DEBIAN_NETINST, FEDORA_NETINST, GPARTED, isoInfo, OPENSUSE_LEAP, ROCKY_DVD, SYSTEMRESCUE, UBUNTU_DESKTOP, UBUNTU_SERVER } from '../../../helpers/os-media.js';

/** The NFS form of what detection writes for each medium (detect/ over the shared test media). */
async function nfsFormOf(files: Record<string, MemoryEntry>) {
  const detection = await detectImage({ tree: memoryTree(files), info: isoInfo(), fileName: 'image.iso', catalog: () => null });
  return { http: detection.netboot_cmdline, nfs: nfsCmdline(detection.netboot_cmdline) };
}

describe('the NFS form of a detected command line', () => {
  it('casper (Ubuntu desktop and server): url= becomes netboot=nfs nfsroot=, the rest stays', async () => {
    for (const media of [UBUNTU_DESKTOP, UBUNTU_SERVER]) {
      const { http, nfs } = await nfsFormOf(media);
      expect(http).toMatch(/url=\{\{ iso_url \}\}/);
      expect(nfs?.kind).toBe('casper');
      expect(nfs?.cmdline).toBe(http.replace('url={{ iso_url }}', 'netboot=nfs nfsroot={{ nfs_root }}'));
      expect(nfs?.cmdline).toContain('ip=dhcp');
    }
  });

  it('live-boot (Debian live, GParted, Clonezilla): fetch= becomes netboot=nfs nfsroot=', async () => {
    for (const media of [DEBIAN_LIVE, GPARTED, CLONEZILLA]) {
      const { http, nfs } = await nfsFormOf(media);
      expect(nfs?.kind).toBe('live-boot');
      expect(nfs?.cmdline).toMatch(/^boot=live .*netboot=nfs nfsroot=\{\{ nfs_root \}\}$/);
      expect(nfs?.cmdline).not.toMatch(/fetch=|image_url/);
      expect(http).toMatch(/fetch=\{\{ image_url \}\}live\/filesystem\.squashfs/);
    }
  });

  it('Anaconda (Rocky DVD: inst.repo; Fedora netinst: inst.stage2) takes nfs:<server>:<path>', async () => {
    expect((await nfsFormOf(ROCKY_DVD)).nfs?.cmdline).toMatch(/^inst\.repo=nfs:\{\{ nfs_root \}\} ip=dhcp/);
    expect((await nfsFormOf(FEDORA_NETINST)).nfs?.cmdline).toMatch(/^inst\.stage2=nfs:\{\{ nfs_root \}\} ip=dhcp/);
  });

  it('archiso (Arch, SystemRescue): archiso_http_srv becomes archiso_nfs_srv', async () => {
    for (const media of [ARCH, SYSTEMRESCUE]) {
      const { nfs } = await nfsFormOf(media);
      expect(nfs?.kind).toBe('archiso');
      expect(nfs?.cmdline).toContain('archiso_nfs_srv={{ nfs_root }}');
      expect(nfs?.cmdline).not.toContain('archiso_http_srv');
    }
  });

  it('answers null for boots that take no NFS source (Debian installer CD, openSUSE, Alpine) and for half-converted lines', async () => {
    for (const media of [DEBIAN_NETINST, OPENSUSE_LEAP, ALPINE]) expect((await nfsFormOf(media)).nfs).toBeNull();
    // A url= without boot=casper is not casper's; an extra HTTP source left over is not an NFS boot.
    expect(nfsCmdline('console=ttyS0 url={{ iso_url }}')).toBeNull();
    expect(nfsCmdline('boot=casper url={{ iso_url }} ds=nocloud-net;s={{ image_url }}/seed/')).toBeNull();
    expect(nfsCmdline('')).toBeNull();
  });
});
