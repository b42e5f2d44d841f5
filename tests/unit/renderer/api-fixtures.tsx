import { settingsDefaults } from '@contracts/settings';
import { BASELINES_FIXTURES } from './baselines/baselines-fixtures.js';
import { ok, type Route } from './fake-transport.js';
import { IMAGES_FIXTURES } from './images/images-fixtures.js';
import { NETBOOT_FIXTURES } from './netboot/netboot-fixtures.js';
import { NFS_FIXTURES } from './nfs/nfs-fixtures.js';
import { okList } from './render-app.js';
import { SCRIPTS_FIXTURES } from './scripts/scripts-fixtures.js';
import { STORE_FIXTURES } from './store/store-fixtures.js';

/**
 * Minimal valid answers for every GET the pages make: enough for each page
 * to render its loaded state (used by the all-pages test).
 */
const SERVICE = { name: 'dns', description: 'DNS', state: 'running', auto_start: true, protected: false, listen: ['udp 127.0.0.1:53'], started_at: '2024-05-01T00:00:00Z', uptime_seconds: 5, last_error: null, notice: null };
const HTTP = { ...SERVICE, name: 'http', protected: true };
const HOST = { id: 1, mac: '52:54:00:00:00:01', hostname: 'web01', ip: '10.0.0.10', profile_id: 1, group: 'lab', tags: ['rack1'], description: '', arch: null, platform: null, enabled: true, discovered: true, last_boot_at: null, last_seen_ip: null, created_at: '2024-05-01T00:00:00Z', updated_at: '2024-05-01T00:00:00Z', boot_loader: null, effective_boot: { action: 'profile', profile_id: 1, profile_name: 'debian', task_id: null, source: 'host', text: 'profile "debian"' }, lifecycle: 'discovered' };
const PROFILE = { id: 1, name: 'Rescue', description: '', boot_type: 'ipxe_script', script: '#!ipxe\nshell\n', linux: null, chain: null, sanboot: null, menu: null, variables: {}, default_for_groups: [], script_version: 2, created_at: '2024-05-01T00:00:00Z', updated_at: '2024-05-01T00:00:00Z', used_by: { assigned: 1, by_group: 0 } };
const VERSION = { id: 1, profile_id: 1, version: 1, boot_type: 'ipxe_script', script: '#!ipxe\n', author: 'admin', comment: 'created', created_at: '2024-05-01T00:00:00Z' };
const EVENT = { id: 1, kind: 'service.started', level: 'info', message: 'dns started', mac: null, ip: null, host_id: null, detail: { service: 'dns' }, created_at: '2024-05-01T00:00:00Z' };
const SUBNET = { subnet: '10.0.0.0/24', ranges: [{ start: '10.0.0.100', end: '10.0.0.200' }], lease_time_seconds: null, router: null, dns_servers: null, domain_name: null, ntp_servers: [], options: [] };
const BMC = { id: 1, name: 'bmc1', address: '10.0.0.50', port: 623, protocol: 'ipmi', username: 'admin', has_password: true, host_id: 1, verify_tls: true, cipher_suite: null, privilege: 'administrator', power_state: 'on', vendor: null, model: null, last_checked_at: null, last_error: null, created_at: '2024-05-01T00:00:00Z', updated_at: '2024-05-01T00:00:00Z' };
const USAGE = { size: 101, used: 3, reserved: 1, quarantined: 0, free: 97, utilisation_percent: 3.9, expired: 0 };

export const API_FIXTURES: Record<string, Route> = {
  'GET /api/v1/services': () => ok([HTTP, SERVICE]),
  // Done and changed: the first-run card and the password banner stay out of the other pages' tests.
  'GET /api/v1/system/first-run': () => ok({ completed: true, skipped: false, must_change_password: false }),
  'GET /api/v1/network/interfaces': () => okList([{ name: 'eth0', mac: '02:00:00:00:00:01', addresses: [{ address: '10.0.0.1', family: 'ipv4', prefix: 24, cidr: '10.0.0.1/24', subnet: '10.0.0.0/24' }], mtu: 1500, up: true, internal: false, link: 'up' }]),
  'GET /api/v1/hosts/summary': () =>
    ok({
      total: 3,
      by_lifecycle: { new: 1, discovered: 1, ready: 0, installing: 0, deployed: 0, failed: 1 },
      waiting_adoption: 1,
      failed_boots_last_hour: [],
    }),
  'GET /api/v1/metrics/history': () =>
    ok({
      interval_seconds: 60,
      series: ['dhcp_leases_active', 'boots_ok', 'dns_queries', 'tftp_bytes'].map((name) => ({ name, unit: '', description: '', points: [{ at: '2024-05-01T00:00:00Z', value: 3 }, { at: '2024-05-01T00:01:00Z', value: 5 }] })),
    }),
  'GET /api/v1/alerts': () =>
    ok([{ id: 'service.dns', severity: 'error', source: 'services', title: 'DNS failed', message: 'udp 0.0.0.0:53: address in use', since: null, link: '/services/dns', dismissed: false }]),
  'GET /api/v1/status': () => ok({ version: '0.1.0', server_name: 'bootwright', started_at: '2024-05-01T00:00:00Z', uptime_seconds: 60, urls: ['http://10.0.0.1:8080'], interface_watch: { mode: 'events', detail: null }, services: { total: 2, by_state: { stopped: 0, starting: 0, running: 2, stopping: 0, failed: 0 }, list: [HTTP, SERVICE] }, data_dir: { path: '/data', bytes_used: 1024, usage_truncated: false, fs_free_bytes: 1e9, fs_total_bytes: 2e9 } }),
  'GET /api/v1/events': () => okList([EVENT]),
  'GET /api/v1/settings/interfaces': () => ok({ served: 'auto', server_addresses: [], detected_interfaces: [{ name: 'eth0', mac: '02:00:00:00:00:01', addresses: [{ address: '10.0.0.1', family: 'ipv4', prefix: 24, cidr: '10.0.0.1/24', subnet: '10.0.0.0/24' }], mtu: 1500, up: true, internal: false }], resolved_addresses: [{ interface: 'eth0', subnet: '10.0.0.0/24', address: '10.0.0.1', source: 'detected', served: true }] }),
  'GET /api/v1/settings/general': () => ok({ server_name: 'bootwright', update_feed_url: null, allowed_hosts: [] }),
  'GET /api/v1/settings/netboot': () => ok(settingsDefaults({ logLevel: 'info' }).netboot),
  'GET /api/v1/settings/logging': () => ok({ level: 'info', event_retention_count: 20000, event_retention_days: 30, audit_retention_days: 90 }),
  'GET /api/v1/version': () => ok({ version: '0.1.0', commit: null, build_date: null, node: 'v20', electron: null, platform: 'linux', arch: 'x64' }),
  'GET /api/v1/bootloader/check': () => ok({ ok: true, checked_at: '2024-05-01T00:00:00Z', files: [], profiles: [], problems: [], architectures: [], boot_root: '/data/boot', tftp_root: null }),
  'GET /api/v1/bootloader/files': () => ok([]),
  'GET /api/v1/services/dhcp': () => ok({ interfaces: [{ name: 'eth0', mode: 'server' }], subnets: [SUBNET], default_lease_time_seconds: 3600, authoritative: true, ping_check: false, decline_quarantine_seconds: 86400, access_mode: 'open', rogue_guard: true, rogue_probe_timeout_ms: 3500, force: false, ipv6_ra: 'auto' }),
  'GET /api/v1/dhcp/guard': () => ok({ interfaces: [{ interface: 'eth0', state: 'clear', probed_at: '2024-05-01T00:00:00Z', foreign: [], message: 'no other DHCP server answered' }], sightings: [] }),
  'GET /api/v1/services/archmap': () => ok({ entries: [{ code: 7, name: 'x64 UEFI', boot_file: 'ipxe.efi', http_boot_url_path: null, alternatives: [] }] }),
  'GET /api/v1/leases': () => okList([{ mac: '52:54:00:00:00:02', ip: '10.0.0.100', hostname: null, state: 'active', subnet: '10.0.0.0/24', starts_at: '2024-05-01T00:00:00Z', expires_at: '2030-05-01T00:00:00Z', client_id: null, vendor_class: 'PXEClient', arch: 7, reserved: false }]),
  'GET /api/v1/leases/stats': () => ok({ overall: { ...USAGE, leases: 3 }, ranges: [{ ...USAGE, subnet: '10.0.0.0/24', start: '10.0.0.100', end: '10.0.0.200' }] }),
  'GET /api/v1/dhcp/reservations': () => okList([{ id: 1, mac: '52:54:00:00:00:01', ip: '10.0.0.10', hostname: 'web01', boot_file: null, options: [], host_id: 1, created_at: '2024-05-01T00:00:00Z', updated_at: '2024-05-01T00:00:00Z' }]),
  'GET /api/v1/access/whitelist': () => okList([{ id: 1, mac: '52:54:00:00:00:01', comment: 'lab', created_at: '2024-05-01T00:00:00Z' }]),
  'GET /api/v1/access/blacklist': () => okList([]),
  'GET /api/v1/access/unauthorized': () => okList([{ id: 1, mac: '52:54:00:00:00:09', first_seen: '2024-05-01T00:00:00Z', last_seen: '2024-05-01T00:00:00Z', count: 3, vendor_class: null, arch: null, hostname: null }]),
  'GET /api/v1/services/dns': () => ok({ enabled: true, port: 53, local_domain: 'bootwright.local', upstream: '' }),
  'GET /api/v1/dns/records': () => okList([{ id: 1, name: 'pxe', type: 'A', value: '10.0.0.1', ttl: 300, priority: null, subnet: null, enabled: true, comment: '', created_at: '2024-05-01T00:00:00Z', updated_at: '2024-05-01T00:00:00Z' }]),
  'GET /api/v1/services/tftp': () => ok({ enabled: true, port: 69, root: '/data/boot', max_blksize: 1468, max_windowsize: 64, timeout: 2, retries: 5 }),
  'GET /api/v1/services/ipxe-script': () => ok({ script: '#!ipxe\n', is_default: true, default_script: '#!ipxe\n', updated_at: null, updated_by: null }),
  'GET /api/v1/hosts': () => okList([HOST]),
  'GET /api/v1/hosts/1': () => ok(HOST),
  'GET /api/v1/hosts/1/timeline': () => ok({ mac: HOST.mac, host_id: 1, boots: [] }),
  'GET /api/v1/hosts/1/inventory': () => ok(null),
  'GET /api/v1/hosts/booting-now': () => okList([]),
  'GET /api/v1/hosts/1/boot-config': () => ok({ host_id: 1, mac: HOST.mac, action: 'menu', reason: 'global_default', reason_text: 'no profile', profile: null, loader: { kind: 'grub', architecture: null, first_stage: 'shimx64.efi', source: 'architecture', reason_text: 'the x64 UEFI default is the signed chain (shim → GRUB)' }, script: '#!ipxe\nmenu\n', grub_config: 'menuentry "Local disk" {\n  exit\n}\n', grub_config_path: 'grub/host/x86_64/52:54:00:00:00:01.cfg', render_error: null, files: [], entry_url: 'http://x/boot/ipxe/entry.ipxe', script_url: 'http://x/boot/ipxe/boot.ipxe', client_ip: null, servers: [] }),
  'GET /api/v1/profiles': () => okList([PROFILE]),
  'GET /api/v1/profiles/1': () => ok(PROFILE),
  'GET /api/v1/profiles/1/script-versions': () => okList([VERSION]),
  'GET /api/v1/bmc/configs': () => okList([BMC]),
  'GET /api/v1/wol/history': () => okList([{ id: 1, mac: HOST.mac, host_id: 1, interface: 'eth0', port: 9, trigger: 'manual', user: 'admin', result: 'sent', error: null, created_at: '2024-05-01T00:00:00Z' }]),
  'GET /api/v1/wol/schedules': () => okList([]),
  'GET /api/v1/wol/interfaces': () => ok([]),
  'GET /api/v1/audit-logs': () => okList([]),
  'GET /api/v1/logs/files': () => ok([{ name: 'bootwright.log', size: 1000, modified_at: '2024-05-01T00:00:00Z', current: true }]),
  'GET /api/v1/logs/disk-usage': () => ok({ bytes: 1000, files: 1, fs_free_bytes: 1e9, fs_total_bytes: 2e9 }),
  'GET /api/v1/users': () => okList([]),
  'GET /api/v1/tokens': () => okList([]),
  'GET /api/v1/baselines/runs': () => okList([]),
  ...NETBOOT_FIXTURES,
  ...SCRIPTS_FIXTURES,
  ...BASELINES_FIXTURES,
  ...STORE_FIXTURES,
  ...IMAGES_FIXTURES,
  ...NFS_FIXTURES,
};
