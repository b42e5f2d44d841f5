import { describe, expect, it } from 'vitest';
import type { CatalogLookup } from '../../../../src-main/os-images/image-ports.js';
import { detectImage } from '../../../../src-main/os-images/detect/index.js';
import type { Detection, IsoInfo } from '../../../../src-main/os-images/os-images-contract.js';
import { memoryTree, type MemoryEntry, type MemoryTree } from '../../../helpers/memory-tree.js';
import {
  ALPINE,
  ARCH,
  CLONEZILLA,
  DEBIAN_LIVE,
  DEBIAN_NETINST,
  FEDORA_NETINST,
  GPARTED,
  isoInfo,
  MEMTEST,
  OPENSUSE_LEAP,
  ROCKY_DVD,
  SYSTEMRESCUE,
  UBUNTU_DESKTOP,
  UBUNTU_SERVER,
  WINDOWS_11,
  WINDOWS_PLAIN_ISO9660,
  WINDOWS_UDF_ONLY,
} from '../../../helpers/os-media.js';

type Query = Parameters<CatalogLookup>[0];

/** A catalog that knows a few entries (in the netboot catalog's own names) and records what it was asked. */
function fakeCatalog(): { lookup: CatalogLookup; queries: Query[] } {
  const known = new Set(['debian/12/x86_64', 'ubuntu/24.04/x86_64', 'rocky/9/x86_64', 'fedora/40/arm64', 'opensuse-leap/15.6/x86_64', 'alpine/3.20/x86_64', 'archlinux/latest/x86_64', 'windows-pe/11/x86_64']);
  const queries: Query[] = [];
  return {
    queries,
    lookup: (query) => {
      queries.push(query);
      return known.has(`${query.distro}/${query.version}/${query.arch}`) ? { distro: query.distro, version: query.version, arch: query.arch } : null;
    },
  };
}

async function detect(files: Record<string, MemoryEntry>, options: { info?: Partial<IsoInfo>; fileName?: string } = {}): Promise<{ detection: Detection; tree: MemoryTree; queries: Query[] }> {
  const tree = memoryTree(files);
  const catalog = fakeCatalog();
  const detection = await detectImage({ tree, info: isoInfo(options.info), fileName: options.fileName ?? 'image.iso', catalog: catalog.lookup });
  return { detection, tree, queries: catalog.queries };
}

/** Files the detection read bytes of. */
function readPaths(tree: MemoryTree): string[] {
  return [...new Set(tree.calls.reads.map((read) => read.path))];
}

describe('detectImage: Debian installer CD', () => {
  it('reads .disk/info and the install.amd kernel, the menu\'s arguments, and links the catalog entry', async () => {
    const { detection, queries } = await detect(DEBIAN_NETINST, { info: { volume_id: 'Debian 12.5.0 amd64 n' } });
    expect(detection).toMatchObject({
      family: 'debian',
      distro: 'Debian GNU/Linux',
      version: '12.5.0',
      arch: 'amd64',
      boot_method: 'linux',
      kernel: 'install.amd/vmlinuz',
      // The menu's default (Graphical install) boots the gtk initrd.
      initrds: ['install.amd/gtk/initrd.gz'],
      iso_cmdline: 'vga=788 --- quiet',
      netboot_cmdline: 'vga=788 --- quiet',
      boot_wim: null,
      efi_loaders: ['EFI/boot/bootx64.efi', 'EFI/boot/grubx64.efi'],
      catalog_entry: { distro: 'debian', version: '12', arch: 'x86_64' },
    });
    expect(queries).toEqual([{ family: 'debian', distro: 'debian', version: '12', arch: 'x86_64' }]);
    expect(detection.evidence).toEqual(expect.arrayContaining(['.disk/info', 'install.amd/vmlinuz']));
    expect(detection.notes.join(' ')).toMatch(/CD-ROM/);
    expect(detection.notes.join(' ')).toMatch(/netboot installer of the same point release \(12\.5\.0\)/);
    // The image's Release is unsigned: as a mirror it needs allow_unauthenticated.
    expect(detection.notes.join(' ')).toMatch(/allow_unauthenticated=true/);
  });

  it('never reads a kernel, an initrd or a package: only menus and metadata', async () => {
    const { tree } = await detect(DEBIAN_NETINST);
    const read = readPaths(tree);
    expect(read).toContain('.disk/info');
    expect(read).toContain('isolinux/txt.cfg');
    expect(read.filter((path) => /vmlinuz|initrd|\.deb$|\.efi$|\.bin$|\.c32$/.test(path))).toEqual([]);
  });

  it('says nothing about signatures when the image\'s Release is signed', async () => {
    const { detection } = await detect({ ...DEBIAN_NETINST, 'dists/bookworm/Release.gpg': 'sig' });
    expect(detection.notes.join(' ')).not.toMatch(/allow_unauthenticated/);
  });

  it('finds the arm64 installer (install.a64) and its architecture from .disk/info', async () => {
    const { detection } = await detect({
      '.disk/info': 'Debian GNU/Linux 12.5.0 "Bookworm" - Official arm64 NETINST with firmware 20240210-11:27',
      'install.a64/vmlinuz': 'k',
      'install.a64/initrd.gz': 'i',
      'EFI/boot/bootaa64.efi': 'e',
      'boot/grub/grub.cfg': "menuentry 'Install' {\n    linux    /install.a64/vmlinuz --- quiet\n    initrd   /install.a64/initrd.gz\n}\n",
    });
    expect(detection).toMatchObject({ arch: 'arm64', kernel: 'install.a64/vmlinuz', initrds: ['install.a64/initrd.gz'], iso_cmdline: '--- quiet' });
    expect(detection.catalog_entry).toBeNull(); // the fake catalog has no arm64 Debian
  });
});

describe('detectImage: live media', () => {
  it('Ubuntu Server: casper kernel and initrd, url= the ISO, the RAM it needs', async () => {
    const { detection } = await detect(UBUNTU_SERVER, { info: { volume_bytes: 2_754_981_888 } });
    expect(detection).toMatchObject({
      family: 'ubuntu',
      distro: 'Ubuntu Server',
      version: '24.04.1',
      arch: 'amd64',
      boot_method: 'linux',
      kernel: 'casper/vmlinuz',
      initrds: ['casper/initrd'],
      iso_cmdline: '---',
      netboot_cmdline: 'boot=casper ip=dhcp url={{ iso_url }} cloud-config-url=/dev/null ---',
      catalog_entry: { distro: 'ubuntu', version: '24.04', arch: 'x86_64' },
    });
    expect(detection.notes[0]).toMatch(/2\.6 GiB/);
    expect(detection.notes.join(' ')).toMatch(/autoinstall/);
  });

  it('Ubuntu Desktop: keeps quiet splash, drops the CD preseed path and maybe-ubiquity, avoids safe graphics', async () => {
    const { detection } = await detect(UBUNTU_DESKTOP);
    expect(detection).toMatchObject({ family: 'ubuntu', distro: 'Ubuntu', version: '22.04.4', kernel: 'casper/vmlinuz' });
    expect(detection.iso_cmdline).toBe('file=/cdrom/preseed/ubuntu.seed maybe-ubiquity quiet splash ---');
    expect(detection.netboot_cmdline).toBe('boot=casper ip=dhcp url={{ iso_url }} cloud-config-url=/dev/null quiet splash ---');
  });

  it('a flavour (Kubuntu) is casper-booted like Ubuntu but not linked to the ubuntu catalog entry', async () => {
    const { detection, queries } = await detect({ ...UBUNTU_DESKTOP, '.disk/info': 'Kubuntu 24.04.1 LTS "Noble Numbat" - Release amd64 (20240827)' });
    expect(detection).toMatchObject({ family: 'ubuntu', distro: 'Kubuntu', version: '24.04.1', catalog_entry: null });
    expect(queries).toEqual([]);
  });

  it('Debian live: the live kernel (not the installer beside it) with fetch= the squashfs', async () => {
    const { detection } = await detect(DEBIAN_LIVE);
    expect(detection).toMatchObject({
      family: 'debian',
      version: '12.5.0',
      arch: 'amd64',
      kernel: 'live/vmlinuz-6.1.0-18-amd64',
      initrds: ['live/initrd.img-6.1.0-18-amd64'],
      iso_cmdline: 'boot=live components quiet splash',
      netboot_cmdline: 'boot=live components quiet splash fetch={{ image_url }}live/filesystem.squashfs',
    });
    expect(detection.notes.join(' ')).toMatch(/64 MiB|1 MiB/);
    expect(detection.notes.join(' ')).toMatch(/installer/);
  });
});

describe('detectImage: Red Hat family and Fedora', () => {
  it('Rocky DVD: .treeinfo, pxeboot kernel, inst.repo the mount, not the media-check default', async () => {
    const { detection } = await detect(ROCKY_DVD);
    expect(detection).toMatchObject({
      family: 'rhel',
      distro: 'Rocky Linux',
      version: '9.4',
      arch: 'amd64',
      kernel: 'images/pxeboot/vmlinuz',
      initrds: ['images/pxeboot/initrd.img'],
      iso_cmdline: 'inst.stage2=hd:LABEL=Rocky-9-4-x86_64-dvd quiet',
      netboot_cmdline: 'inst.repo={{ image_url }} ip=dhcp quiet',
      efi_loaders: ['EFI/BOOT/BOOTX64.EFI', 'EFI/BOOT/grubx64.efi'],
      catalog_entry: { distro: 'rocky', version: '9', arch: 'x86_64' },
    });
    expect(detection.evidence[0]).toBe('.treeinfo');
    expect(detection.evidence).toContain('EFI/BOOT/grub.cfg');
  });

  it('Fedora aarch64 boot ISO: arch from .treeinfo, stage2 only (no packages on the medium)', async () => {
    const { detection } = await detect(FEDORA_NETINST);
    expect(detection).toMatchObject({ family: 'fedora', distro: 'Fedora', version: '40', arch: 'arm64', efi_loaders: ['EFI/BOOT/BOOTAA64.EFI'] });
    expect(detection.netboot_cmdline).toBe('inst.stage2={{ image_url }} ip=dhcp ro');
    expect(detection.notes.join(' ')).toMatch(/without packages/);
    expect(detection.catalog_entry).toEqual({ distro: 'fedora', version: '40', arch: 'arm64' });
  });

  it('reads an old-style .treeinfo ([general] family/version/arch)', async () => {
    const { detection } = await detect({
      '.treeinfo': '[general]\nfamily = CentOS\ntimestamp = 1587405659.3\nvariant = \nversion = 7\npackagedir = \narch = x86_64\n\n[images-x86_64]\nkernel = images/pxeboot/vmlinuz\ninitrd = images/pxeboot/initrd.img\n',
      'images/pxeboot/vmlinuz': 'k',
      'images/pxeboot/initrd.img': 'i',
      'Packages/bash-4.2.46-34.el7.x86_64.rpm': 'p',
    });
    expect(detection).toMatchObject({ family: 'rhel', distro: 'CentOS', version: '7', arch: 'amd64', netboot_cmdline: 'inst.repo={{ image_url }} ip=dhcp' });
  });
});

describe('detectImage: openSUSE, Arch, Alpine', () => {
  it('openSUSE Leap DVD: media.1/products, boot/x86_64/loader, install= the mount', async () => {
    const { detection } = await detect(OPENSUSE_LEAP);
    expect(detection).toMatchObject({
      family: 'suse',
      distro: 'openSUSE Leap',
      version: '15.6',
      arch: 'amd64',
      kernel: 'boot/x86_64/loader/linux',
      initrds: ['boot/x86_64/loader/initrd'],
      catalog_entry: { distro: 'opensuse-leap', version: '15.6', arch: 'x86_64' },
    });
    // The BIOS menu's default is the local disk; the install entry is chosen instead.
    expect(detection.iso_cmdline).toBe('splash=silent showopts');
    expect(detection.netboot_cmdline).toBe('install={{ image_url }} splash=silent');
    expect(detection.evidence).toContain('media.1/products');
  });

  it('Arch: archiso kernel, microcode before the initramfs, archiso_http_srv', async () => {
    const { detection } = await detect(ARCH);
    expect(detection).toMatchObject({
      family: 'arch',
      distro: 'Arch Linux',
      version: '2024.06.01',
      arch: 'amd64',
      kernel: 'arch/boot/x86_64/vmlinuz-linux',
      initrds: ['arch/boot/intel-ucode.img', 'arch/boot/amd-ucode.img', 'arch/boot/x86_64/initramfs-linux.img'],
      iso_cmdline: 'archisobasedir=arch archisosearchuuid=2024-06-01-08-47-45-00',
      netboot_cmdline: 'archisobasedir=arch archiso_http_srv={{ image_url }} ip=dhcp',
      catalog_entry: { distro: 'archlinux', version: 'latest', arch: 'x86_64' },
    });
    expect(detection.efi_loaders).toEqual(['EFI/BOOT/BOOTx64.EFI', 'EFI/BOOT/BOOTIA32.EFI']);
  });

  it('Alpine: .alpine-release, the lts flavour, repository and modloop from the mount', async () => {
    const { detection } = await detect(ALPINE);
    expect(detection).toMatchObject({
      family: 'alpine',
      distro: 'Alpine Linux',
      version: '3.20.0',
      arch: 'amd64',
      kernel: 'boot/vmlinuz-lts',
      initrds: ['boot/initramfs-lts'],
      catalog_entry: { distro: 'alpine', version: '3.20', arch: 'x86_64' },
    });
    expect(detection.netboot_cmdline).toBe('modules=loop,squashfs,sd-mod,usb-storage quiet console=tty0 console=ttyS0,115200 ip=dhcp alpine_repo={{ image_url }}apks modloop={{ image_url }}boot/modloop-lts');
  });
});

describe('detectImage: Windows', () => {
  it('Windows 11 setup: boot.wim via wimboot, version from idwbinfo and the file name', async () => {
    const { detection } = await detect(WINDOWS_11, { info: { volume_id: 'CCCOMA_X64FRE_EN-US_DV9', udf: true }, fileName: 'Win11_24H2_English_x64.iso' });
    expect(detection).toMatchObject({
      family: 'windows',
      distro: 'Windows 11',
      version: '24H2',
      arch: 'amd64',
      boot_method: 'windows',
      kernel: null,
      initrds: [],
      boot_wim: 'sources/boot.wim',
      iso_cmdline: '',
      netboot_cmdline: '',
      catalog_entry: { distro: 'windows-pe', version: '11', arch: 'x86_64' },
    });
    expect(detection.evidence).toEqual(expect.arrayContaining(['sources/boot.wim', 'bootmgr', 'boot/bcd', 'boot/boot.sdi', 'sources/install.wim']));
    expect(detection.notes.join(' ')).toMatch(/SMB/);
  });

  it('finds the files on a plain ISO 9660 side (upper-case names with versions)', async () => {
    const { detection } = await detect(WINDOWS_PLAIN_ISO9660, { info: { volume_id: 'SSS_X64FREE_EN-US_DV9', rock_ridge: false, joliet: false } });
    expect(detection).toMatchObject({ family: 'windows', boot_method: 'windows', boot_wim: 'SOURCES/BOOT.WIM;1', arch: 'amd64', efi_loaders: ['EFI/BOOT/BOOTX64.EFI;1'] });
    expect(detection.evidence).toContain('SOURCES/INSTALL.ESD;1');
  });

  it('says plainly when the content is in UDF only', async () => {
    const { detection } = await detect(WINDOWS_UDF_ONLY, { info: { volume_id: 'CCCOMA_X64FRE_EN-US_DV9', udf: true }, fileName: 'Win10_22H2_English_x64.iso' });
    expect(detection).toMatchObject({ family: 'windows', distro: 'Windows 10', version: '22H2', boot_method: 'sanboot', boot_wim: null, arch: 'amd64' });
    expect(detection.notes[0]).toMatch(/UDF only/);
  });
});

describe('detectImage: rescue tools', () => {
  it('SystemRescue: archiso under sysresccd/', async () => {
    const { detection } = await detect(SYSTEMRESCUE, { fileName: 'systemrescue-11.01-amd64.iso', info: { volume_id: 'RESCUE1101' } });
    expect(detection).toMatchObject({
      family: 'rescue',
      distro: 'SystemRescue',
      version: '11.01',
      kernel: 'sysresccd/boot/x86_64/vmlinuz',
      initrds: ['sysresccd/boot/intel_ucode.img', 'sysresccd/boot/amd_ucode.img', 'sysresccd/boot/x86_64/sysresccd.img'],
      netboot_cmdline: 'archisobasedir=sysresccd archiso_http_srv={{ image_url }} ip=dhcp iomem=relaxed',
      catalog_entry: null,
    });
  });

  it('GParted Live: the default entry, toram dropped, fetch= the squashfs', async () => {
    const { detection } = await detect(GPARTED);
    expect(detection).toMatchObject({ family: 'rescue', distro: 'GParted Live', version: '1.6.0-3', arch: 'amd64', kernel: 'live/vmlinuz', initrds: ['live/initrd.img'] });
    expect(detection.netboot_cmdline).toBe('boot=live union=overlay username=user config components quiet noswap ip= net.ifnames=0 nosplash fetch={{ image_url }}live/filesystem.squashfs');
  });

  it('Clonezilla Live from its GRUB menu', async () => {
    const { detection } = await detect(CLONEZILLA);
    expect(detection).toMatchObject({ family: 'rescue', distro: 'Clonezilla Live', version: '3.1.2-22', kernel: 'live/vmlinuz' });
    expect(detection.netboot_cmdline).toMatch(/ocs_live_run=ocs-live-general .* fetch=\{\{ image_url \}\}live\/filesystem\.squashfs$/);
  });

  it('Memtest86+: the binary boots as a kernel', async () => {
    const { detection } = await detect(MEMTEST, { fileName: 'mt86plus_7.00_64.grub.iso' });
    expect(detection).toMatchObject({ family: 'rescue', distro: 'Memtest86+', version: '7.00', boot_method: 'linux', kernel: 'boot/memtest', initrds: [] });
  });
});

describe('detectImage: unrecognised media', () => {
  it('sanboot when the ISO boots from BIOS, naming what its menu boots', async () => {
    const { detection } = await detect(
      { 'isolinux/isolinux.cfg': 'default myos\nlabel myos\n  kernel /boot/kernel\n  append root=/dev/sr0\n', 'boot/kernel': 'k' },
      { info: { volume_id: 'MYOS' } },
    );
    expect(detection).toMatchObject({ family: 'other', distro: 'MYOS', boot_method: 'sanboot', kernel: null, iso_cmdline: '', catalog_entry: null });
    expect(detection.notes.join(' ')).toMatch(/boot\/kernel with "root=\/dev\/sr0"/);
  });

  it('none when nothing boots: no El Torito, no menu', async () => {
    const { detection } = await detect({ 'docs/readme.txt': 'hello' }, { info: { volume_id: 'DATA', el_torito: [] } });
    expect(detection).toMatchObject({ family: 'other', boot_method: 'none', kernel: null, efi_loaders: [] });
  });

  it('a UEFI-only image with a GRUB kernel boots that kernel with its own arguments', async () => {
    const { detection } = await detect(
      { 'EFI/BOOT/BOOTX64.EFI': 'e', 'boot/grub/grub.cfg': 'menuentry "Thing" {\n linux /k root=live:LABEL=X\n initrd /i\n}\n', k: 'k', i: 'i' },
      { info: { el_torito: [{ platform: 'uefi', bootable: true, emulation: 'no_emulation', load_rba: 30, sector_count: 100 }] } },
    );
    expect(detection).toMatchObject({ family: 'other', boot_method: 'linux', kernel: 'k', initrds: ['i'], iso_cmdline: 'root=live:LABEL=X', netboot_cmdline: 'root=live:LABEL=X', arch: 'amd64' });
  });
});
