import type { BrowseResult, FileList, FileRoot } from '@contracts/files';
import type { OsImage, PartialUpload } from '@contracts/os-images';
import { ok, type Route } from '../fake-transport.js';
import { okList } from '../render-app.js';

export const IMAGE: OsImage = {
  id: 1,
  name: 'Debian 12.5 netinst',
  slug: 'debian-12.5.0-amd64-netinst',
  description: '',
  file_name: 'debian-12.5.0-amd64-netinst.iso',
  path: '/data/images/debian-12.5.0-amd64-netinst.iso',
  size: 658505728,
  sha256: 'b'.repeat(64),
  source: 'upload',
  state: 'ready',
  error: null,
  iso: {
    volume_id: 'Debian 12.5.0 amd64 n',
    publisher: 'Debian CD',
    application: '',
    created_at: '2024-02-10T12:00:00Z',
    volume_bytes: 658505728,
    joliet: true,
    rock_ridge: true,
    udf: false,
    el_torito: [
      { platform: 'bios', bootable: true, emulation: 'no_emulation', load_rba: 1000, sector_count: 4 },
      { platform: 'uefi', bootable: true, emulation: 'no_emulation', load_rba: 1001, sector_count: 9000 },
    ],
    limitations: [],
  },
  detection: {
    family: 'debian',
    distro: 'Debian GNU/Linux',
    version: '12.5.0',
    arch: 'amd64',
    boot_method: 'linux',
    kernel: 'install.amd/vmlinuz',
    initrds: ['install.amd/initrd.gz'],
    iso_cmdline: 'vga=788 --- quiet',
    netboot_cmdline: 'priority=low cdrom-detect/try-usb=true',
    boot_wim: null,
    efi_loaders: ['EFI/boot/bootx64.efi'],
    catalog_entry: { distro: 'debian', version: '12', arch: 'x86_64' },
    evidence: ['.disk/info', 'install.amd/vmlinuz'],
    notes: ['the installer reads the rest of the ISO over HTTP'],
  },
  extracted: null,
  mounted: null,
  created_at: '2024-05-01T00:00:00Z',
  updated_at: '2024-05-01T00:00:00Z',
};

export const IMPORTED: OsImage = {
  ...IMAGE,
  id: 2,
  name: 'Windows 11',
  slug: 'win11',
  file_name: 'Win11_24H2.iso',
  path: '/srv/isos/Win11_24H2.iso',
  source: 'import',
  state: 'error',
  error: 'the file /srv/isos/Win11_24H2.iso is missing',
  detection: null,
  iso: null,
  mounted: { url_path: '/boot/iso/win11/', since: '2024-05-01T00:00:00Z' },
};

export const PARTIAL: PartialUpload = { upload_id: 'c'.repeat(32), file_name: 'ubuntu-24.04.iso', received: 1024, size: 4096, updated_at: '2024-05-01T00:00:00Z' };

export const ROOTS: FileRoot[] = [
  { id: 'boot', label: 'Boot root', path: '/data/boot', problem: null, free_bytes: 50 * 1024 ** 3, total_bytes: 100 * 1024 ** 3 },
  { id: 'images', label: 'Images', path: '/data/images', problem: null, free_bytes: 50 * 1024 ** 3, total_bytes: 100 * 1024 ** 3 },
];

export const BOOT_LIST: FileList = {
  root: 'boot',
  path: '',
  entries: [
    { name: 'ipxe.efi', path: 'ipxe.efi', type: 'file', size: 1024000, modified_at: '2024-05-01T00:00:00Z', target: null },
    { name: 'images', path: 'images', type: 'directory', size: 4096, modified_at: '2024-05-01T00:00:00Z', target: null },
  ],
};

export const BROWSE_ROOTS: BrowseResult = {
  path: null,
  parent: null,
  roots: ['/srv/isos'],
  entries: [{ name: 'isos', path: '/srv/isos', type: 'directory', size: 4096, modified_at: '2024-05-01T00:00:00Z' }],
};

export const BROWSE_ISOS: BrowseResult = {
  path: '/srv/isos',
  parent: null,
  roots: ['/srv/isos'],
  entries: [
    { name: 'old', path: '/srv/isos/old', type: 'directory', size: 4096, modified_at: '2024-05-01T00:00:00Z' },
    { name: 'Win11_24H2.iso', path: '/srv/isos/Win11_24H2.iso', type: 'file', size: 5.4e9, modified_at: '2024-05-01T00:00:00Z' },
  ],
};

export const IMAGES_FIXTURES: Record<string, Route> = {
  'GET /api/v1/os-images': () => okList([IMAGE, IMPORTED]),
  'GET /api/v1/os-images/1': () => ok(IMAGE),
  'GET /api/v1/os-images/2': () => ok(IMPORTED),
  'GET /api/v1/os-images/uploads': () => ok([]),
  'GET /api/v1/os-images/settings': () => ok({ drop_folder: null, auto_mount: false }),
  'GET /api/v1/files/root': () => ok(ROOTS),
  'GET /api/v1/files': () => ok(BOOT_LIST),
  'GET /api/v1/fs/browse': (_, query) => ok(query.path === '/srv/isos' ? BROWSE_ISOS : BROWSE_ROOTS),
};
