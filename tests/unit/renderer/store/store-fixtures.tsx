import type { StoreFeedStatus, StoreImportResult, StoreItem, StoreItemDetail } from '@contracts/community-store';
import { ok, type Route } from '../fake-transport.js';

/** Store API answers typed by the contract, shared by the store page tests and the all-pages fixtures. */
export const DEBIAN_BUNDLE: StoreItem = {
  type: 'bundle',
  id: 'debian-lab',
  name: 'Debian lab',
  version: '1.2.0',
  summary: 'Preseed, SSH keys and NTP for a Debian lab',
  tags: ['debian', 'lab'],
  os_family: 'linux',
  author: 'Bootwright',
  source: 'builtin',
  sha256: 'c'.repeat(64),
  installed: null,
};

export const NTP_SCRIPT: StoreItem = {
  ...DEBIAN_BUNDLE,
  type: 'script',
  id: 'ntp',
  name: 'NTP client',
  version: '2.0.0',
  summary: 'Points chrony at your NTP server',
  tags: ['ntp'],
  source: 'community',
  installed: { local: [{ type: 'script', id: 9, name: 'NTP client' }], version: '1.0.0', sha256: 'd'.repeat(64), imported_at: '2024-05-01T00:00:00Z', imported_by: 'admin', update_available: true },
};

export const DEBIAN_DETAIL: StoreItemDetail = {
  ...DEBIAN_BUNDLE,
  description: 'Everything a Debian lab machine needs.',
  payload: { items: [{ type: 'script', id: 'ssh-keys' }] },
  requires: ['script/ssh-keys', 'script/ntp'],
};

export const FEEDS: StoreFeedStatus[] = [
  { name: 'builtin', url: '', state: 'builtin', items: 14, fetched_at: null, error: null },
  { name: 'community', url: 'https://feed.example/index.json', state: 'failed', items: 3, fetched_at: '2024-05-01T00:00:00Z', error: 'connect ECONNREFUSED: the feed did not answer in 10 s' },
];

export const PLAN: StoreImportResult = {
  dry_run: true,
  items: [
    { type: 'script', store_id: 'ssh-keys', action: 'created', local_id: null, name: 'ssh-keys' },
    { type: 'bundle', store_id: 'debian-lab', action: 'created', local_id: null, name: 'Debian lab' },
  ],
};

export const STORE_FIXTURES: Record<string, Route> = {
  'GET /api/v1/store/catalog': () => ok([DEBIAN_BUNDLE, NTP_SCRIPT]),
  'GET /api/v1/store/feeds': () => ok(FEEDS),
  'GET /api/v1/store/items/bundle/debian-lab': () => ok(DEBIAN_DETAIL),
};
