import type { NfsBrowseResult, NfsSettingsView, NfsStatus } from '@contracts/nfs';
import { ok, type Route } from '../fake-transport.js';

export const NFS_SETTINGS: NfsSettingsView = {
  enabled: true,
  nfs_port: 2049,
  mount_port: 20048,
  portmapper: 'auto',
  udp: true,
  export_mounted_images: true,
  image_clients: ['10.0.0.0/24'],
  image_clients_default: false,
  exports: [
    { id: 1, path: '/live', folder: '/srv/live', image_id: null, clients: ['10.0.0.0/24'], enabled: true, comment: 'live system', problem: null },
    { id: 2, path: '/debian', folder: null, image_id: 1, clients: ['10.0.0.0/24', 'fd00::/64'], enabled: true, comment: '', problem: 'image 1 is not readable' },
  ],
};

export const NFS_STATUS: NfsStatus = {
  portmapper: { mode: 'own', detail: 'our portmapper on udp/tcp 0.0.0.0:111' },
  listen: ['tcp 0.0.0.0:2049', 'udp 0.0.0.0:2049'],
  exports: [
    { id: 1, path: '/live', source: 'folder /srv/live', automatic: false, clients: ['10.0.0.0/24'], problem: null },
    { id: 1_000_002, path: '/iso/win11', source: 'image 2 (Win11_24H2.iso)', automatic: true, clients: ['10.0.0.0/24'], problem: null },
  ],
  clients: [
    { address: '10.0.0.42', mounts: ['/live'], first_seen: '2024-05-01T00:00:00Z', last_seen: '2024-05-01T00:01:00Z', requests: 1234, bytes_read: 3 * 1024 ** 3, refused: 2 },
  ],
  requests: 1240,
  bytes_read: 3 * 1024 ** 3,
  refused: 2,
};

export const NFS_BROWSE_ROOTS: NfsBrowseResult = {
  path: null,
  parent: null,
  roots: ['/srv'],
  entries: [{ name: 'srv', path: '/srv', type: 'directory', size: 4096, modified_at: '2024-05-01T00:00:00Z' }],
};

export const NFS_BROWSE_SRV: NfsBrowseResult = {
  path: '/srv',
  parent: null,
  roots: ['/srv'],
  entries: [{ name: 'rescue', path: '/srv/rescue', type: 'directory', size: 4096, modified_at: '2024-05-01T00:00:00Z' }],
};

export const NFS_FIXTURES: Record<string, Route> = {
  'GET /api/v1/services/nfs': () => ok(NFS_SETTINGS),
  'GET /api/v1/services/nfs/status': () => ok(NFS_STATUS),
  'GET /api/v1/services/nfs/browse-path': (_, query) => ok(query.path === '/srv' ? NFS_BROWSE_SRV : NFS_BROWSE_ROOTS),
};
