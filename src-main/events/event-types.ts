import { EVENT_LEVELS, type EventData, type EventLevel } from './events-contract.js';

export { EVENT_LEVELS, type EventLevel };

/**
 * The kinds emitted so far, with what they mean. A kind is dotted, area first
 * (`service.started`, `dhcp.lease.granted`); docs/events-and-logs.md lists them.
 */
export const KNOWN_EVENT_KINDS = {
  'service.started': 'A managed service started; detail: service, listen',
  'service.stopped': 'A managed service stopped; detail: service',
  'service.failed': 'A managed service failed to start (error); detail: service, error',
  'store.recovered': 'A store file was unreadable at start and was moved aside and restored (error)',
  'auth.login': 'A user logged in; ip; detail: user_id, username, role',
  'auth.login_failed': 'A login was refused (warn); ip; detail: username, locked',
  'auth.logout': 'A user logged out; ip; detail: user_id, username',
  'settings.changed': 'Settings sections were saved; detail: sections',
  'network.interfaces_changed': 'Network interfaces appeared or went away; detail: added, removed, interfaces',
  'update.download.progress': 'An update download advanced; detail: version, bytes, total, percent',
  'update.download.failed': 'An update download failed (warn); detail: version',
  'update.downloaded': 'An update was downloaded and its SHA-256 verified; detail: version, file, bytes, sha256',
  'dns.record.created': 'A DNS record was created (also the auto-records); detail: id, name, type, value, subnet',
  'dns.record.updated': 'A DNS record was changed; detail: id, name, type, value, subnet',
  'dns.record.deleted': 'A DNS record was deleted; detail: id, name, type, value, subnet',
  'dhcp.discover': 'A DHCPDISCOVER (or proxyDHCP DISCOVER) was received; mac; detail: arch, arch_name, vendor_class, ipxe, hostname, interface, subnet, mode',
  'dhcp.offer': 'An OFFER was sent (or none could be: warn, detail exhausted or ping_conflict); mac, ip; detail: arch, arch_name, vendor_class, ipxe, hostname, interface, subnet, mode',
  'dhcp.request': 'A DHCPREQUEST was received (selecting, init-reboot, renew); mac, ip; detail: arch, arch_name, vendor_class, ipxe, hostname, interface, subnet, mode',
  'dhcp.ack': 'A DHCPACK was sent (after the lease was on disk); mac, ip; detail: arch, arch_name, vendor_class, ipxe, hostname, interface, subnet, mode',
  'dhcp.nak': 'A DHCPNAK was sent (warn); mac; detail: arch, arch_name, vendor_class, ipxe, hostname, interface, subnet, mode, reason',
  'dhcp.decline': 'A client declined an address; it is quarantined (warn); mac, ip; detail: arch, arch_name, vendor_class, ipxe, hostname, interface, subnet, mode, quarantine_seconds',
  'dhcp.release': 'A client released its lease; mac, ip; detail: arch, arch_name, vendor_class, ipxe, hostname, interface, subnet, mode',
  'dhcp.inform': 'A DHCPINFORM was answered; mac, ip; detail: arch, arch_name, vendor_class, ipxe, hostname, interface, subnet, mode',
  'dhcp.denied': 'A blacklisted, or in whitelist mode unlisted, client got no DHCP or proxyDHCP answer (warn); mac; detail: arch, arch_name, vendor_class, ipxe, hostname, interface, subnet, mode, reason',
  'dhcp.lease.granted': 'A new lease, or a lease for another address, was acknowledged; mac, ip; detail: arch, arch_name, vendor_class, ipxe, hostname, interface, subnet, mode, lease_seconds',
  'dhcp.lease.expired': 'A lease ran out; mac, ip; detail: arch, vendor_class, hostname',
  'dhcp.foreign_server': 'Another DHCP server answers on a segment we serve or were to serve in server mode (warn; once per interface and server per 10 minutes): the start\'s probe (verdict blocked or forced), the periodic probe, or a client REQUEST naming it; mac (the client), ip (its server id); detail: interface, server_id, how (probe, client_request), client_mac, server, verdict',
  'boot.script_served': 'A machine got its boot script; mac, ip, host_id; detail: arch, platform, uuid, serial, profile, profile_id, action, reason',
  'boot.script_failed': 'A boot script template failed to render at boot; the machine got the fallback script (error); detail: script, profile, profile_id, error',
  'boot.denied': 'A machine denied by the access lists asked for its boot script (warn); mac, ip; detail: arch, platform',
  'bootloader.check.ignored': 'An operator changed the architectures the boot-loader check ignores; detail: added, removed, architectures',
  'host.discovered': 'An unknown machine booted and was recorded as a discovered host; mac, ip, host_id; detail: arch, platform',
  'host.discovery_limited': 'Unknown machines booted but were not recorded: the discovery cap or rate limit was reached (warn, at most once a minute); ip; detail: reason, refused, pending_cap, rate_global, rate_source, pending, max_pending, per_minute, per_source_per_minute',
  'hosts.import.progress': 'A host import of at least 1000 rows reached a phase (checked, reservations_written); detail: phase, rows',
  'hosts.import.done': 'A host import was written in one transaction; detail: rows, created, updated',
  'hosts.reservations.orphaned': 'At start, DHCP reservations linked to hosts that do not exist (a write interrupted by a crash) were removed; detail: host_ids',
  'tftp.transfer.started': 'A TFTP client began receiving a file (first DATA sent); ip; detail: transfer_id, client, file, size, mode, virtual, blksize, windowsize',
  'tftp.transfer.completed': 'A TFTP client received a whole file; ip; detail: as started plus bytes, duration_ms, retransmits',
  'http.transfer.completed': 'An HTTP client received a whole boot file from /boot/; ip; detail: file, bytes, range, method (sendfile|stream), duration_ms',
  'http.transfer.failed': 'An HTTP client went away before the end of a boot file (warn); ip; detail: file, bytes (expected), range, method, duration_ms',
  'tftp.transfer.failed': 'A TFTP request was refused or a transfer failed (warn); ip; detail: client, file, bytes, duration_ms, error (and error_code when refused)',
  'wol.sent': 'A Wake-on-LAN magic packet was sent; mac, host_id; detail: history_id, interfaces, port, trigger, user',
  'wol.failed': 'A Wake-on-LAN attempt sent nothing (no MAC, no interface on the subnet, socket error) (warn); mac, host_id; detail: history_id, trigger, user, error',
  'wol.schedule.fired': 'A WOL schedule ran (warn when some wakes failed); detail: schedule_id, name, due_at, sent, failed, history_ids',
  'wol.schedule.missed': 'A WOL schedule run was due while the app was not running (or started > 5 min late) and was skipped (warn); detail: schedule_id, name, due_at, reason',
  'bmc.power': 'A BMC power action ran (warn on failure); host_id; detail: config_id, name, protocol, user, action, result, error, reason',
  'bmc.boot_device': 'A BMC boot device was set (warn on failure); host_id; detail: config_id, name, protocol, user, device, persistent, efi, result, error, reason',
  'bmc.batch.progress': 'A BMC batch finished one more item; detail: batch_id, action, done, total, succeeded, failed, user',
  'netboot.catalog.invalid': 'The shipped netboot catalog failed its checks; start-up stops (error); detail: file, problems',
  'store.imported': 'Items were imported from the community store (all or nothing); detail: import_id, key, source, version, sha256, user, items (type, store_id, action, local_id, name)',
  'store.import.rolled_back': 'A store import interrupted by a crash was undone at start (warn); detail: import_id, key, steps, problems',
  'kit.imported': 'A kit file was imported (all or nothing); detail: user, exported_at, source (server_name, version), counts (per action)',
  'kit.import.rolled_back': 'A kit import interrupted by a crash was undone at start (warn); detail: import_id, steps, problems',
  'store.feed.failed': 'A store feed\'s index could not be fetched or verified; its last good index is served if there is one (warn); detail: feed, url, error, stale',
  'netboot.overlay.changed': 'A netboot catalog overlay was created, replaced or deleted; detail: distro, action, fields, user',
  'netboot.task.created': 'An install task was created; mac, host_id; detail: task_id, distro, version, arch, template_id, after_install',
  'netboot.task.state': 'An install task changed state (warn for failed and expired); mac, host_id; detail: task_id, from, to, source (api, boot, answer, callback, expiry), message',
  'netboot.task.firmware_unsupported': 'A machine with an install task booted in a firmware mode its catalog entry does not support; the task stays pending (warn); mac, ip, host_id; detail: task_id, firmware, supported',
  'netboot.task.image_fallback': 'An install task\'s entry is linked to an OS image that could not be used (deleted, not ready, unmountable, no network installer on it): the entry\'s own files boot instead (warn); mac, ip, host_id; detail: task_id, boot_source, image_id, reason',
  'netboot.answer_fetched': 'An installer fetched its answer file or a cloud-init seed file; mac, ip, host_id; detail: task_id, file, template_id, template_version, bytes, content_type',
  'netboot.answer_refused': 'A PXE runtime request was refused (no or wrong token, unknown or final task, foreign address, rate limit) (warn; at most 20 a minute, the rest counted in suppressed); ip; detail: route, reason, task_id, suppressed',
  'netboot.prefetch.progress': 'A prefetch of a catalog entry downloads (at most every 500 ms); detail: job_id, distro, version, arch, bytes_done, bytes_total',
  'netboot.prefetch.done': 'A prefetch finished: every file of the entry is here; detail: job_id, distro, version, arch, bytes_done, bytes_total',
  'netboot.prefetch.failed': 'A prefetch failed (error); detail: job_id, distro, version, arch, bytes_done, error',
  'netboot.cache.evicted': 'A least recently used file left the netboot download cache; detail: url, size_bytes, last_used',
  'netboot.callback': 'An installer reported progress (warn for failed); mac, ip, host_id; detail: task_id, state, message',
  'baseline.created': 'A baseline was created; detail: id, name, user',
  'baseline.updated': 'A baseline was changed; detail: id, name, user, fields',
  'baseline.deleted': 'A baseline was deleted; detail: id, name, user',
  'script.created': 'A post-install script was created; detail: id, name, kind, os_family, version, sha256, user',
  'script.updated': 'A script was changed or rolled back (a new version when content or kind changed); detail: id, name, kind, os_family, version, sha256, user',
  'script.deleted': 'A script and its versions were deleted; detail: id, name, kind, os_family, version, sha256, user, and forced, used_by when deleted with ?force=true while in use',
  'baseline.run.started': 'An installed machine started running its baseline (its first report with a runtime token); mac, ip, host_id; detail: run_id, task_id, baseline_id, baseline_name, scripts',
  'baseline.run.finished': 'A machine finished its baseline run (warn when it failed); mac, ip, host_id; detail: run_id, task_id, baseline_id, status, results (position, script_id, status, exit_code)',
  'host.inventory.received': 'An installed machine posted its hardware inventory through its baseline runtime token; mac, ip, host_id; detail: bytes, vendor, product, serial',
  'os_image.added': 'An OS image was added (upload, import, drop folder); detail: image_id, name, slug, source, file_name, size',
  'os_image.updated': 'An OS image\'s name, slug or description changed; detail: image_id, fields, slug',
  'os_image.removed': 'An OS image was deleted; detail: image_id, name, slug, file_name, file_deleted, forced, used_by',
  'os_image.detected': 'Detection said what an OS image is; detail: image_id, family, distro, version, arch, boot_method, catalog_entry',
  'os_image.extracted': 'An OS image was extracted into the boot root; detail: image_id, mode, boot_path, files, bytes',
  'os_image.mounted': 'An OS image\'s content is served under /boot/iso/<slug>/; detail: image_id, slug, url_path',
  'os_image.unmounted': 'An OS image\'s content is no longer served; detail: image_id, slug',
  'os_image.failed': 'An OS image operation failed, or its file went missing, or a drop-folder file was not added (warn); detail: image_id, operation (detect, hash, extract, restore, file, drop_folder), error, path',
  'os_image.upload.progress': 'An image upload advanced (at most every 500 ms); detail: upload_id, file_name, bytes, total, percent',
  'os_image.copy.progress': 'An import with mode copy advanced (at most every 500 ms); detail: copy_id, file_name, source, bytes, total, percent',
  'os_image.hash.progress': 'Hashing a linked image advanced (at most every 500 ms); detail: image_id, bytes, total, percent',
  'os_image.extract.progress': 'An extraction advanced (at most every 500 ms); detail: image_id, files, bytes, total_bytes, percent',
  'nfs.mounted': 'An NFS client mounted an export (MOUNT MNT); ip; detail: client, export',
  'nfs.unmounted': 'An NFS client unmounted an export, or all of them (MOUNT UMNT/UMNTALL); ip; detail: client, export (null for all)',
  'nfs.refused': 'An NFS client outside an export\'s subnets was refused (warn; at most one per client per minute); ip; detail: client, export, reason, suppressed',
  'nfs.exports.changed': 'The NFS exports served changed (settings, allowed roots, images mounted or unmounted); detail: served, not_served',
} as const satisfies Record<string, string>;

export type KnownEventKind = keyof typeof KNOWN_EVENT_KINDS;

/** Any dotted kind; the known ones autocomplete. */
export type EventKind = KnownEventKind | (string & {});

/** What a module hands to `events.emit`. `kind` is dotted: `service.started`, `dhcp.lease.granted`. */
export interface EventInput {
  kind: EventKind;
  level?: EventLevel;
  message: string;
  mac?: string;
  ip?: string;
  host_id?: number;
  detail?: Record<string, unknown>;
}

/** A stored event. `id` is monotonic and never reused (it is the SSE `id:`). */
export interface AppEvent {
  id: number;
  kind: string;
  level: EventLevel;
  message: string;
  mac: string | null;
  ip: string | null;
  host_id: number | null;
  detail: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}

/** An event as the API and the streams show it (events never change, so no updated_at). */
export type EventView = EventData;

export function eventView(event: AppEvent, hostName: string | null = null): EventView {
  return {
    id: event.id,
    kind: event.kind,
    level: event.level,
    message: event.message,
    mac: event.mac,
    ip: event.ip,
    host_id: event.host_id,
    ...(hostName !== null ? { host_name: hostName } : {}),
    detail: event.detail,
    created_at: event.created_at,
  };
}
