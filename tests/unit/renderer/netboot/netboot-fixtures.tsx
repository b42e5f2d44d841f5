import type { AnswerPreset, AnswerTemplate, AnswerTemplateVersion, CacheStats, CatalogEntryView, CatalogGroup, EntryFilesCheck, InstallTask, Overlay } from '@contracts/netboot';
import { ok, type Route } from '../fake-transport.js';
import { okList } from '../render-app.js';

/** Netboot API answers typed by the contract, shared by the netboot page tests and the all-pages fixtures. */
export const GROUPS: CatalogGroup[] = [
  { id: 'linux', name: 'Linux installers', description: '', order: 1 },
  { id: 'tools', name: 'Tools', description: '', order: 2 },
];

export const DEBIAN: CatalogEntryView = {
  distro: 'debian',
  name: 'Debian',
  family: 'debian',
  group: 'linux',
  description: 'The universal operating system',
  loader: 'linux',
  mirror: 'http://deb.debian.org/debian/dists/{{ codename }}/main/installer-{{ arch_alias }}/current/images/netboot/',
  arch_aliases: { x86_64: 'amd64', arm64: 'arm64' },
  cmdline: '{{ answer_argument }}',
  answer: { kind: 'preseed', argument: 'auto=true priority=critical preseed/url={{ answer_url }}' },
  versions: [
    {
      version: '12',
      name: '12 (bookworm)',
      codename: 'bookworm',
      default: true,
      architectures: [
        { arch: 'x86_64', firmware: ['bios', 'uefi'], kernel: 'debian-installer/amd64/linux', initrds: ['debian-installer/amd64/initrd.gz'] },
        { arch: 'arm64', firmware: ['uefi'], kernel: 'debian-installer/arm64/linux', initrds: ['debian-installer/arm64/initrd.gz'] },
      ],
    },
  ],
  overlay: false,
};

export const MEMTEST: CatalogEntryView = {
  distro: 'memtest86plus',
  name: 'memtest86+',
  family: 'utility',
  group: 'tools',
  description: 'Memory test',
  loader: 'efi',
  mirror: null,
  cmdline: '',
  answer: null,
  versions: [{ version: '7', name: '7.00', architectures: [{ arch: 'x86_64', firmware: ['bios', 'uefi'], kernel: 'memtest64.efi', initrds: [] }] }],
  overlay: true,
};

const check = (distro: string, version: string, arch: 'x86_64' | 'arm64', availability: EntryFilesCheck['availability'], problem: string | null = null): EntryFilesCheck => ({
  distro,
  version,
  arch,
  availability,
  files: [{ role: 'kernel', path: 'linux', availability, location: `/${distro}/${version}/${arch}/linux`, size_bytes: null }],
  problem,
});

export const CHECKS: EntryFilesCheck[] = [check('debian', '12', 'x86_64', 'remote'), check('debian', '12', 'arm64', 'cached'), check('memtest86plus', '7', 'x86_64', 'local')];

export const CACHE: CacheStats = { dir: '/data/netboot-cache', size_bytes: 52_428_800, max_bytes: 21_474_836_480, entries: 2, hits: 3, misses: 1, bytes_served: 104_857_600, bytes_downloaded: 52_428_800, evictions: 0, downloads_active: 0, offline: false };

export const TEMPLATE: AnswerTemplate = {
  id: 1,
  name: 'Debian lab',
  kind: 'preseed',
  description: 'Lab machines',
  content: 'd-i debian-installer/locale string {{ variables.locale }}\nd-i netcfg/get_hostname string {{ host.hostname }}\nd-i passwd/root-password-crypted password {{ secrets.root_password }}\n',
  variables: { locale: 'en_US.UTF-8' },
  secret_names: ['root_password'],
  preset: 'debian-preseed',
  version: 2,
  created_at: '2024-05-01T00:00:00Z',
  updated_at: '2024-05-02T00:00:00Z',
};

export const TEMPLATE_VERSIONS: AnswerTemplateVersion[] = [
  { id: 11, template_id: 1, version: 2, content: TEMPLATE.content, author: 'admin', comment: 'hostname', created_at: '2024-05-02T00:00:00Z' },
  { id: 10, template_id: 1, version: 1, content: 'd-i debian-installer/locale string en_US\n', author: 'admin', comment: 'created', created_at: '2024-05-01T00:00:00Z' },
];

export const PRESETS: AnswerPreset[] = [
  { id: 'debian-preseed', kind: 'preseed', name: 'Debian preseed', description: 'Minimal Debian install.', families: ['debian'], content: 'd-i ...\n', variables: [{ name: 'root_password', description: '', default: '', secret: true, required: true }] },
  { id: 'rocky-kickstart', kind: 'kickstart', name: 'Rocky kickstart', description: 'Minimal Rocky install.', families: ['redhat'], content: 'text\n', variables: [] },
];

export const TASK: InstallTask = {
  id: 1,
  host_id: 1,
  mac: '52:54:00:00:00:01',
  distro: 'debian',
  version: '12',
  arch: 'x86_64',
  template_id: 1,
  template_version: 2,
  variables: {},
  state: 'booting',
  message: 'boot script served',
  after_install: 'local_disk',
  created_at: '2024-05-01T00:00:00Z',
  updated_at: '2024-05-01T00:01:00Z',
  expires_at: '2030-05-02T00:00:00Z',
  started_at: '2024-05-01T00:01:00Z',
  finished_at: null,
  answer_url: 'http://10.0.0.1:8080/api/v1/netboot/answer/1?token=abc',
  timeline: [
    { at: '2024-05-01T00:00:00Z', kind: 'netboot.task.created', state: 'pending', message: 'task created' },
    { at: '2024-05-01T00:01:00Z', kind: 'dhcp.ack', state: null, message: 'DHCP ACK 10.0.0.100' },
    { at: '2024-05-01T00:01:05Z', kind: 'boot.script_served', state: 'booting', message: 'boot script served' },
  ],
};

export const OVERLAY: Overlay = { distro: 'memtest86plus', mirror: 'http://mirror.lan/memtest/', updated_at: '2024-05-01T00:00:00Z', updated_by: 'admin', warnings: [] };

/** The reads every netboot page makes, answered for a viewer. */
export const NETBOOT_FIXTURES: Record<string, Route> = {
  'GET /api/v1/netboot/catalog': () => okList([DEBIAN, MEMTEST]),
  'GET /api/v1/netboot/groups': () => okList(GROUPS),
  'GET /api/v1/netboot/check-files': () => ok(CHECKS),
  'GET /api/v1/netboot/cache-stats': () => ok(CACHE),
  'GET /api/v1/netboot/overlays': () => okList([OVERLAY]),
  'GET /api/v1/netboot/answer-templates': () => okList([TEMPLATE]),
  'GET /api/v1/netboot/answer-templates/1': () => ok(TEMPLATE),
  'GET /api/v1/netboot/answer-templates/presets': () => okList(PRESETS),
  'GET /api/v1/netboot/answer-templates/1/versions': () => okList(TEMPLATE_VERSIONS),
  'GET /api/v1/netboot/tasks': () => okList([TASK]),
  'GET /api/v1/netboot/tasks/1': () => ok(TASK),
};
